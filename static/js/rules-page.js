// @ts-check
// Diagrams for the rules page, drawn with board.js from GET /api/board. The two movement
// diagrams show where a piece may go: the server's answer for the position
// (POST /api/analysis/moves), since the page keeps no copy of the rules.
//
//   <svg data-diagram="board">     the whole board with every square named
//   <svg data-diagram="engineer">  South half: an engineer's reach from b2
//   <svg data-diagram="straight">  South half: a colonel's reach from b2, same position
import { api } from './api.js';
import { BoardView, HEIGHT } from './board.js';
import { svgEl, toast } from './dom.js';
import { EN } from './i18n.js';

/** @typedef {import('./messages.js').Cell} Cell */

/**
 * The position of the two movement diagrams: a face-down piece on a4 blocks file a, and
 * a face-up blue mine on e5 ends the flight up file e.
 * @param {string} mover
 * @returns {Record<string, Cell>}
 */
function movementPosition(mover) {
  return {
    b2: { face: 'up', piece: mover, colour: 'red' },
    a4: { face: 'down' },
    e5: { face: 'up', piece: 'mine', colour: 'blue' },
  };
}

/**
 * The squares the server says the piece on `from` may move to or attack.
 * @param {Record<string, Cell>} position
 * @param {string} from
 * @returns {Promise<string[]>}
 */
async function destinations(position, from) {
  const res = await api('POST', '/api/analysis/moves', {
    variant: 'flip',
    to_move: 'south',
    colours: { south: 'red', north: 'blue' },
    board: position,
  });
  /** @type {string[]} */
  const out = [];
  for (const a of (res && res.legal) || []) if (a.move && a.move.from === from) out.push(a.move.to);
  return out;
}

/**
 * Shows only ranks 1–6 (and the file letters) by narrowing the viewBox: the South half
 * starts just below the front (26 margin, 6 rows of 52, a gap of 56).
 * @param {SVGSVGElement} svg
 */
function cropToSouth(svg) {
  const top = 26 + 52 * 6 + 56 - 14;
  const vb = (svg.getAttribute('viewBox') || '').split(/\s+/).map(Number);
  if (vb.length !== 4 || vb.some(isNaN)) return;
  svg.setAttribute('viewBox', vb[0] + ' ' + top + ' ' + vb[2] + ' ' + (HEIGHT - top));
}

/** @param {SVGSVGElement} svg */
function labelSquares(svg) {
  for (const g of Array.from(svg.querySelectorAll('[data-square]'))) {
    svgEl('text', { x: 0, y: 1, class: 'sq-label' }, g).textContent = g.getAttribute('data-square');
  }
}

/**
 * @param {SVGSVGElement} svg
 * @param {import('./board.js').BoardJson} json
 */
async function draw(svg, json) {
  const kind = svg.getAttribute('data-diagram');
  const view = new BoardView(svg, json, { flipped: false });
  if (kind === 'board') {
    view.render({}, {});
    labelSquares(svg);
    return;
  }
  const position = movementPosition(kind === 'engineer' ? 'engineer' : 'colonel');
  cropToSouth(svg);
  view.render(position, { selected: 'b2' });
  view.render(position, { selected: 'b2', dests: await destinations(position, 'b2') });
}

/** @param {Element[]} svgs */
function fail(svgs) {
  for (const svg of svgs) {
    const box = svg.closest('.rules-board') || svg.parentNode;
    const p = document.createElement('p');
    p.className = 'hint rules-diagram-error';
    p.textContent = EN ? 'The diagram could not be loaded.' : '棋盘图加载失败。';
    if (box) /** @type {Element} */ (box).replaceChildren(p);
  }
}

// Touch screens show no tooltips: tapping a piece name shows its English name instead.
document.addEventListener('click', function (ev) {
  const target = /** @type {Element|null} */ (ev.target);
  const pc = target && target.closest ? target.closest('.rules .pc[title]') : null;
  if (pc) toast(pc.textContent + ' · ' + pc.getAttribute('title'));
});

async function start() {
  const svgs = /** @type {SVGSVGElement[]} */ (Array.from(document.querySelectorAll('svg.rules-diagram')));
  if (!svgs.length) return;
  let json;
  try {
    json = await api('GET', '/api/board');
  } catch (e) {
    fail(svgs);
    return;
  }
  for (const svg of svgs) {
    draw(svg, json).catch(function () { fail([svg]); });
  }
}

start();
