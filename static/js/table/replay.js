// @ts-check
// A finished table's replay (GET /api/games/{id}/replay): the server sends the whole
// board at the start, every layout shown, and for each action the stations it changed
// and its step as everyone may now see it. The page walks them and draws; it holds no
// rule.
import { api } from '../api.js';
import { byId } from '../dom.js';
import { t } from '../i18n.js';
import { stepCaption } from './words.js';

/** @typedef {import('../table_messages.js').TablePiece} TablePiece */
/** @typedef {import('../table_messages.js').TableStep} TableStep */

/**
 * @typedef {Object} ReplayStep
 * @property {Record<string, unknown>} action
 * @property {TableStep|null} event
 * @property {{at: string, cell: TablePiece|null}[]} changes
 */

/**
 * @typedef {Object} TableReplay
 * @property {(TablePiece & {at: string})[]} start
 * @property {ReplayStep[]} steps
 */

/** @type {{data: TableReplay, at: number}|null} */
let shown = null;
/** @type {() => void} */
let redraw = function () {};

const bar = byId('replay-bar');
const counter = byId('replay-at');

/**
 * The board after `n` actions.
 * @param {TableReplay} r
 * @param {number} n
 * @returns {Record<string, TablePiece>}
 */
function boardAfter(r, n) {
  /** @type {Record<string, TablePiece>} */
  const out = {};
  for (const c of r.start) out[c.at] = { seat: c.seat, face: c.face, piece: c.piece };
  for (let i = 0; i < n; i++) {
    for (const ch of r.steps[i].changes) {
      if (ch.cell) out[ch.at] = ch.cell;
      else delete out[ch.at];
    }
  }
  return out;
}

/** Whether the board shows a step of the replay rather than the table. */
export function replaying() {
  return shown !== null;
}

/** The board of the step shown. @returns {Record<string, TablePiece>} */
export function replayCells() {
  return shown ? boardAfter(shown.data, shown.at) : {};
}

/** The route of the step shown. @returns {string[]} */
export function replayRoute() {
  if (!shown || shown.at === 0) return [];
  const ev = shown.data.steps[shown.at - 1].event;
  return ev && ev.route ? ev.route : [];
}

/** The caption of the step shown. */
export function replayCaption() {
  if (!shown) return '';
  if (shown.at === 0) return t('开局：四方布阵', 'The start: every layout');
  const ev = shown.data.steps[shown.at - 1].event;
  return ev ? stepCaption(ev) : t('（托管或退出）', '(auto-play or leaving)');
}

/** @param {number} n */
function go(n) {
  if (!shown) return;
  shown.at = Math.max(0, Math.min(shown.data.steps.length, n));
  counter.textContent = shown.at + ' / ' + shown.data.steps.length;
  redraw();
}

/**
 * The replay bar of a finished table: loaded on the first press, then stepped.
 * @param {string} gameId
 * @param {() => void} onChange redraws the page
 */
export function wireReplay(gameId, onChange) {
  redraw = onChange;
  /** @param {string} id @param {(n: number) => number} to */
  const button = function (id, to) {
    byId(id).addEventListener('click', async function () {
      if (!shown) {
        const data = /** @type {TableReplay} */ (await api('GET', '/api/games/' + encodeURIComponent(gameId) + '/replay'));
        shown = { data: data, at: data.steps.length };
      }
      go(to(shown.at));
    });
  };
  button('replay-first', function () { return 0; });
  button('replay-prev', function (n) { return n - 1; });
  button('replay-next', function (n) { return n + 1; });
  button('replay-last', function () { return Infinity; });
}

/** Shows the bar once the table is over. @param {boolean} over */
export function renderReplayBar(over) {
  bar.hidden = !over;
}
