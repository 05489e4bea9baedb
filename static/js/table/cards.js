// @ts-check
// The four seat cards round the board, each for the seat that sits on that side as the
// viewer sees the table: name (or the empty seat's 坐下 and, for the creator, 电脑入座),
// the side's mark, ready, 托管, offline, out and why, timeouts-and-passes, whose turn and
// the clock counting down to `deadline_at`.
import { setAvatar } from '../avatar.js';
import { byId, el } from '../dom.js';
import { signed, t } from '../i18n.js';
import { seatAt } from './geometry.js';
import { amCreator, mySeat, seatCard, serverNow, store, viewerSeat } from './state.js';
import { defeatWord, seatLetter, seatWord, tuoguanWord } from './words.js';

/** @typedef {import('./geometry.js').Pos} Pos */
/** @typedef {import('../table_messages.js').Seat4} Seat4 */
/** @typedef {import('../table_messages.js').TableSeat} TableSeat */


/** @type {Pos[]} */
const POSITIONS = ['top', 'left', 'right', 'bottom'];

/** @type {Record<string, HTMLElement>} */
const cards = {};
for (const pos of POSITIONS) cards[pos] = byId('card-' + pos);

/**
 * @param {HTMLElement} card
 * @param {string} sel
 */
function q(card, sel) {
  return /** @type {HTMLElement} */ (card.querySelector(sel));
}

/**
 * @typedef {Object} CardHandlers
 * @property {(seat: Seat4) => void} sit
 * @property {(seat: Seat4, level: string) => void} computer
 */

/** @param {CardHandlers} on */
export function wireCards(on) {
  for (const pos of POSITIONS) {
    const card = cards[pos];
    q(card, '.sc-sit').addEventListener('click', function () {
      const seat = /** @type {Seat4} */ (card.dataset.seat);
      if (seat) on.sit(seat);
    });
    q(card, '.sc-add-computer').addEventListener('click', function () {
      const seat = /** @type {Seat4} */ (card.dataset.seat);
      const level = /** @type {HTMLSelectElement} */ (q(card, '.sc-level')).value;
      if (seat) on.computer(seat, level);
    });
  }
}

/** Draws every card from the table message. */
export function renderCards() {
  const viewer = viewerSeat();
  for (const pos of POSITIONS) fill(cards[pos], seatAt(pos, viewer));
  renderClocks();
}

/**
 * @param {HTMLElement} card
 * @param {Seat4} seat
 */
function fill(card, seat) {
  const tb = store.table;
  const c = seatCard(seat);
  const me = mySeat();
  const mine = me ? seatCard(me) : null;
  const p = c ? c.player : null;
  card.dataset.seat = seat;
  card.dataset.state = c ? c.state : 'empty';
  const you = seat === me;
  const ally = !you && !!mine && !!c && !!tb && tb.options.alliance !== 'none' && c.side === mine.side;
  card.classList.toggle('is-you', you);
  card.classList.toggle('is-ally', ally);
  card.classList.toggle('is-empty', !p);
  card.classList.toggle('is-defeated', !!c && c.state === 'defeated');
  card.classList.toggle('to-move', !!tb && tb.phase === 'playing' && tb.to_move === seat);
  card.dataset.side = c ? String(c.side) : '';
  const chip = q(card, '.sc-seat');
  chip.className = 'sc-seat army-' + seat;
  chip.textContent = seatLetter(seat);
  chip.title = seatWord(seat);
  // The side of the alliance: 甲 or 乙 on every card (none in 混战).
  const side = q(card, '.sc-side');
  side.hidden = !tb || !c || tb.options.alliance === 'none';
  side.dataset.side = c ? String(c.side) : '';
  side.textContent = c && c.side === 0 ? t('甲', 'A') : t('乙', 'B');
  side.title = c && c.side === 0 ? t('甲方联盟', 'Side A') : t('乙方联盟', 'Side B');
  setAvatar(/** @type {HTMLImageElement} */ (q(card, '.sc-avatar')), p);
  q(card, '.sc-name').textContent = p ? p.display_name || p.username : t('空位', 'Empty');
  q(card, '.sc-name').title = p ? p.username : '';
  const badge = q(card, '.sc-kind');
  const kind = p ? p.kind : null;
  badge.hidden = kind !== 'bot' && kind !== 'computer';
  badge.className = 'sc-kind kind-badge' + (kind === 'bot' ? ' kind-bot' : kind === 'computer' ? ' kind-computer' : '');
  badge.textContent = kind === 'bot' ? t('机器人', 'bot') : kind === 'computer' ? t('电脑', 'computer') : '';
  fillTags(q(card, '.sc-tags'), c, you, ally);
  const playing = !!tb && (tb.phase === 'playing' || tb.phase === 'over') && !!p;
  // The 5th timeout-or-pass defeats a seat (RULES §5.4.5); the server says so.
  const limit = tb ? tb.timeouts_to_lose : 5;
  const to = q(card, '.sc-timeouts');
  to.hidden = !playing;
  to.textContent = playing && c ? t('超时/不行动 ', 'timeouts ') + c.timeouts + '/' + limit : '';
  to.classList.toggle('is-near', !!c && c.timeouts >= limit - 1);
  fillEmpty(card, seat, c);
}

/**
 * The little tags under a name.
 * @param {HTMLElement} box
 * @param {TableSeat|null} c
 * @param {boolean} you
 * @param {boolean} ally
 */
function fillTags(box, c, you, ally) {
  const tb = store.table;
  /** @type {HTMLElement[]} */
  const tags = [];
  /**
   * @param {string} cls
   * @param {string} text
   */
  const tag = function (cls, text) { tags.push(el('span', { class: 'sc-tag ' + cls, text: text })); };
  if (you) tag('tag-you', t('你', 'You'));
  if (ally) tag('tag-ally', t('盟友', 'Ally'));
  if (c && c.player && tb) {
    if ((tb.phase === 'open' || tb.phase === 'deploying') && c.ready) {
      tag('tag-ready', tb.phase === 'open' ? t('已准备', 'Ready') : t('布阵完成', 'Deployed'));
    }
    if (tb.phase === 'deploying' && !c.ready) tag('tag-deploying', t('布阵中', 'Deploying'));
    if (c.tuoguan) tag('tag-tuoguan', tuoguanWord(c.tuoguan));
    if (c.tuoguan_count && !c.tuoguan) tag('tag-count', t('已托管 ' + c.tuoguan_count + ' 次', 'auto-played ' + c.tuoguan_count + '×'));
    if (!c.connected) tag('tag-offline', t('离线', 'offline'));
    if (c.defeat) tag('tag-defeat', t('出局：', 'out: ') + defeatWord(c.defeat));
    if (tb.phase === 'over' && c.won !== null) tag(c.won ? 'tag-won' : 'tag-lost', c.won ? t('胜', 'Won') : t('负', 'Lost'));
    if (tb.phase === 'over' && typeof c.score === 'number') tag('tag-score', signed(c.score));
  }
  box.replaceChildren(...tags);
}

/**
 * An empty seat's controls: 坐下 (or a login link that comes back here to sit), and the
 * creator's 电脑入座.
 * @param {HTMLElement} card
 * @param {Seat4} seat
 * @param {TableSeat|null} c
 */
function fillEmpty(card, seat, c) {
  const tb = store.table;
  const empty = !!tb && tb.phase === 'open' && !!c && !c.player;
  q(card, '.sc-empty').hidden = !empty;
  if (!empty || !tb) return;
  const sit = q(card, '.sc-sit');
  const login = /** @type {HTMLAnchorElement} */ (q(card, '.sc-login'));
  sit.hidden = !tb.can.sit || !store.me;
  login.hidden = !!store.me;
  login.href = '/login?next=' + encodeURIComponent('/game/' + store.gameId + '?seat=' + seat);
  q(card, '.sc-computer').hidden = !(tb.can.seat_computer && amCreator());
}

/** The clocks: the seat to move counts down, and while deploying every seat not ready. */
export function renderClocks() {
  const tb = store.table;
  const now = serverNow();
  for (const pos of POSITIONS) {
    const card = cards[pos];
    const c = seatCard(/** @type {Seat4} */ (card.dataset.seat));
    const clock = q(card, '.sc-clock');
    const runs = !!tb && !!c && !!c.player && typeof tb.deadline_at === 'number' &&
      ((tb.phase === 'playing' && tb.to_move === c.seat) || (tb.phase === 'deploying' && !c.ready));
    clock.hidden = !runs;
    if (!runs || !tb || typeof tb.deadline_at !== 'number') continue;
    const left = Math.max(0, Math.ceil((tb.deadline_at - now) / 1000));
    q(clock, '.sc-clock-num').textContent = String(left);
    clock.classList.toggle('low', left <= 5);
  }
}
