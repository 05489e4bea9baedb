// @ts-check
// 复盘分析: the engine's review of a finished game from one side, as the server computes
// it (POST/GET /api/games/{id}/review, docs/protocol.md "Game review"). This draws what
// the answer says — the value graph, the marked steps, the best action on the replay
// board — and judges nothing itself. Loaded when the 复盘分析 button is first pressed.
import { ApiError, api } from '../api.js';
import { byId, el, svgEl } from '../dom.js';
import { EN, pieceName, t } from '../i18n.js';
import { mySeat, other, playerName, store } from './state.js';

/**
 * @typedef {Object} ReviewEntry
 * @property {number} step
 * @property {number} value
 * @property {number} shown
 * @property {any} played
 * @property {number|null} played_value
 * @property {any} best
 * @property {number} best_value
 * @property {number} loss
 * @property {'inaccuracy'|'blunder'|null} mark
 * @property {string} best_text
 * @property {string|null} best_piece
 * @property {string} played_text
 */
/**
 * @typedef {Object} ReviewData
 * @property {string} variant
 * @property {'south'|'north'} side
 * @property {number} steps
 * @property {{inaccuracy: number, blunder: number}} thresholds
 * @property {number} clamp
 * @property {ReviewEntry[]} entries
 */
/** @typedef {{goTo: (n: number) => void, step: () => number, render: () => void}} Replay */

const els = {
  box: byId('review'),
  side: byId('review-side'),
  other: /** @type {HTMLButtonElement} */ (byId('review-other')),
  progress: byId('review-progress'),
  bar: /** @type {HTMLProgressElement} */ (byId('review-bar')),
  progressText: byId('review-progress-text'),
  graph: byId('review-graph'),
  legend: byId('review-legend'),
  caption: byId('review-caption'),
  marks: byId('review-marks'),
};

const W = 600;
const H = 160;
const POLL_MS = 700;

const V = {
  /** @type {'south'|'north'} */
  side: 'south',
  /** @type {ReviewData|null} */
  data: null,
  /** The entry shown on the board, while the replay stands at the position before it. @type {ReviewEntry|null} */
  chosen: null,
  /** @type {ReturnType<typeof setTimeout>|null} */
  timer: null,
  /** Bumped at each new request, so that a slow answer for the other side is dropped. */
  asking: 0,
};

/** @type {Replay} */
let replay = { goTo: function () {}, step: function () { return 0; }, render: function () {} };

/** @param {'inaccuracy'|'blunder'|null} mark */
function markWord(mark) {
  return mark === 'blunder' ? t('败着', 'Blunder') : mark === 'inaccuracy' ? t('疑问手', 'Inaccuracy') : '';
}

/** The best action in the page language: the server's Chinese, or built from its parts. @param {ReviewEntry} e */
function bestText(e) {
  if (!EN) return e.best_text;
  const b = e.best;
  if (b && b.flip) return 'Best: flip ' + b.flip;
  if (b && b.move) return 'Best: ' + (e.best_piece ? pieceName(e.best_piece) + ' ' : '') + b.move.from + '→' + b.move.to;
  return 'Best: ' + (b && b.pass ? 'pass' : '—');
}

/** @param {ReviewEntry} e */
function playedText(e) {
  if (!EN) return e.played_text;
  const p = e.played;
  if (p && p.flip) return 'flip ' + p.flip;
  if (p && p.move) return p.move.from + '→' + p.move.to;
  return p && p.timeout ? 'timed out' : 'pass';
}

/** @param {'south'|'north'} side */
function sideWord(side) {
  return t('从 ' + playerName(side) + ' 一方看', 'As ' + playerName(side) + ' saw it');
}

/** @param {string} text */
function showProgress(text) {
  els.progress.hidden = false;
  els.progressText.textContent = text;
}

function stopPolling() {
  if (V.timer) clearTimeout(V.timer);
  V.timer = null;
}

/**
 * One answer of the review API: drawn when done, polled again while computed.
 * @param {any} answer
 * @param {number} asking
 */
function take(answer, asking) {
  if (asking !== V.asking || !answer) return;
  if (answer.status === 'done' && answer.review) {
    els.progress.hidden = true;
    V.data = answer.review;
    draw();
    replay.render();
    return;
  }
  if (answer.status === 'queued' || answer.status === 'running') {
    const total = answer.total || 0;
    els.bar.max = Math.max(1, total);
    els.bar.value = answer.done || 0;
    showProgress(answer.status === 'queued' ? t('排队等待分析…', 'Waiting for its turn…')
      : t('正在分析：' + answer.done + ' / ' + total + ' 步', 'Reviewing: ' + answer.done + ' / ' + total + ' steps'));
    V.timer = setTimeout(function () { ask('GET', asking); }, POLL_MS);
    return;
  }
  if (answer.status === 'failed') {
    showProgress(t('分析失败，请稍后再试', 'The review failed; please try again later'));
    return;
  }
  // Nothing computed yet, and this visitor cannot start it.
  showProgress(t('登录后即可开始复盘分析', 'Log in to start a review'));
}

/**
 * @param {string} method
 * @param {number} asking
 */
function ask(method, asking) {
  const path = '/api/games/' + encodeURIComponent(store.gameId) + '/review?side=' + V.side;
  api(method, path).then(function (a) { take(a, asking); }, function (e) {
    if (asking !== V.asking) return;
    const msg = e instanceof ApiError ? e.message : String(e);
    showProgress(msg);
  });
}

/** @param {'south'|'north'} side */
function start(side) {
  stopPolling();
  V.side = side;
  V.data = null;
  V.chosen = null;
  V.asking += 1;
  els.box.hidden = false;
  els.side.textContent = sideWord(side);
  // A player's other side is their opponent's; anyone else just turns to the other side.
  els.other.textContent = mySeat() ? t('从对方视角', 'From the other side') : t('看另一方', 'The other side');
  // An SVG element has no `hidden` property, only the attribute.
  els.graph.setAttribute('hidden', '');
  els.graph.replaceChildren();
  els.legend.hidden = true;
  els.caption.hidden = true;
  els.marks.replaceChildren();
  showProgress(t('正在请求分析…', 'Asking for the review…'));
  // A visitor without an account may read a review someone started, not start one.
  ask(store.me ? 'POST' : 'GET', V.asking);
  replay.render();
}

/** @param {number} step */
function x(step) {
  const n = V.data ? Math.max(1, V.data.steps) : 1;
  return (step / n) * W;
}

/** @param {number} shown */
function y(shown) {
  const c = V.data ? V.data.clamp || 200 : 200;
  return H / 2 - (shown / c) * (H / 2 - 6);
}

/** The graph, the marked steps and the list. */
function draw() {
  const d = V.data;
  if (!d) return;
  const svg = els.graph;
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.removeAttribute('hidden');
  els.legend.hidden = false;
  svgEl('rect', { x: 0, y: 0, width: W, height: H / 2, class: 'rv-ahead' }, svg);
  svgEl('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'rv-zero' }, svg);
  const points = d.entries.map(function (e) { return x(e.step) + ',' + y(e.shown); }).join(' ');
  if (d.entries.length) svgEl('polyline', { points: points, class: 'rv-line' }, svg);
  svgEl('line', { x1: 0, y1: 0, x2: 0, y2: H, class: 'rv-now', id: 'review-now' }, svg);
  const marked = d.entries.filter(function (e) { return !!e.mark; });
  for (const e of marked) {
    const dot = svgEl('circle', { cx: x(e.step), cy: y(e.shown), r: 6, class: 'rv-mark rv-' + e.mark, 'data-step': e.step }, svg);
    svgEl('title', null, dot).textContent = t('第 ' + e.step + ' 步 ', 'Step ' + e.step + ': ') + markWord(e.mark);
    dot.addEventListener('click', function () { choose(e); });
  }
  const items = marked.map(function (e) {
    return el('li', { class: 'rv-item rv-' + e.mark, dataset: { step: e.step }, tabindex: 0 }, [
      el('span', { class: 'rv-step', text: t('第 ' + e.step + ' 步', 'Step ' + e.step) }),
      el('span', { class: 'rv-word', text: markWord(e.mark) }),
      el('span', { class: 'rv-played', text: t('走了 ', 'played ') + playedText(e) }),
      el('span', { class: 'rv-best', text: bestText(e) }),
    ]);
  });
  if (!items.length) items.push(el('li', { class: 'rv-none', text: t('这一方没有疑问手或败着', 'No inaccuracies or blunders on this side') }));
  els.marks.replaceChildren.apply(els.marks, items);
}

/** Steps the replay to the position the entry's step was chosen in, the best action drawn on it. @param {ReviewEntry} e */
function choose(e) {
  V.chosen = e;
  replay.goTo(e.step - 1);
}

/** What the board draws for the review now: the chosen step's best action, while the replay stands before it. */
export function bestOnBoard() {
  const e = V.chosen;
  if (!e || replay.step() !== e.step - 1) return null;
  if (e.best && e.best.flip) return { at: e.best.flip };
  if (e.best && e.best.move) return { from: e.best.move.from, to: e.best.move.to };
  return null;
}

/** Drawn at every rendering of the page: where the replay stands, and the caption. */
export function renderReview() {
  if (els.box.hidden || !V.data) return;
  const now = replay.step();
  const line = document.getElementById('review-now');
  if (line) {
    line.setAttribute('x1', String(x(now)));
    line.setAttribute('x2', String(x(now)));
  }
  for (const li of els.marks.querySelectorAll('li[data-step]')) {
    const on = V.chosen !== null && Number(/** @type {HTMLElement} */ (li).dataset.step) === V.chosen.step;
    li.classList.toggle('current', on && now === /** @type {ReviewEntry} */ (V.chosen).step - 1);
  }
  const e = V.chosen;
  if (e && now === e.step - 1) {
    els.caption.hidden = false;
    els.caption.replaceChildren(
      el('strong', { text: t('第 ' + e.step + ' 步', 'Step ' + e.step) + (e.mark ? t('（' + markWord(e.mark) + '）', ' (' + markWord(e.mark) + ')') : '') + t('：', ': ') }),
      t('走了 ', 'played ') + playedText(e) + t('；', '; '),
      el('span', { class: 'rv-best', text: bestText(e) }),
    );
  } else {
    els.caption.hidden = true;
  }
}

/**
 * Opens the review (the asker's own side if they played, else South's) and wires its
 * controls; called once, when the page's 复盘分析 button is first pressed.
 * @param {Replay} r
 */
export function openReview(r) {
  replay = r;
  els.other.addEventListener('click', function () { start(other(V.side)); });
  els.marks.addEventListener('click', function (ev) {
    const li = /** @type {HTMLElement|null} */ (/** @type {HTMLElement} */ (ev.target).closest('li[data-step]'));
    if (!li || !V.data) return;
    const e = V.data.entries.find(function (x) { return x.step === Number(li.dataset.step); });
    if (e) choose(e);
  });
  els.marks.addEventListener('keydown', function (ev) {
    if (ev.key !== 'Enter' && ev.key !== ' ') return;
    const li = /** @type {HTMLElement|null} */ (/** @type {HTMLElement} */ (ev.target).closest('li[data-step]'));
    if (li) {
      ev.preventDefault();
      li.click();
    }
  });
  start(mySeat() || 'south');
}

/** The button pressed again: the review comes back into view. */
export function showReview() {
  els.box.hidden = false;
  els.box.scrollIntoView({ block: 'nearest' });
}
