// @ts-check
// The two player cards: name (昵称 beside the login name), colour, rank and score in the
// game's own variant, timeouts, offline, whose turn, the move clock, and a phrase bubble.
// The viewer's own seat is the bottom card.
import { byId, el } from '../dom.js';
import { colourName, rankName, seatName, t } from '../i18n.js';
import { pieceEl } from './log.js';
import { setAvatar } from '../avatar.js';
import {
  SEATS, amCreator, colourOf, creatorName, deploying, game, isRunning, isStandard, mySeat, other,
  player, sameUser, status, store, view, withInfo,
} from './state.js';

/** @typedef {import('../messages.js').Seat} Seat */
/** @typedef {import('../messages.js').PlayerRef} PlayerRef */

const top = byId('player-top');
const bottom = byId('player-bottom');

/** @param {Seat} seat */
export function cardOf(seat) {
  return top.dataset.seat === seat ? top : bottom.dataset.seat === seat ? bottom : null;
}

/**
 * @param {HTMLElement} card
 * @param {string} sel
 */
function q(card, sel) {
  return /** @type {HTMLElement} */ (card.querySelector(sel));
}

/**
 * @param {HTMLElement} card
 * @param {Seat|''} seat
 * @param {PlayerRef|null} p
 * @param {string} placeholder
 */
function fill(card, seat, p, placeholder) {
  card.dataset.seat = seat;
  const you = !!seat && seat === mySeat();
  // A finished game shows the score and rank each player brought to it (the server's
  // summary); an open or running one, the standing of today.
  const atGame = p && status() === 'finished' && typeof p.score === 'number';
  const shown = p ? (atGame ? Object.assign({}, withInfo(p), { score: p.score, rank: p.rank }) : withInfo(p)) : null;
  avatarOf(card, shown && shown.username ? shown : null);
  q(card, '.pc-name').textContent = shown && shown.username ? shown.display_name || shown.username : placeholder;
  const login = q(card, '.pc-login');
  login.hidden = !(shown && shown.display_name);
  login.textContent = shown && shown.display_name ? shown.username : '';
  // The login name is cut first when the card is narrow (game.css): whole on hover.
  login.title = login.textContent;
  // 机器人 or 电脑 beside a name that is not a person's (the same words as badge.js).
  const kind = p && p.username ? p.kind : null;
  const badge = q(card, '.pc-kind');
  badge.hidden = kind !== 'bot' && kind !== 'computer';
  badge.className = 'pc-kind kind-badge' + (kind === 'bot' ? ' kind-bot' : kind === 'computer' ? ' kind-computer' : '');
  badge.textContent = kind === 'bot' ? t('机器人', 'bot') : kind === 'computer' ? t('电脑', 'computer') : '';
  card.classList.toggle('is-you', you);
  card.classList.toggle('is-empty', !(p && p.username));
  q(card, '.pc-you').hidden = !you;
  const colour = seat ? colourOf(seat) : null;
  const chip = q(card, '.pc-colour');
  chip.dataset.colour = colour || '';
  chip.textContent = colour ? t(colour === 'red' ? '红' : '蓝', colour === 'red' ? 'R' : 'B') : '?';
  chip.title = colour ? colourName(colour) : t('颜色未定', 'Colour not yet decided');
  card.dataset.colour = colour || '';
  // Score and rank as this game's variant counts them (a standard game, the standard ladder).
  const parts = [];
  if (shown && shown.rank) parts.push(rankName(shown.rank));
  if (shown && typeof shown.score === 'number') parts.push(t(shown.score + ' 分', shown.score + ' pts'));
  const rankEl = q(card, '.pc-rank');
  rankEl.textContent = parts.join(' · ');
  rankEl.dataset.variant = isStandard() ? 'standard' : 'flip';
  const v = view();
  const toEl = q(card, '.pc-timeouts');
  const stEl = q(card, '.pc-steps');
  const dep = deploying() && store.S ? store.S.deploy : null;
  card.classList.toggle('is-ready', !!(dep && seat && dep.ready && dep.ready[seat]));
  stEl.textContent = '';
  delete stEl.dataset.ready;
  if (dep && seat) {
    const ready = !!(dep.ready && dep.ready[seat]);
    stEl.textContent = ready ? t('已就绪', 'ready') : t('未就绪', 'not ready');
    stEl.dataset.ready = ready ? 'yes' : 'no';
    toEl.textContent = t('布阵中', 'deploying');
  } else if (v && seat && status() !== 'open') {
    const used = (v.timeouts && v.timeouts[seat]) || 0;
    const limit = v.timeouts_to_lose;
    toEl.textContent = (isStandard() ? t('超时/不行动 ', 'timeouts+passes ') : t('超时 ', 'timeouts ')) + used + (limit ? '/' + limit : '');
  } else {
    toEl.textContent = '';
  }
  // While colours are undecided, each card shows the piece that player last flipped.
  const lf = q(card, '.pc-lastflip');
  const flip = v && seat && !v.colours ? store.lastFlips[seat] : null;
  lf.hidden = !(flip && flip.piece);
  if (flip && flip.piece) {
    lf.replaceChildren(t('上次翻开：', 'last flip: ') + colourName(flip.colour) + ' ', pieceEl(flip.piece, flip.colour));
  }
  const pres = store.S && store.S.presence;
  q(card, '.pc-offline').hidden = !(pres && seat && !you && pres.connected && pres.connected[seat] === false && isRunning());
  card.classList.toggle('to-move', !!(v && seat && isRunning() && v.to_move === seat));
}

/**
 * The card's figure (角色秀), made on first use: it spans the card's two rows, left of
 * the name (game.css), so the name keeps the card's width beside the clock.
 * @param {HTMLElement} card
 * @param {PlayerRef|null} p
 */
function avatarOf(card, p) {
  let img = /** @type {HTMLImageElement|null} */ (card.querySelector('.pc-avatar'));
  if (!img) {
    img = /** @type {HTMLImageElement} */ (el('img', { class: 'avatar pc-avatar', alt: '', width: 40, height: 40, hidden: true }));
    card.prepend(img);
  }
  setAvatar(img, p);
  card.classList.toggle('has-avatar', !img.hidden);
}

export function renderCards() {
  if (!game()) return;
  const st = status();
  if (st === 'open' || st === 'cancelled') {
    const creator = creatorName();
    /** @type {PlayerRef} */
    const creatorP = { username: creator || '', kind: 'person' };
    const g = game();
    if (g && g.creator && sameUser(g.creator.username, creator)) Object.assign(creatorP, g.creator);
    for (const seat of SEATS) {
      const p = player(seat);
      if (p && sameUser(p.username, creator)) Object.assign(creatorP, p);
    }
    if (store.openCreator && sameUser(store.openCreator.username, creator)) Object.assign(creatorP, store.openCreator);
    if (amCreator()) {
      fill(bottom, '', creatorP, '—');
      fill(top, '', null, st === 'open' ? t('等待对手…', 'Waiting for an opponent…') : '—');
    } else {
      fill(top, '', creator ? creatorP : null, '—');
      fill(bottom, '', null, store.me && st === 'open' ? t('你？', 'You?') : '—');
    }
    return;
  }
  const b = mySeat() || 'south';
  fill(bottom, b, player(b), seatName(b));
  fill(top, other(b), player(other(b)), seatName(other(b)));
}

function perActionSeconds() {
  if (store.clock && store.clock.seconds) return store.clock.seconds;
  const g = game();
  return g && g.seconds_per_action ? g.seconds_per_action : null;
}

/** Redrawn several times a second: only text that changed is touched. */
export function renderClocks() {
  for (const card of [top, bottom]) {
    const seat = card.dataset.seat;
    const num = q(card, '.pc-clock-num');
    const box = q(card, '.pc-clock');
    let text = '--';
    let running = false;
    let low = false;
    if (isRunning() && !deploying() && (seat === 'south' || seat === 'north')) {
      const c = store.clock;
      if (c && c.to_move === seat) {
        const left = Math.max(0, c.deadline - performance.now());
        text = String(Math.ceil(left / 1000));
        running = true;
        low = left <= 5000;
      } else {
        const s = perActionSeconds();
        text = s ? String(s) : '--';
      }
    }
    if (num.textContent !== text) num.textContent = text;
    box.hidden = text === '--';
    box.classList.toggle('running', running);
    box.classList.toggle('low', low);
  }
}

/**
 * A phrase or emote by the sender's card for a few seconds.
 * @param {Seat} seat
 * @param {string} text
 */
export function bubble(seat, text) {
  const card = cardOf(seat);
  if (!card) return;
  const old = card.querySelector('.pc-bubble');
  if (old) old.remove();
  const b = el('div', { class: 'pc-bubble', role: 'status', text: text });
  card.appendChild(b);
  setTimeout(function () { b.remove(); }, 4000);
}

export { perActionSeconds };
