// @ts-check
// The one game state of the game page: the server's last `state` kept current by its
// events, plus what this page alone knows (a selection, a command in flight, the clock's
// deadline). Every view reads from here; only handlers.js and the page's own commands
// write to it. Nothing here applies a rule: counters, legal actions, colours and the
// result are the server's.
import { byId } from '../dom.js';
import { seatName, shownName, t } from '../i18n.js';

/** @typedef {import('../messages.js').State} State */
/** @typedef {import('../messages.js').View} View */
/** @typedef {import('../messages.js').Seat} Seat */
/** @typedef {import('../messages.js').GameSummary} GameSummary */
/** @typedef {import('../messages.js').Result} Result */
/** @typedef {import('../messages.js').Player} Player */
/** @typedef {import('../messages.js').PlayerRef} PlayerRef */
/** @typedef {import('../messages.js').GameEvent} GameEvent */
/**
 * How a game ended as far as this page knows: the server's Result, or only the
 * summary's words for a finished game whose state has not come yet (no score row then).
 * @typedef {{winner: Seat|null, reason: string, score: {south: number, north: number}|null,
 *   base?: number, rule?: import('../messages.js').ScoreRule}} Ending
 */

const root = byId('game');

export const SEATS = /** @type {const} */ (['south', 'north']);

/**
 * @param {Seat} seat
 * @returns {Seat}
 */
export function other(seat) {
  return seat === 'south' ? 'north' : 'south';
}

/**
 * @param {string|null|undefined} a
 * @param {string|null|undefined} b
 */
export function sameUser(a, b) {
  return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
}

export const store = {
  gameId: root.dataset.gameId || '',
  /** The logged-in user, or null. */
  me: root.dataset.user || null,
  /** @type {State|null} */
  S: null,
  /** GET /api/games/{id}, used before the first state and while the game is open. @type {GameSummary|null} */
  summary: null,
  version: 0,
  haveState: false,
  /** The piece picked to move. @type {string|null} */
  selected: null,
  /** A step (flip, move, pass) is on its way to the server: the board waits. */
  awaiting: false,
  /** The last step, for its highlight and route. @type {{from?: string, to?: string, at?: string, path: string[]|null}|null} */
  last: null,
  /** @type {{to_move: Seat, deadline: number, seconds: number|null}|null} */
  clock: null,
  /** performance.now() when deployment ends. @type {number|null} */
  deployDeadline: null,
  /** When each absent seat loses by escape (performance.now()). @type {{south: number|null, north: number|null}} */
  escapeAt: { south: null, north: null },
  /** Each seat's last flip while colours are undecided. @type {Record<string, {at: string, piece?: string, colour?: string}>} */
  lastFlips: {},
  rematchAsked: false,
  /** Players as the game's own variant counts them, by lower-case name. @type {Record<string, Player>} */
  players: {},
  /** The creator of an open game, from /api/games/open. @type {PlayerRef|null} */
  openCreator: null,
  socketOpen: false,
  leaving: false,
  /** Steps played before this page opened (its log starts after them). */
  stepsBefore: -1,
  /** The replay's view at its current step, drawn instead of the live one. @type {View|null} */
  replayView: null,
};

/**
 * What the board, the counters and the tallies show: the replay's step or the live view.
 * @returns {View|null}
 */
export function shown() {
  return store.replayView || view();
}

/** @returns {GameSummary|null} */
export function game() {
  return store.S ? store.S.game : store.summary;
}

/** @returns {View|null} */
export function view() {
  return store.S ? store.S.view : null;
}

/** @returns {Seat|null} */
export function mySeat() {
  const S = store.S;
  if (S) return S.you === 'south' || S.you === 'north' ? S.you : null;
  // Before the first state the page draws from the summary: its players say where the
  // viewer sits, so their own card is at the bottom from the first paint.
  const g = store.summary;
  if (!g || !g.players || !store.me) return null;
  return SEATS.find((seat) => sameUser(g.players[seat]?.username, store.me)) || null;
}

export function status() {
  const g = game();
  return g ? g.status : null;
}

export function isStandard() {
  const g = game();
  return !!(g && g.variant === 'standard');
}

/** The game's own variant, for scores and ranks. */
export function variant() {
  return isStandard() ? 'standard' : 'flip';
}

/** The deployment phase of a standard game: `deploy` while there is no view yet. */
export function deploying() {
  const S = store.S;
  return !!(S && S.deploy && !S.view && status() === 'running');
}

/**
 * How the game ended, as the server said: the state's `result`, the end event's, or the
 * summary's words for a page that has no state yet.
 * @returns {Ending|null}
 */
export function result() {
  const S = store.S;
  if (S && S.result) return S.result;
  const v = view();
  const g = game();
  if (v && v.outcome) return { winner: v.outcome.winner, reason: v.outcome.reason, score: g ? g.score : null, base: g ? g.base : undefined };
  if (g && g.status === 'finished' && g.result) {
    return { winner: g.result === 'draw' ? null : g.result, reason: g.reason || '', score: g.score, base: g.base };
  }
  return null;
}

export function isRunning() {
  return status() === 'running' && !result();
}

/**
 * @param {Seat} seat
 * @returns {PlayerRef|null}
 */
export function player(seat) {
  const g = game();
  return g && g.players && g.players[seat] ? g.players[seat] : null;
}

/**
 * A seat's player as shown in text: 昵称 (login) or the login, else the seat's name.
 * @param {Seat} seat
 */
export function playerName(seat) {
  const p = player(seat);
  return p && p.username ? shownName(withInfo(p)) : seatName(seat);
}

/**
 * A player with what /api/players/{name}?variant= said of them (score and rank in this
 * game's variant), when the page has asked.
 * @param {PlayerRef} p
 * @returns {PlayerRef}
 */
export function withInfo(p) {
  const info = p && p.username ? store.players[p.username.toLowerCase()] : null;
  if (!info) return p;
  return Object.assign({}, p, { score: info.score, rank: info.rank, display_name: info.display_name !== undefined ? info.display_name : p.display_name });
}

/**
 * A seat's colour, from the server's view.
 * @param {Seat} seat
 * @returns {string|null}
 */
export function colourOf(seat) {
  const v = view();
  if (v && v.colours) return v.colours[seat];
  const S = store.S;
  if (S && S.deploy && S.deploy.colour && seat === mySeat()) return S.deploy.colour;
  return null;
}

export function creatorName() {
  const g = game();
  if (!g) return null;
  if (g.creator && g.creator.username) return g.creator.username;
  for (const seat of SEATS) {
    const p = g.players && g.players[seat];
    if (p && p.username) return p.username;
  }
  return store.openCreator ? store.openCreator.username : null;
}

export function amCreator() {
  if (mySeat()) return true;
  return !!store.me && sameUser(creatorName(), store.me);
}

/** The limits the server's view carries, for words such as "80步未吃子". */
export function limits() {
  const v = view();
  return v ? { timeouts_to_lose: v.timeouts_to_lose, quiet_steps_to_draw: v.quiet_steps_to_draw, steps_to_draw: v.steps_to_draw } : null;
}

/** Whose turn it is, for the status line and the tab title. */
export function myTurn() {
  const v = view();
  const seat = mySeat();
  return !!(seat && v && isRunning() && v.to_move === seat);
}

/**
 * The text for the current side in words: "你" for the viewer's own seat.
 * @param {Seat} seat
 */
export function whoWord(seat) {
  return seat === mySeat() ? t('你', 'You') : playerName(seat);
}

/**
 * A layout's square → piece map (values may be a name or {piece: name}).
 * @param {Record<string, string|{piece: string}>|null|undefined} layout
 * @returns {Record<string, string>}
 */
export function layoutPieces(layout) {
  /** @type {Record<string, string>} */
  const out = {};
  if (!layout || typeof layout !== 'object') return out;
  for (const sq of Object.keys(layout)) {
    const p = layout[sq];
    const piece = typeof p === 'string' ? p : p && typeof p.piece === 'string' ? p.piece : null;
    if (piece) out[sq] = piece;
  }
  return out;
}

/** The page root, for classes that style the whole page. */
export const rootEl = root;
