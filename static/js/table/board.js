// @ts-check
// The 四国 board as SVG: the grid's stations, roads and rails (from /api/board's edges),
// camps and headquarters (from the station kinds), each seat's area tinted with its
// army's colour, and the pieces the table message lists. It draws what it is given and
// reports taps; which stations may be tapped and where a piece may go come from the
// server's `legal` and `deploy`.
//
// Every station is one <g data-station="Sa1"> holding its tap target (.hit), its
// highlights and its piece (.piece with data-seat, data-face and, where the viewer may
// know it, data-piece).
import { svgEl } from '../dom.js';
import { EN, PIECE_ZH } from '../i18n.js';
import { SEATS, UNIT } from './geometry.js';

/** @typedef {import('./geometry.js').Geometry} Geometry */
/** @typedef {import('../table_messages.js').Seat4} Seat4 */
/** @typedef {import('../table_messages.js').TablePiece} TablePiece */

/**
 * @typedef {Object} Marks
 * @property {Record<string, TablePiece>} cells every occupied station
 * @property {Set<string>} [from] stations the viewer may tap to choose a piece
 * @property {Set<string>} [dests] where the chosen piece may go
 * @property {string|null} [selected]
 * @property {string[]} [route] the last step's stations
 * @property {Set<Seat4>} [team] the viewer's side (own seat and allies)
 */

// A 四国 tile is half the width of a two-player one: English names are cut to four letters.
/** @type {Record<string, string>} */
const EN_TILE = {
  marshal: 'Mshl', general: 'Gen', major_general: 'MajG', brigadier: 'Brig', colonel: 'Col', major: 'Maj',
  captain: 'Capt', lieutenant: 'Lt', engineer: 'Eng', bomb: 'Bomb', mine: 'Mine', flag: 'Flag',
};

const TILE_LONG = 0.9 * UNIT;
const TILE_SHORT = 0.62 * UNIT;

export class TableBoard {
  /**
   * @param {SVGSVGElement} svg
   * @param {Geometry} geo
   */
  constructor(svg, geo) {
    this.svg = svg;
    this.geo = geo;
    /** @type {Record<string, SVGElement>} */
    this.groups = {};
    /** @type {Array<(station: string) => void>} */
    this.handlers = [];
    /** @type {SVGElement|null} */
    this.routeLayer = null;
    /** @type {SVGElement|null} */
    this.leavingLayer = null;
    svg.setAttribute('viewBox', '0 0 ' + geo.width + ' ' + geo.width);
    svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
    const self = this;
    // A tap is read from the pointer's own point, not from the click the browser makes
    // of it: on a phone, Chromium moves a finger's click to a neighbouring target it
    // finds likelier (tapping an empty camp next to one's own piece chose the piece,
    // measured at 360 px where a station is 19 px). A press that moved is a pan.
    /** @type {{id: number, x: number, y: number}|null} */
    let down = null;
    svg.addEventListener('pointerdown', function (ev) {
      down = ev.isPrimary ? { id: ev.pointerId, x: ev.clientX, y: ev.clientY } : null;
    });
    svg.addEventListener('pointercancel', function () { down = null; });
    svg.addEventListener('pointerup', function (ev) {
      const d = down;
      down = null;
      if (!d || d.id !== ev.pointerId || Math.hypot(ev.clientX - d.x, ev.clientY - d.y) > 10) return;
      const st = self.stationAt(ev.clientX, ev.clientY);
      if (st) for (const cb of self.handlers) cb(st);
    });
    this.draw();
  }

  /**
   * The station whose tap target holds a point of the screen, if any.
   * @param {number} x
   * @param {number} y
   * @returns {string|null}
   */
  stationAt(x, y) {
    const m = this.svg.getScreenCTM();
    if (!m) return null;
    const p = new DOMPoint(x, y).matrixTransform(m.inverse());
    for (const name of Object.keys(this.geo.stations)) {
      const at = this.geo.at(name);
      const half = (this.geo.stations[name].kind === 'center' ? 1.5 : 1) * UNIT / 2;
      if (Math.abs(p.x - at.x) <= half && Math.abs(p.y - at.y) <= half) return name;
    }
    return null;
  }

  /** @param {(station: string) => void} cb */
  onTap(cb) {
    this.handlers.push(cb);
  }

  /** Draws the empty board for the geometry's viewer: areas, lines, stations, targets. */
  draw() {
    const svg = this.svg;
    const geo = this.geo;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svgEl('rect', { class: 'bg', x: 0, y: 0, width: geo.width, height: geo.width, rx: 12 }, svg);
    const areas = svgEl('g', { class: 'areas' }, svg);
    for (const seat of SEATS) {
      const b = geo.areaBox(seat);
      svgEl('rect', { class: 'area area-' + seat, x: b.x, y: b.y, width: b.w, height: b.h, rx: 8 }, areas);
    }
    const roads = svgEl('g', { class: 'roads' }, svg);
    const rails = svgEl('g', { class: 'rails' }, svg);
    const ties = svgEl('g', { class: 'rail-ties' }, svg);
    for (const e of geo.board.edges) {
      const d = geo.segment(e.from, e.to);
      if (e.kind === 'rail') {
        svgEl('path', { d: d }, rails);
        svgEl('path', { d: d }, ties);
      } else {
        svgEl('path', { d: d }, roads);
      }
    }
    const marks = svgEl('g', { class: 'stations' }, svg);
    for (const name of Object.keys(geo.stations)) this.drawStation(marks, name);
    this.routeLayer = svgEl('g', { class: 'route-layer' }, svg);
    const layer = svgEl('g', { class: 'squares' }, svg);
    this.groups = {};
    for (const name of Object.keys(geo.stations)) {
      const s = geo.stations[name];
      const p = geo.at(name);
      const g = svgEl('g', {
        class: 'st',
        'data-station': name,
        'data-kind': s.kind,
        transform: 'translate(' + p.x + ' ' + p.y + ')',
      }, layer);
      // The tap target: the station's whole cell (the 九宫's stations stand two apart).
      const hit = s.kind === 'center' ? 1.5 * UNIT : UNIT;
      svgEl('rect', { class: 'hit', x: -hit / 2, y: -hit / 2, width: hit, height: hit, fill: 'transparent' }, g);
      this.groups[name] = g;
    }
    // Above the pieces: a defeated army's pieces fading as they leave (`leave`).
    this.leavingLayer = svgEl('g', { class: 'leaving-layer', 'aria-hidden': 'true' }, svg);
  }

  /**
   * A defeated army's pieces leave the board (RULES §5.4.2): each is drawn once more
   * where it stood and fades out, so the players see whose army went and from where.
   * They are not pieces of the board: nothing counts or taps them.
   * @param {{at: string, cell: TablePiece}[]} gone
   */
  leave(gone) {
    const layer = this.leavingLayer;
    if (!layer) return;
    for (const { at, cell } of gone) {
      if (!this.geo.stations[at]) continue;
      const p = this.geo.at(at);
      const g = svgEl('g', { class: 'leaving', transform: 'translate(' + p.x + ' ' + p.y + ')' }, layer);
      this.drawPiece(g, cell, false, 'ghost');
      const done = function () { if (g.parentNode) g.parentNode.removeChild(g); };
      g.addEventListener('animationend', done);
      // Where animations do not run (reduced motion, a hidden tab), the ghost still goes.
      setTimeout(done, 1500);
    }
  }

  /**
   * A station's mark on the empty board: camps (行营) round, headquarters framed.
   * @param {SVGElement} parent
   * @param {string} name
   */
  drawStation(parent, name) {
    const s = this.geo.stations[name];
    const p = this.geo.at(name);
    if (s.kind === 'camp') {
      svgEl('circle', { class: 'st-camp', cx: p.x, cy: p.y, r: 0.36 * UNIT }, parent);
      return;
    }
    const across = this.geo.across(s.seat);
    const w = s.kind === 'center' ? 0.62 * UNIT : across ? 0.74 * UNIT : 0.5 * UNIT;
    const h = s.kind === 'center' ? 0.62 * UNIT : across ? 0.5 * UNIT : 0.74 * UNIT;
    const cls = s.kind === 'hq' ? 'st-hq' : s.kind === 'rail' || s.kind === 'center' ? 'st-rail' : 'st-road';
    svgEl('rect', { class: cls, x: p.x - w / 2, y: p.y - h / 2, width: w, height: h, rx: s.kind === 'hq' ? w / 2.6 : 3 }, parent);
  }

  /**
   * Draws pieces and highlights.
   * @param {Marks} m
   */
  render(m) {
    const from = m.from || new Set();
    const dests = m.dests || new Set();
    const route = new Set(m.route || []);
    const team = m.team || new Set();
    if (this.routeLayer) {
      while (this.routeLayer.firstChild) this.routeLayer.removeChild(this.routeLayer.firstChild);
      if (m.route && m.route.length > 1) {
        const d = this.geo.routePath(m.route);
        svgEl('path', { class: 'route', d: d }, this.routeLayer);
        svgEl('path', { class: 'route-core', d: d }, this.routeLayer);
      }
    }
    for (const name of Object.keys(this.groups)) {
      const g = this.groups[name];
      while (g.childNodes.length > 1) g.removeChild(/** @type {ChildNode} */ (g.lastChild));
      const cell = m.cells[name];
      g.classList.toggle('is-from', from.has(name));
      g.classList.toggle('is-dest', dests.has(name));
      g.classList.toggle('is-selected', m.selected === name);
      g.classList.toggle('on-route', route.has(name));
      if (route.has(name)) svgEl('circle', { class: 'hl-route', r: 0.5 * UNIT }, g);
      if (cell) this.drawPiece(g, cell, team.has(cell.seat));
      if (m.selected === name) svgEl('rect', ringAttrs('hl-selected', 0.5), g);
      if (dests.has(name)) {
        if (cell) svgEl('rect', ringAttrs('hl-dest hl-attack', 0.5), g);
        else svgEl('circle', { class: 'hl-dest', r: 0.2 * UNIT }, g);
      }
    }
  }

  /**
   * One piece: a back in its army's colour, or its name where the viewer may know it.
   * Pieces lie across for the seats at the bottom and top, up the screen for the others.
   * @param {SVGElement} g
   * @param {TablePiece} cell
   * @param {boolean} ours
   * @param {string} [base] the class that makes it a piece of the board, or a ghost leaving it
   */
  drawPiece(g, cell, ours, base) {
    const across = this.geo.across(cell.seat);
    const w = across ? TILE_LONG : TILE_SHORT;
    const h = across ? TILE_SHORT : TILE_LONG;
    const piece = svgEl('g', {
      class: (base || 'piece') + ' army-' + cell.seat + (cell.piece ? ' is-named' : ' is-back') + (cell.face === 'up' ? ' is-shown' : ''),
      'data-seat': cell.seat,
      'data-face': cell.face,
      'data-piece': cell.piece || null,
    }, g);
    svgEl('rect', { class: 'tile', x: -w / 2, y: -h / 2, width: w, height: h, rx: 5 }, piece);
    if (cell.piece) {
      const label = (EN ? EN_TILE[cell.piece] : PIECE_ZH[cell.piece]) || cell.piece;
      if (across || EN) {
        const text = svgEl('text', { class: 'name' + (EN ? ' name-en' : ''), x: 0, y: 0 }, piece);
        if (!across) text.setAttribute('transform', 'rotate(-90)');
        text.textContent = label;
      } else {
        // Up the screen, a Chinese name stands one character above the other.
        const chars = Array.from(label);
        const step = 0.34 * UNIT;
        chars.forEach(function (ch, i) {
          const t = svgEl('text', { class: 'name', x: 0, y: (i - (chars.length - 1) / 2) * step }, piece);
          t.textContent = ch;
        });
      }
    } else {
      svgEl('rect', { class: 'back-inset', x: -w / 2 + 4, y: -h / 2 + 4, width: w - 8, height: h - 8, rx: 3 }, piece);
    }
    if (ours) svgEl('circle', { class: 'team-dot', cx: -w / 2 + 5, cy: -h / 2 + 5, r: 3.2 }, piece);
  }
}

/**
 * A square ring round a station, `half` units of the grid from its centre.
 * @param {string} cls
 * @param {number} half
 */
function ringAttrs(cls, half) {
  const r = half * UNIT - 2;
  return { class: cls, x: -r, y: -r, width: 2 * r, height: 2 * r, rx: 6 };
}
