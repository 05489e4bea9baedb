// @ts-check
// The panels around the board: the status line and the one-line counter strip beside it
// (步数, 未吃子, timeouts: always in view during play), the status card, joining and
// waiting, resignation, draw offers (a sheet over the board on phones), the banner for a
// disconnected opponent counting down to the escape ruling, and the tab title.
import { byId, toast } from '../dom.js';
import { play } from './sound.js';
import { reasonText, t } from '../i18n.js';
import { perActionSeconds } from './cards.js';
import { renderTuoguan } from './tuoguan.js';
import {
  amCreator, creatorName, deploying, game, isRunning, isStandard, limits, mySeat, myTurn, other,
  playerName, result, rootEl, shown, status, store, view,
} from './state.js';

/** @typedef {import('../messages.js').Seat} Seat */

const els = {
  status: byId('status'),
  strip: byId('strip'),
  stripSteps: byId('strip-steps'),
  stripQuiet: byId('strip-quiet'),
  stripTimeouts: byId('strip-timeouts'),
  stripBase: byId('strip-base'),
  banner: byId('presence-banner'),
  steps: byId('steps'),
  quiet: byId('quiet'),
  perAction: byId('per-action'),
  kind: byId('game-kind'),
  base: byId('base'),
  baseRow: byId('base-row'),
  joinPanel: byId('join-panel'),
  joinText: byId('join-text'),
  join: /** @type {HTMLButtonElement} */ (byId('join')),
  joinLogin: /** @type {HTMLAnchorElement} */ (byId('join-login')),
  waitPanel: byId('wait-panel'),
  inviteLink: /** @type {HTMLInputElement} */ (byId('invite-link')),
  bar: byId('action-bar'),
  actionsHint: byId('actions-hint'),
  offerNote: byId('offer-note'),
  offerDraw: /** @type {HTMLButtonElement} */ (byId('offer-draw')),
  resign: /** @type {HTMLButtonElement} */ (byId('resign')),
  pass: /** @type {HTMLButtonElement} */ (byId('pass')),
  drawDialog: byId('draw-dialog'),
  drawDialogText: byId('draw-dialog-text'),
};

const baseTitle = document.title;

function statusText() {
  const st = status();
  if (!st) return t('正在连接…', 'Connecting…');
  if (st === 'cancelled') return t('对局已取消', 'This game was cancelled');
  if (st === 'open') {
    if (amCreator()) return t('等待对手加入…', 'Waiting for an opponent to join…');
    return store.me ? t('对局等待中，点击“加入”开始', 'This game is open: press Join to play')
      : t('对局等待中，登录后可加入', 'This game is open: log in to join');
  }
  const res = result();
  const seat = mySeat();
  if (res) {
    const why = t('（', ' (') + reasonText(res.reason, limits()) + t('）', ')');
    if (!res.winner) return t('对局结束：和棋', 'Game over: a draw') + why;
    if (seat) return t('对局结束：' + (res.winner === seat ? '你赢了' : '你输了'), 'Game over: ' + (res.winner === seat ? 'you won' : 'you lost')) + why;
    return t('对局结束：' + playerName(res.winner) + ' 胜', 'Game over: ' + playerName(res.winner) + ' wins') + why;
  }
  if (deploying() && store.S && store.S.deploy) {
    const dep = store.S.deploy;
    if (!seat || !dep.layout) return t('布阵中', 'Deploying');
    if (dep.ready && dep.ready[seat]) {
      return dep.ready[other(seat)] ? t('双方已出征', 'Both sides are ready') : t('已出征，等待对手布阵…', 'Ready; waiting for your opponent to deploy…');
    }
    return t('布阵中：点击两枚棋子交换位置，完成后点「出征」', 'Deploy: tap two pieces to swap them, then press Ready');
  }
  const v = view();
  if (!v) return t('正在载入对局…', 'Loading the game…');
  if (seat && v.to_move === seat) {
    return v.colours ? t('轮到你走棋', 'Your turn') : t('轮到你翻棋（颜色未定）', 'Your turn: flip a piece (colours not yet decided)');
  }
  if (seat) return t('等待对手 ' + playerName(v.to_move) + ' 行动…', 'Waiting for ' + playerName(v.to_move) + '…');
  return t('轮到 ' + playerName(v.to_move), playerName(v.to_move) + ' to play');
}

/**
 * "12 / 300" when the server gives a limit, else "12" ("12/300" with `sep` '/').
 * @param {number} n
 * @param {number|null|undefined} limit
 * @param {string} [sep]
 */
function outOf(n, limit, sep) {
  return limit ? n + (sep === undefined ? ' / ' : sep) + limit : String(n);
}

function renderCounters() {
  const g = game();
  const v = shown();
  const seat = mySeat();
  if (v) {
    els.steps.textContent = outOf(v.steps, v.steps_to_draw);
    els.steps.title = v.steps_to_draw ? t('总步数，满 ' + v.steps_to_draw + ' 步判和', 'Steps played; ' + v.steps_to_draw + ' is a draw') : t('总步数', 'Steps played');
    els.quiet.textContent = outOf(v.quiet_steps || 0, v.quiet_steps_to_draw);
    els.quiet.title = v.quiet_steps_to_draw ? t('连续未吃子步数，满 ' + v.quiet_steps_to_draw + ' 步判和', 'Steps since the last attack; ' + v.quiet_steps_to_draw + ' is a draw') : '';
    const near = !!v.quiet_steps_to_draw && (v.quiet_steps || 0) >= v.quiet_steps_to_draw - 10;
    els.quiet.classList.toggle('near-limit', near);
    // The strip: one line, always in view while the game runs.
    // Short forms, so that the strip is one line at 360 px in both languages with 底分
    // shown too; the whole words are in each count's title.
    els.stripSteps.textContent = t('步数 ', 'Steps ') + outOf(v.steps, v.steps_to_draw, '/');
    els.stripSteps.title = els.steps.title;
    els.stripQuiet.textContent = t('未吃子 ', 'Quiet ') + outOf(v.quiet_steps || 0, v.quiet_steps_to_draw, '/');
    els.stripQuiet.title = els.quiet.title;
    els.stripQuiet.classList.toggle('near-limit', near);
    const a = seat || 'south';
    const b = other(a);
    const to = v.timeouts || { south: 0, north: 0 };
    const what = isStandard() ? t('超时或不行动', 'Timeouts and passes') : t('超时', 'Timeouts');
    els.stripTimeouts.textContent = t('超时 ', 'Timeouts ') +
      (to[a] || 0) + ':' + (to[b] || 0) + (v.timeouts_to_lose ? '/' + v.timeouts_to_lose : '');
    els.stripTimeouts.title = what + t('：', ': ') +
      (seat ? t('你 ' + (to[a] || 0) + ' 次，对手 ' + (to[b] || 0) + ' 次', 'you ' + (to[a] || 0) + ', them ' + (to[b] || 0))
        : playerName(a) + ' ' + (to[a] || 0) + ' : ' + (to[b] || 0) + ' ' + playerName(b)) +
      (v.timeouts_to_lose ? t('；满 ' + v.timeouts_to_lose + ' 次判负', '; ' + v.timeouts_to_lose + ' lose the game') : '');
    els.stripTimeouts.setAttribute('aria-label', els.stripTimeouts.title);
  } else if (g) {
    els.steps.textContent = String(g.steps || 0);
  }
  els.strip.hidden = !v;
  // The base (底分) grows along a rematch series: say so while it is above one.
  const base = g && typeof g.base === 'number' ? g.base : null;
  const showBase = !!base && !isStandard() && base > 1;
  els.baseRow.hidden = !showBase;
  els.stripBase.hidden = !showBase;
  if (showBase) {
    els.base.textContent = String(base);
    els.stripBase.textContent = t('底分 ', 'Base ') + base;
  }
  const s = perActionSeconds();
  els.perAction.textContent = s ? t(s + ' 秒/步', s + ' s/step') : '--';
  if (g) {
    const name = g.variant === 'standard' ? t('军棋', 'Junqi') : g.variant === 'flip' ? t('翻翻棋', 'Flip chess') : '';
    els.kind.textContent = (name ? name + ' · ' : '') + (g.rated ? t('积分赛', 'Rated') : t('友谊赛', 'Casual'));
  }
}

/** @param {Seat} seat */
function offersLeft(seat) {
  const v = view();
  const n = v && v.draw_offers_left ? v.draw_offers_left[seat] : null;
  return typeof n === 'number' ? n : Infinity;
}

function renderPanelsInner() {
  const st = status();
  const seat = mySeat();
  const v = view();
  const open = st === 'open';
  const creator = amCreator();
  els.joinPanel.hidden = !(open && !creator);
  els.join.hidden = !(open && !creator && store.me);
  els.joinLogin.hidden = !(open && !store.me);
  if (open && !store.me) els.joinLogin.href = '/login?next=' + encodeURIComponent('/game/' + store.gameId);
  const cname = creatorName();
  els.joinText.textContent = cname
    ? t(cname + ' 在等待对手，加入开始对局。', cname + ' is waiting for an opponent. Join to start the game.')
    : t('这局在等待对手。', 'This game is waiting for an opponent.');
  els.waitPanel.hidden = !(open && creator);
  if (open && creator) els.inviteLink.value = window.location.origin + '/game/' + store.gameId;

  const running = isRunning();
  // The bar stays after the end for 快捷语 and the menu; the game's actions go with it.
  els.bar.hidden = !(seat && v && (running || st === 'finished'));
  els.offerDraw.hidden = !running;
  els.resign.hidden = !running;
  els.pass.hidden = !running || !isStandard();
  // The hint about resigning and draws is for a running game only.
  els.actionsHint.hidden = true;
  if (seat && running && v) {
    const mine = v.to_move === seat;
    els.pass.disabled = !mine || store.awaiting;
    const threshold = v.steps_before_resign_or_draw || 0;
    const allowed = v.steps >= threshold;
    const left = offersLeft(seat);
    els.resign.disabled = !allowed;
    els.offerDraw.disabled = !allowed || left <= 0 || !!v.open_offer;
    els.offerDraw.textContent = left === Infinity ? t('求和', 'Draw') : t('求和（剩 ' + left + ' 次）', 'Draw (' + left + ' left)');
    els.actionsHint.hidden = allowed;
    els.actionsHint.textContent = t('满 ' + threshold + ' 步后可以认输或求和（现在 ' + v.steps + ' 步）',
      'Resigning and draw offers are allowed after ' + threshold + ' steps (now ' + v.steps + ')');
  }
  const offer = v && running ? v.open_offer : null;
  const answer = !!(seat && offer && offer === other(seat));
  els.drawDialog.hidden = !answer;
  if (answer && offer) {
    els.drawDialogText.textContent = t(playerName(offer) + ' 提出和棋，是否同意？', playerName(offer) + ' offers a draw. Do you accept?');
  }
  els.offerNote.hidden = !(offer && !answer);
  if (offer && !answer) {
    els.offerNote.textContent = offer === seat ? t('你已提出和棋，等待对手答复…', 'You offered a draw; waiting for the answer…')
      : t(playerName(offer) + ' 提出了和棋', playerName(offer) + ' offered a draw');
  }
}

export function renderStatus() {
  let text = statusText();
  if (!store.socketOpen && store.haveState && !store.leaving && status() === 'running') {
    text += t(' · 连接中断，正在重连…', ' · connection lost, reconnecting…');
  }
  els.status.textContent = text;
  const mine = myTurn();
  els.status.classList.toggle('your-turn', mine);
  rootEl.classList.toggle('your-turn', mine);
  rootEl.classList.toggle('is-running', isRunning());
  renderTitle();
}

/** The tab title says when it is your turn, so a player in another tab sees it. */
function renderTitle() {
  let prefix = '';
  if (myTurn()) prefix = t('● 轮到你 · ', '● Your turn · ');
  else if (status() === 'open' && amCreator()) prefix = t('等待对手 · ', 'Waiting · ');
  const want = prefix + baseTitle;
  if (document.title !== want && !joinedFlash) document.title = want;
}

let joinedFlash = false;
let joinedTold = false;

/**
 * Someone joined this player's open game: a chime, a toast, and the title until the page
 * is looked at. Once per page (the state and the summary may both bring the news).
 */
export function announceJoin() {
  if (joinedTold) return;
  joinedTold = true;
  play('joined');
  toast(t('对手已加入，对局开始！', 'Your opponent has joined: the game begins!'));
  joinedFlash = true;
  document.title = t('★ 对手已加入 · ', '★ Opponent joined · ') + baseTitle;
  const clear = function () {
    if (document.hidden) return;
    setTimeout(function () {
      joinedFlash = false;
      renderTitle();
    }, 3000);
    document.removeEventListener('visibilitychange', clear);
  };
  document.addEventListener('visibilitychange', clear);
  clear();
}

/** The banner for an absent player, counting down to the escape ruling (every tick). */
export function renderBanner() {
  const seat = mySeat();
  const running = isRunning();
  let text = '';
  for (const s of /** @type {const} */ (['south', 'north'])) {
    const at = store.escapeAt[s];
    if (!running || at === null || s === seat) continue;
    const secs = Math.max(0, Math.ceil((at - performance.now()) / 1000));
    text = seat ? t('对手已掉线，' + secs + ' 秒后判逃跑', 'Your opponent is offline: they lose by escape in ' + secs + ' s')
      : t(playerName(s) + ' 已掉线，' + secs + ' 秒后判逃跑', playerName(s) + ' is offline: escape ruling in ' + secs + ' s');
  }
  if (els.banner.textContent !== text) els.banner.textContent = text;
  els.banner.hidden = !text;
}

export function renderPanels() {
  renderCounters();
  renderPanelsInner();
  renderStatus();
  renderBanner();
  renderTuoguan();
}
