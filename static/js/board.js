// @ts-check
// The 军棋 board as SVG, drawn from GET /api/board. It draws what it is given and reports
// clicks; it knows no rule: which squares are actionable, where a piece may go and the
// route a piece took all come from the server through the game state.
//
//   const board = new BoardView(svg, boardJson, {flipped: false});
//   board.render(cells, {selected, dests, warn, last, path, actionable, named, marks, bad});
//   board.animate({route, mover, combat});   // slide along the route; returns its ms
//   board.onSquareClick((square) => …);
//
// Every station has one <g data-square="c3"> holding the tap target, the piece and the
// highlights. A piece element carries data-face, and data-piece / data-colour only when
// the view names them.
import { svgEl } from './dom.js';
import { EN, PIECE_EN, pieceLabel } from './i18n.js';

/** @typedef {import('./messages.js').Cell} Cell */

/**
 * @typedef {Object} Highlights
 * @property {string|null} [selected]
 * @property {string[]} [dests]
 * @property {string[]} [warn]
 * @property {{from?: string, to?: string, at?: string}|null} [last]
 * @property {string[]|null} [path]
 * @property {string[]} [actionable]
 * @property {boolean} [named] draw named face-down pieces as known (own standard pieces)
 * @property {Record<string, string>|null} [marks]
 * @property {string[]} [bad]
 * @property {{from?: string, to?: string, at?: string}|null} [best] the review's best action: an arrow, or a ring for a flip
 */

/**
 * @typedef {Object} BoardJson
 * @property {{square: string, kind: string, file?: number, rank?: number}[]} stations
 * @property {{from: string, to: string, kind: string}[]} edges
 */

// Geometry in viewBox units.
const COL_W = 96;
const ROW_H = 52;
const GAP = 56; // the front, between rank 6 and rank 7
const MARGIN_X = 30;
const MARGIN_Y = 26;
const TILE_W = 72;
const TILE_H = 38;
export const WIDTH = MARGIN_X * 2 + COL_W * 5;
export const HEIGHT = MARGIN_Y * 2 + ROW_H * 12 + GAP;
const FILES = 'abcde';

/** @param {string} sq */
function parseSquare(sq) {
  return { file: FILES.indexOf(sq.charAt(0)), rank: parseInt(sq.slice(1), 10) };
}

/**
 * Board order: a1, b1, … e1, a2, …
 * @param {string} a
 * @param {string} b
 */
export function squareOrder(a, b) {
  const pa = parseSquare(a);
  const pb = parseSquare(b);
  return pa.rank - pb.rank || pa.file - pb.file;
}

/** Slides are quick: a station every 70 ms, never more than half a second in all. */
const STEP_MS = 70;
const MAX_SLIDE_MS = 500;
/** A slide while later events wait: visibly shortened rather than skipped. */
const QUICK_SLIDE_MS = 140;

export class BoardView {
  /**
   * @param {SVGSVGElement} svg
   * @param {BoardJson} board
   * @param {{flipped?: boolean}} [opts]
   */
  constructor(svg, board, opts) {
    this.svg = svg;
    /** @type {Record<string, {kind: string, file: number, rank: number}>} */
    this.stations = {};
    for (const s of board.stations || []) {
      const pos = typeof s.file === 'number' && typeof s.rank === 'number' ? { file: s.file, rank: s.rank } : parseSquare(s.square);
      this.stations[s.square] = { kind: s.kind, file: pos.file, rank: pos.rank };
    }
    this.edges = board.edges || [];
    this.flipped = !!(opts && opts.flipped);
    /** @type {Record<string, SVGElement>} */
    this.groups = {};
    /** @type {Array<(sq: string) => void>} */
    this.handlers = [];
    /** @type {Record<string, Cell>} */
    this.cells = {};
    /** @type {Highlights} */
    this.hl = {};
    /** @type {SVGElement|null} */
    this.pathLayer = null;
    /** @type {SVGElement|null} */
    this.bestLayer = null;
    /** @type {SVGElement|null} */
    this.animLayer = null;
    // The squares whose piece is still on its way there: every render in the meantime
    // (a clock tick, a presence message) draws them hidden, so the board never shows the
    // moved piece twice, at its destination and sliding.
    /** @type {Set<string>} */
    this.arriving = new Set();
    // Ends the slide now running at its last frame (null when none runs).
    /** @type {(() => void)|null} */
    this.sliding = null;
    svg.setAttribute('viewBox', '0 0 ' + WIDTH + ' ' + HEIGHT);
    svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
    svg.classList.add('jq-board');
    const self = this;
    svg.addEventListener('click', function (ev) {
      const t = /** @type {Element|null} */ (ev.target);
      const g = t && t.closest ? t.closest('[data-square]') : null;
      if (!g || !svg.contains(g)) return;
      const sq = g.getAttribute('data-square');
      if (sq) for (const cb of self.handlers) cb(sq);
    });
    this.layout();
  }

  /** @param {(sq: string) => void} cb */
  onSquareClick(cb) {
    this.handlers.push(cb);
  }

  /**
   * The centre of a square in viewBox units, as this side sees the board.
   * @param {string} sq
   */
  position(sq) {
    const st = this.stations[sq] || parseSquare(sq);
    const col = this.flipped ? 4 - st.file : st.file;
    const row = this.flipped ? st.rank - 1 : 12 - st.rank; // 0 = top row
    return {
      x: MARGIN_X + COL_W / 2 + col * COL_W,
      y: MARGIN_Y + ROW_H / 2 + row * ROW_H + (row >= 6 ? GAP : 0),
    };
  }

  /** @param {boolean} value */
  setFlipped(value) {
    if (!!value === this.flipped) return;
    this.flipped = !!value;
    this.layout();
    this.render(this.cells, this.hl);
  }

  /**
   * Tints the half of the board nearest the viewer with their colour.
   * @param {string|null} colour
   */
  setOwnColour(colour) {
    if (colour) this.svg.setAttribute('data-own', colour);
    else this.svg.removeAttribute('data-own');
  }

  layout() {
    const svg = this.svg;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const d = svgEl('defs', null, svg);
    // Back of a face-down piece: a plain tile with a woven pattern.
    for (const c of ['', 'red', 'blue']) {
      const p = svgEl('pattern', { id: 'jq-back' + (c ? '-' + c : ''), width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, d);
      svgEl('rect', { width: 8, height: 8, class: 'back-base' + (c ? ' back-' + c : '') }, p);
      svgEl('rect', { width: 3, height: 8, class: 'back-stripe' }, p);
    }
    svgEl('rect', { x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 18, class: 'board-bg' }, svg);
    const halfH = ROW_H * 6;
    svgEl('rect', { x: 8, y: MARGIN_Y - 6, width: WIDTH - 16, height: halfH + 12, rx: 12, class: 'board-half half-top' }, svg);
    svgEl('rect', { x: 8, y: MARGIN_Y + halfH + GAP - 6, width: WIDTH - 16, height: halfH + 12, rx: 12, class: 'board-half half-bottom' }, svg);

    const labels = svgEl('g', { class: 'coords', 'aria-hidden': 'true' }, svg);
    for (let f = 0; f < 5; f++) {
      const p = this.position(FILES.charAt(f) + (this.flipped ? '12' : '1'));
      svgEl('text', { x: p.x, y: HEIGHT - 7 }, labels).textContent = FILES.charAt(f);
    }
    for (let r = 1; r <= 12; r++) {
      const p = this.position('a' + r);
      svgEl('text', { x: 13, y: p.y }, labels).textContent = String(r);
    }

    const roads = svgEl('g', { class: 'roads' }, svg);
    const rails = svgEl('g', { class: 'rails' }, svg);
    const ties = svgEl('g', { class: 'rail-ties' }, svg);
    for (const e of this.edges) {
      const a = this.position(e.from);
      const b = this.position(e.to);
      const attrs = { x1: a.x, y1: a.y, x2: b.x, y2: b.y };
      if (e.kind === 'rail') {
        svgEl('line', attrs, rails);
        svgEl('line', attrs, ties);
      } else {
        svgEl('line', attrs, roads);
      }
    }

    const stations = svgEl('g', { class: 'stations' }, svg);
    for (const sq of Object.keys(this.stations)) {
      const st = this.stations[sq];
      const p = this.position(sq);
      if (st.kind === 'camp') {
        svgEl('circle', { cx: p.x, cy: p.y, r: 25, class: 'st-camp' }, stations);
      } else if (st.kind === 'headquarters') {
        svgEl('rect', { x: p.x - 42, y: p.y - 23, width: 84, height: 46, rx: 23, class: 'st-hq' }, stations);
        svgEl('rect', { x: p.x - 36, y: p.y - 17, width: 72, height: 34, rx: 17, class: 'st-hq-inner' }, stations);
      } else {
        svgEl('rect', { x: p.x - 17, y: p.y - 10, width: 34, height: 20, rx: 4, class: 'st-' + st.kind }, stations);
      }
    }

    this.pathLayer = svgEl('g', { class: 'path-layer', 'aria-hidden': 'true' }, svg);
    const squares = svgEl('g', { class: 'squares' }, svg);
    this.groups = {};
    for (const sq of Object.keys(this.stations).sort(squareOrder)) {
      const p = this.position(sq);
      const g = svgEl('g', {
        class: 'sq sq-' + this.stations[sq].kind,
        'data-square': sq,
        transform: 'translate(' + p.x + ' ' + p.y + ')',
      }, squares);
      svgEl('rect', { class: 'hit', x: -COL_W / 2, y: -ROW_H / 2, width: COL_W, height: ROW_H, fill: 'transparent' }, g);
      this.groups[sq] = g;
    }
    this.bestLayer = svgEl('g', { class: 'best-layer', 'aria-hidden': 'true' }, svg);
    this.animLayer = svgEl('g', { class: 'anim-layer', 'aria-hidden': 'true' }, svg);
  }

  /**
   * Draws one piece into a group.
   * @param {Element} g
   * @param {Cell} cell
   * @param {boolean} named
   * @param {string|null} mark
   */
  drawPiece(g, cell, named, mark) {
    /** @type {Record<string, string>} */
    const attrs = { class: 'piece', 'data-face': cell.face === 'up' ? 'up' : 'down' };
    if (cell.piece) attrs['data-piece'] = cell.piece;
    if (cell.colour) attrs['data-colour'] = cell.colour;
    if (mark) attrs['data-mark'] = mark;
    const pg = svgEl('g', attrs, g);
    const up = (cell.face === 'up' || named) && !!cell.piece;
    // A replay names face-down pieces too: the back, with the name over it.
    const known = !up && !!cell.piece;
    if (known) pg.classList.add('piece-revealed');
    const coloured = cell.colour === 'red' || cell.colour === 'blue';
    const cls = 'tile' + (coloured ? ' tile-' + cell.colour : '') + (up ? ' tile-up' : ' tile-down');
    const fill = up ? null : coloured ? 'url(#jq-back-' + cell.colour + ')' : 'url(#jq-back)';
    svgEl('rect', { x: -TILE_W / 2 + 1, y: -TILE_H / 2 + 3, width: TILE_W, height: TILE_H, rx: 8, class: 'tile-shadow' }, pg);
    svgEl('rect', { x: -TILE_W / 2, y: -TILE_H / 2, width: TILE_W, height: TILE_H, rx: 8, class: cls, fill: fill }, pg);
    const nameCls = 'piece-name' + (EN ? ' piece-name-en' : '');
    if (up && cell.piece) {
      svgEl('text', { x: 0, y: 1, class: nameCls + (cell.colour ? ' name-' + cell.colour : '') }, pg).textContent = pieceLabel(cell.piece);
    } else {
      svgEl('rect', { x: -TILE_W / 2 + 5, y: -TILE_H / 2 + 5, width: TILE_W - 10, height: TILE_H - 10, rx: 5, class: 'tile-inset' }, pg);
      if (known && cell.piece) {
        svgEl('text', { x: 0, y: 1, class: nameCls + ' piece-name-down' }, pg).textContent = pieceLabel(cell.piece);
      }
    }
    if (mark && !cell.piece) {
      // A player's guess at an unknown piece: a small label on its back.
      const mg = svgEl('g', { class: 'piece-mark' }, pg);
      const w = mark.length > 1 ? 34 : 24;
      svgEl('rect', { x: -w / 2, y: -12, width: w, height: 24, rx: 6, class: 'mark-bg' }, mg);
      svgEl('text', { x: 0, y: 1, class: 'mark-text' }, mg).textContent = mark;
    }
    if (EN && cell.piece && PIECE_EN[cell.piece]) {
      svgEl('title', null, pg).textContent = PIECE_EN[cell.piece] + (up ? '' : ' (face down)');
    }
    return pg;
  }

  /** @param {string[]|null|undefined} path */
  drawPath(path) {
    const layer = this.pathLayer;
    if (!layer) return;
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    if (!Array.isArray(path) || path.length < 2) return;
    const self = this;
    const pts = path.map(function (sq) { return self.position(sq); });
    const points = pts.map(function (p) { return p.x + ',' + p.y; }).join(' ');
    svgEl('polyline', { points: points, class: 'hl-path' }, layer);
    svgEl('polyline', { points: points, class: 'hl-path-core' }, layer);
    for (let i = 1; i < pts.length - 1; i++) {
      svgEl('circle', { cx: pts[i].x, cy: pts[i].y, r: 6, class: 'hl-path-stop' }, layer);
    }
  }

  /**
   * The review's best action over the pieces: an arrow from → to, or a ring round the
   * square to flip. The board's `data-best` names it ("d3-d5", "c4").
   * @param {{from?: string, to?: string, at?: string}|null} best
   */
  drawBest(best) {
    const layer = this.bestLayer;
    if (!layer) return;
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    this.svg.setAttribute('data-best', best ? (best.at || (best.from + '-' + best.to)) : '');
    if (!best) return;
    if (best.at && this.stations[best.at]) {
      const p = this.position(best.at);
      svgEl('rect', { x: p.x - TILE_W / 2 - 7, y: p.y - TILE_H / 2 - 7, width: TILE_W + 14, height: TILE_H + 14, rx: 13, class: 'hl-best-ring' }, layer);
      return;
    }
    if (!best.from || !best.to || !this.stations[best.from] || !this.stations[best.to]) return;
    const a = this.position(best.from);
    const b = this.position(best.to);
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const ux = (b.x - a.x) / len;
    const uy = (b.y - a.y) / len;
    // The head stops short of the destination's centre, so its piece stays readable.
    const tip = { x: b.x - ux * 12, y: b.y - uy * 12 };
    const base = { x: tip.x - ux * 22, y: tip.y - uy * 22 };
    svgEl('line', { x1: a.x, y1: a.y, x2: base.x, y2: base.y, class: 'hl-best-shaft' }, layer);
    const head = [tip, { x: base.x - uy * 12, y: base.y + ux * 12 }, { x: base.x + uy * 12, y: base.y - ux * 12 }];
    svgEl('polygon', { points: head.map(function (q) { return q.x + ',' + q.y; }).join(' '), class: 'hl-best-head' }, layer);
  }

  /**
   * Draws a position with its highlights.
   * @param {Record<string, Cell>} cells
   * @param {Highlights} hl
   */
  render(cells, hl) {
    this.cells = cells || {};
    this.hl = hl || {};
    const h = this.hl;
    const dests = new Set(h.dests || []);
    const warn = new Set(h.warn || []);
    const actionable = new Set(h.actionable || []);
    const bad = new Set(h.bad || []);
    const marks = h.marks || {};
    const lastSquares = new Set();
    if (h.last) for (const k of /** @type {const} */ (['from', 'to', 'at'])) if (h.last[k]) lastSquares.add(h.last[k]);
    const path = h.path || null;
    this.svg.setAttribute('data-path', Array.isArray(path) && path.length > 1 ? path.join(' ') : '');
    this.drawPath(path);
    this.drawBest(h.best || null);
    const R = function (/** @type {number} */ grow, /** @type {string} */ cls, /** @type {Element} */ g, /** @type {number} */ rx) {
      return svgEl('rect', { x: -TILE_W / 2 - grow, y: -TILE_H / 2 - grow, width: TILE_W + grow * 2, height: TILE_H + grow * 2, rx: rx, class: cls }, g);
    };
    for (const sq of Object.keys(this.groups)) {
      const g = this.groups[sq];
      while (g.childNodes.length > 1) g.removeChild(/** @type {Node} */ (g.lastChild));
      const cell = this.cells[sq];
      const isLast = lastSquares.has(sq);
      const isSel = h.selected === sq;
      const isDest = dests.has(sq);
      const isWarn = isDest && warn.has(sq);
      g.classList.toggle('is-last', isLast);
      g.classList.toggle('is-selected', isSel);
      g.classList.toggle('is-dest', isDest);
      g.classList.toggle('is-target', isDest && !!cell);
      g.classList.toggle('is-warn', isWarn);
      g.classList.toggle('is-actionable', actionable.has(sq) || isDest);
      g.classList.toggle('is-occupied', !!cell);
      g.classList.toggle('is-bad', bad.has(sq));
      if (isLast) R(5, 'hl-last', g, 11);
      if (cell) {
        const pg = this.drawPiece(g, cell, !!h.named, Object.prototype.hasOwnProperty.call(marks, sq) ? marks[sq] : null);
        if (this.arriving.has(sq)) pg.classList.add('is-arriving');
      }
      if (bad.has(sq)) {
        // Breaks a deployment rule (the server said so): a red dashed frame and a "!".
        R(5, 'hl-bad', g, 11);
        this.badge(g, -TILE_W / 2 + 2, -TILE_H / 2 + 2, 10);
      }
      if (isSel) R(4, 'hl-selected', g, 11);
      if (isDest) {
        // The move guide: the destinations the server listed for the selected piece; a
        // heavier frame with corner marks around a piece it would attack.
        const warnCls = isWarn ? ' hl-warn' : '';
        if (cell) {
          R(5, 'hl-dest hl-dest-target' + warnCls, g, 11);
          const cx = TILE_W / 2 + 5;
          const cy = TILE_H / 2 + 5;
          const k = 10;
          const corners = 'M' + (-cx) + ',' + (-cy + k) + ' V' + (-cy) + ' H' + (-cx + k) +
            ' M' + (cx - k) + ',' + (-cy) + ' H' + cx + ' V' + (-cy + k) +
            ' M' + cx + ',' + (cy - k) + ' V' + cy + ' H' + (cx - k) +
            ' M' + (-cx + k) + ',' + cy + ' H' + (-cx) + ' V' + (cy - k);
          svgEl('path', { d: corners, class: 'hl-dest-corners' + warnCls }, g);
        } else {
          R(0, 'hl-dest hl-dest-empty' + warnCls, g, 8);
          svgEl('circle', { cx: 0, cy: 0, r: 7, class: 'hl-dest-dot' + warnCls }, g);
        }
        // Would lose by repetition (the server's warning): a red "!".
        if (isWarn) this.badge(g, TILE_W / 2 - 2, -TILE_H / 2 + 2, 11);
      }
    }
  }

  /**
   * @param {Element} g
   * @param {number} x
   * @param {number} y
   * @param {number} r
   */
  badge(g, x, y, r) {
    svgEl('circle', { cx: x, cy: y, r: r, class: 'hl-warn-badge' }, g);
    svgEl('text', { x: x, y: y + 1, class: 'hl-warn-mark' }, g).textContent = '!';
  }

  /**
   * Shows what just happened, on a board drawn (now or later) in its new position: the
   * mover slides along the route the server sent while the piece at its destination is
   * drawn hidden, and the square where a piece was lost flashes. Skipped when the viewer
   * asked the system for less motion. `quick` shortens the slide (events are waiting).
   * Returns how long it lasts, in ms (0: nothing to wait for).
   * @param {{route?: string[]|null, mover?: Cell|null, combat?: string|null, at?: string|null}} what
   * @param {{quick?: boolean}} [opts]
   */
  animate(what, opts) {
    const reduce = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    const route = what.route;
    if (what.at) this.flash(what.at, 'flash-flip');
    if (!Array.isArray(route) || route.length < 2) return 0;
    const to = route[route.length - 1];
    const lossAt = what.combat ? to : null;
    if (reduce || !what.mover || !this.animLayer || typeof Element.prototype.animate !== 'function') {
      if (lossAt) this.flash(lossAt, 'flash-loss');
      return 0;
    }
    // A slide still running (its timer ran out before its last frame, as on a busy
    // machine) jumps to its end and ends there, rather than vanishing part way.
    if (this.sliding) this.sliding();
    const layer = this.animLayer;
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    this.arriving.clear();
    for (const pg of this.svg.querySelectorAll('.piece.is-arriving')) pg.classList.remove('is-arriving');
    const ghost = svgEl('g', { class: 'ghost', 'data-to': to }, layer);
    this.drawPiece(ghost, what.mover, !!this.hl.named, null);
    const self = this;
    const pts = route.map(function (sq) { return self.position(sq); });
    const frames = pts.map(function (p) { return { transform: 'translate(' + p.x + 'px,' + p.y + 'px)' }; });
    const full = Math.min(MAX_SLIDE_MS, STEP_MS * (route.length - 1) + 80);
    const duration = opts && opts.quick ? Math.min(full, QUICK_SLIDE_MS) : full;
    // The piece that stands on the destination (the mover, unless the defender held)
    // waits until the slide arrives.
    const hide = what.combat !== 'defender_wins';
    if (hide) {
      this.arriving.add(to);
      const dest = this.groups[to];
      const standing = dest ? dest.querySelector('.piece') : null;
      if (standing) standing.classList.add('is-arriving');
    }
    const anim = ghost.animate(frames, { duration: duration, easing: 'ease-in-out', fill: 'forwards' });
    let ended = false;
    const done = function () {
      if (ended) return;
      ended = true;
      if (hide && self.arriving.delete(to)) {
        const dest = self.groups[to];
        const standing = dest ? dest.querySelector('.piece') : null;
        if (standing) standing.classList.remove('is-arriving');
      }
      if (self.sliding === cut) self.sliding = null;
      ghost.remove();
      if (lossAt) self.flash(lossAt, 'flash-loss');
    };
    const cut = function () {
      anim.finish();
      done();
    };
    this.sliding = cut;
    anim.onfinish = done;
    anim.oncancel = done;
    return duration;
  }

  /**
   * A short flash on a square: where a piece was lost, or flipped.
   * @param {string} sq
   * @param {string} cls
   */
  flash(sq, cls) {
    const g = this.groups[sq];
    if (!g) return;
    const ring = svgEl('rect', { x: -TILE_W / 2 - 7, y: -TILE_H / 2 - 7, width: TILE_W + 14, height: TILE_H + 14, rx: 12, class: 'flash ' + cls }, g);
    setTimeout(function () { ring.remove(); }, 900);
  }
}
