// @ts-check
// The page's one state: the newest table message (all a client needs, docs/protocol.md)
// and what the viewer has chosen on the page (a piece, the seat to watch from, the zoom).
// The questions asked of it are answered from the message alone.
import { byId } from '../dom.js';

/** @typedef {import('../table_messages.js').Table} Table */
/** @typedef {import('../table_messages.js').TableSeat} TableSeat */
/** @typedef {import('../table_messages.js').Seat4} Seat4 */

const root = byId('table');

export const store = {
  gameId: root.dataset.gameId || '',
  /** The logged-in player's login name, or null. */
  me: root.dataset.user || null,
  /** @type {Table|null} */
  table: null,
  version: 0,
  socketOpen: false,
  /** A station chosen: a piece to move, or a square to swap while deploying. @type {string|null} */
  selected: null,
  /** A move or swap sent and not yet answered: taps wait. */
  awaiting: false,
  /** The seat a spectator watches from. @type {Seat4} */
  watchFrom: /** @type {Seat4} */ ('south'),
  /** The server's clock less this one's, in ms, when they clearly differ. */
  clockOffset: 0,
};

/**
 * The server's time now, as near as the page knows it: the table message counts down to
 * `deadline_at` on the server's clock and carries no time left of its own.
 */
export function serverNow() {
  return Date.now() + store.clockOffset;
}

/**
 * Takes the server's clock from an answer's Date header (whole seconds, so only a
 * difference of more than two seconds is believed).
 * @param {Response} res
 */
export function readServerClock(res) {
  const date = Date.parse(res.headers.get('Date') || '');
  if (isNaN(date)) return;
  const off = date + 500 - Date.now();
  store.clockOffset = Math.abs(off) > 2000 ? off : 0;
}

/** The viewer's own seat, or null for a spectator. */
export function mySeat() {
  return store.table ? store.table.you : null;
}

/** The seat whose area is drawn at the bottom. @returns {Seat4} */
export function viewerSeat() {
  return mySeat() || store.watchFrom;
}

/**
 * The card of a seat.
 * @param {Seat4} seat
 * @returns {TableSeat|null}
 */
export function seatCard(seat) {
  if (!store.table) return null;
  return store.table.seats.find(function (c) { return c.seat === seat; }) || null;
}

/** The seats on the viewer's side (their own and allies'), empty for a spectator. */
export function team() {
  /** @type {Set<Seat4>} */
  const out = new Set();
  const me = mySeat();
  const mine = me ? seatCard(me) : null;
  if (!store.table || !mine) return out;
  for (const c of store.table.seats) if (c.side === mine.side) out.add(c.seat);
  return out;
}

/** The viewer's legal moves by the station they start from. */
export function movesFrom() {
  /** @type {Record<string, string[]>} */
  const out = {};
  const tb = store.table;
  if (!tb || tb.phase !== 'playing') return out;
  for (const pair of tb.legal) (out[pair[0]] = out[pair[0]] || []).push(pair[1]);
  return out;
}

/** Whether the viewer is deploying now (their own area may be rearranged). */
export function deployingNow() {
  const tb = store.table;
  return !!(tb && tb.phase === 'deploying' && tb.deploy && tb.can.deploy);
}

/** Whether the logged-in player created this table. */
export function amCreator() {
  return !!(store.table && store.me && store.table.creator === store.me);
}
