// @ts-check
// Piece marks (子力标记, standard 军棋): a player's private guesses on the opponent's
// hidden pieces. A small menu by the piece; the mark shows at once and the server's
// `marks` answer confirms it (a refusal puts the old marks back).
import { byId, el } from '../dom.js';
import { t } from '../i18n.js';
import { colourOf, isRunning, isStandard, mySeat, store, view } from './state.js';

/** @typedef {(type: string, data?: unknown) => Promise<unknown>} Send */

/** [mark, Chinese words, English words] */
const MARKS = [
  ['司', '司令', 'marshal'], ['军', '军长', 'general'], ['师', '师长', 'major general'],
  ['旅', '旅长', 'brigadier'], ['团', '团长', 'colonel'], ['营', '营长', 'major'],
  ['连', '连长', 'captain'], ['排', '排长', 'lieutenant'], ['兵', '工兵', 'engineer'],
  ['弹', '炸弹', 'bomb'], ['雷', '地雷', 'mine'], ['旗', '军旗', 'flag'],
  ['?', '不明', 'unknown'], ['大', '大子', 'a big piece'], ['小', '小子', 'a small piece'],
  ['>', '比我方棋子大', 'stronger than mine'], ['清', '清除这个标记', 'clear this mark'],
  ['全清', '清除全部标记', 'clear all marks'],
];

const wrap = /** @type {HTMLElement} */ (document.querySelector('#game .board-wrap'));
const svg = byId('board');

/** @type {{at: string, el: HTMLElement}|null} */
let menu = null;
/** @type {Send} */
let send = function () { return Promise.reject(new Error('not wired')); };
let rerender = function () {};
let replaying = function () { return false; };

/**
 * An opponent's piece this player does not know: one they may mark.
 * @param {string} sq
 */
export function markable(sq) {
  const v = view();
  const seat = mySeat();
  if (!v || !seat || !isStandard() || !isRunning() || replaying()) return false;
  const cell = v.board[sq];
  return !!(cell && !cell.piece && cell.colour && cell.colour !== colourOf(seat));
}

export function menuOpenAt() {
  return menu ? menu.at : null;
}

export function closeMarkMenu() {
  if (!menu) return;
  menu.el.remove();
  menu = null;
}

/** @param {string} sq */
export function openMarkMenu(sq) {
  closeMarkMenu();
  const marks = (store.S && store.S.marks) || {};
  const current = Object.prototype.hasOwnProperty.call(marks, sq) ? marks[sq] : null;
  const buttons = MARKS.map(function (m) {
    return el('button', {
      type: 'button',
      class: 'mark-choice' + (m[0] === current ? ' is-current' : '') + (m[0].length > 1 ? ' mark-wide' : ''),
      dataset: { mark: m[0] },
      title: t(m[1], m[2]),
      'aria-label': t(m[1], m[2]),
      text: m[0],
      disabled: m[0] === '清' && !current,
    });
  });
  const box = el('div', { class: 'mark-menu', id: 'mark-menu', role: 'dialog', 'aria-label': t('标记 ' + sq, 'Mark ' + sq), dataset: { square: sq } }, [
    el('div', { class: 'mark-menu-head' }, [
      el('span', { text: t('标记 ' + sq + ' 的棋子', 'Mark the piece on ' + sq) }),
      el('button', { type: 'button', class: 'mark-close', 'aria-label': t('关闭', 'Close'), text: '×' }),
    ]),
    el('div', { class: 'mark-grid' }, buttons),
  ]);
  box.addEventListener('click', function (ev) {
    const b = /** @type {HTMLElement|null} */ (/** @type {HTMLElement} */ (ev.target).closest('button'));
    if (!b || !box.contains(b)) return;
    if (b.classList.contains('mark-close')) closeMarkMenu();
    else if (b.dataset.mark) choose(sq, b.dataset.mark);
  });
  wrap.appendChild(box);
  menu = { at: sq, el: box };
  place();
  const first = /** @type {HTMLElement|null} */ (box.querySelector('.mark-choice'));
  if (first) first.focus({ preventScroll: true });
}

/** Puts the menu next to its square, inside the board. */
function place() {
  if (!menu) return;
  const hit = svg.querySelector('g[data-square="' + menu.at + '"] .hit');
  if (!hit) return;
  const w0 = wrap.getBoundingClientRect();
  const r = hit.getBoundingClientRect();
  const box = menu.el;
  const w = box.offsetWidth;
  const h = box.offsetHeight;
  const left = Math.max(0, Math.min(w0.width - w, r.left - w0.left + r.width / 2 - w / 2));
  let top = r.bottom - w0.top + 2;
  if (top + h > w0.height) top = Math.max(0, r.top - w0.top - h - 2);
  box.style.left = Math.round(left) + 'px';
  box.style.top = Math.round(top) + 'px';
}

/**
 * @param {string} sq
 * @param {string} mark
 */
function choose(sq, mark) {
  const S = store.S;
  if (!S) return;
  const before = Object.assign({}, S.marks || {});
  closeMarkMenu();
  const marks = Object.assign({}, S.marks || {});
  if (mark === '全清') {
    for (const k of Object.keys(marks)) delete marks[k];
  } else if (mark === '清') delete marks[sq];
  else marks[sq] = mark;
  S.marks = marks;
  rerender();
  send('mark', mark === '全清' ? { mark: '全清' } : { at: sq, mark: mark }).catch(function () {
    if (store.S) store.S.marks = before;
    rerender();
  });
}

/**
 * @param {Send} sendFn
 * @param {() => void} renderFn
 * @param {() => boolean} isReplaying
 */
export function wireMarks(sendFn, renderFn, isReplaying) {
  send = sendFn;
  rerender = renderFn;
  replaying = isReplaying;
  document.addEventListener('pointerdown', function (ev) {
    if (!menu) return;
    const target = /** @type {Node} */ (ev.target);
    if (menu.el.contains(target) || svg.contains(target)) return;
    closeMarkMenu();
  });
  document.addEventListener('keydown', function (ev) {
    if (menu && ev.key === 'Escape') closeMarkMenu();
  });
  window.addEventListener('resize', place);
}
