// @ts-check
// Where things go on screen: the 129 stations of GET /api/board?variant=siguo placed
// on their 17 × 17 grid (x grows east, y north), turned by quarter turns so that the
// viewer's seat is at the bottom. Which seat sits where round the board follows: the
// next seat in turn order (S → E → N → W) is on the viewer's right.

/** @typedef {import('../table_messages.js').Seat4} Seat4 */

/**
 * @typedef {Object} SiguoBoard
 * @property {{width: number, height: number}} grid
 * @property {{station: string, kind: string, seat: Seat4|null, x: number, y: number}[]} stations
 * @property {{from: string, to: string, kind: string}[]} edges
 * @property {string[][]} rail_lines
 */

/** @type {Seat4[]} */
export const SEATS = ['south', 'east', 'north', 'west'];

/** Where a seat sits as the viewer sees the table. */
/** @typedef {'bottom'|'right'|'top'|'left'} Pos */

/** @type {Pos[]} */
const POSITIONS = ['bottom', 'right', 'top', 'left'];

/** One grid step, in viewBox units. */
export const UNIT = 40;
/** Room round the grid, in viewBox units. */
const MARGIN = 6;

/**
 * Where `seat` sits for a viewer behind `viewer`.
 * @param {Seat4} seat
 * @param {Seat4} viewer
 * @returns {Pos}
 */
export function posOf(seat, viewer) {
  return POSITIONS[(SEATS.indexOf(seat) - SEATS.indexOf(viewer) + 4) % 4];
}

/**
 * The seat that sits at `pos` for a viewer behind `viewer`.
 * @param {Pos} pos
 * @param {Seat4} viewer
 * @returns {Seat4}
 */
export function seatAt(pos, viewer) {
  return SEATS[(SEATS.indexOf(viewer) + POSITIONS.indexOf(pos)) % 4];
}

export class Geometry {
  /** @param {SiguoBoard} board */
  constructor(board) {
    this.board = board;
    this.size = board.grid.width;
    this.centre = (this.size - 1) / 2;
    /** @type {Record<string, {kind: string, seat: Seat4|null, x: number, y: number}>} */
    this.stations = {};
    for (const s of board.stations) this.stations[s.station] = { kind: s.kind, seat: s.seat, x: s.x, y: s.y };
    /** @type {Seat4} */
    this.viewer = 'south';
    this.width = MARGIN * 2 + this.size * UNIT;
  }

  /** @param {Seat4} seat */
  turnTo(seat) {
    this.viewer = seat;
  }

  /**
   * A grid place turned for the viewer, in viewBox units (the centre of its cell).
   * @param {number} x
   * @param {number} y
   * @returns {{x: number, y: number}}
   */
  place(x, y) {
    let dx = x - this.centre;
    let dy = y - this.centre;
    // A quarter turn clockwise per seat after south: east's area comes round to the bottom.
    for (let i = 0; i < SEATS.indexOf(this.viewer); i++) {
      const nx = dy;
      dy = -dx;
      dx = nx;
    }
    return {
      x: MARGIN + (this.centre + dx + 0.5) * UNIT,
      y: MARGIN + (this.centre - dy + 0.5) * UNIT,
    };
  }

  /**
   * A station's place on screen.
   * @param {string} station
   */
  at(station) {
    const s = this.stations[station];
    return s ? this.place(s.x, s.y) : { x: 0, y: 0 };
  }

  /**
   * Whether things of `seat` (its area, its pieces) lie across the screen (the seats at
   * the bottom and the top) rather than up it (left and right).
   * @param {Seat4|null} seat
   */
  across(seat) {
    if (!seat) return true;
    const p = posOf(seat, this.viewer);
    return p === 'bottom' || p === 'top';
  }

  /**
   * The SVG path between two neighbouring stations: straight, or for an arc (弧形线,
   * two stations a diagonal step apart) a curve bending round the inner corner.
   * @param {string} a
   * @param {string} b
   * @param {boolean} [continued] leave out the opening move-to (the path goes on)
   */
  segment(a, b, continued) {
    const sa = this.stations[a];
    const sb = this.stations[b];
    const p = this.at(a);
    const q = this.at(b);
    const start = continued ? '' : 'M' + p.x + ' ' + p.y;
    if (sa && sb && Math.abs(sa.x - sb.x) === 1 && Math.abs(sa.y - sb.y) === 1) {
      // Of the two corners of the step, the one nearer the centre is where both lines meet.
      const c1 = { x: sa.x, y: sb.y };
      const c2 = { x: sb.x, y: sa.y };
      const d = (/** @type {{x: number, y: number}} */ c) => Math.abs(c.x - this.centre) + Math.abs(c.y - this.centre);
      const c = d(c1) <= d(c2) ? c1 : c2;
      const k = this.place(c.x, c.y);
      return start + ' Q' + k.x + ' ' + k.y + ' ' + q.x + ' ' + q.y;
    }
    return start + ' L' + q.x + ' ' + q.y;
  }

  /**
   * The route of a step as one path through every station of it.
   * @param {string[]} route
   */
  routePath(route) {
    if (!route.length) return '';
    const p = this.at(route[0]);
    let d = 'M' + p.x + ' ' + p.y;
    for (let i = 1; i < route.length; i++) d += ' ' + this.segment(route[i - 1], route[i], true);
    return d;
  }

  /**
   * The rectangle of a seat's area (5 × 6 stations) on screen.
   * @param {Seat4} seat
   */
  areaBox(seat) {
    let x0 = Infinity; let y0 = Infinity; let x1 = -Infinity; let y1 = -Infinity;
    for (const name of Object.keys(this.stations)) {
      if (this.stations[name].seat !== seat) continue;
      const p = this.at(name);
      x0 = Math.min(x0, p.x); y0 = Math.min(y0, p.y); x1 = Math.max(x1, p.x); y1 = Math.max(y1, p.y);
    }
    const pad = UNIT / 2;
    return { x: x0 - pad, y: y0 - pad, w: x1 - x0 + 2 * pad, h: y1 - y0 + 2 * pad };
  }
}

/**
 * A station's square within its own area, as deployment names it: `Sb3` → `b3`.
 * @param {string} station
 */
export function squareOf(station) {
  return station.slice(1);
}
