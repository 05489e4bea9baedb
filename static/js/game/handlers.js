// @ts-check
// What the page does with each message the game socket sends, keyed by message type.
// Events are applied as the server wrote them: the squares in `board` are replaced (null
// empties one), counters are replaced by `status`, tallies by `tallies`, the legal
// actions by `legal`. Anything an event does not carry that the page would need (an old
// server's event without `board`) is fetched whole again rather than worked out here.
import { show } from './pacing.js';
import { t } from '../i18n.js';
import { store, view, mySeat, game, amCreator } from './state.js';
import { announceJoin } from './panels.js';

/** @typedef {import('../messages.js').GameEvent} GameEvent */
/** @typedef {import('../messages.js').State} State */
/** @typedef {import('../messages.js').Clock} Clock */
/** @typedef {import('../messages.js').Presence} Presence */

const STEP_KINDS = ['flip', 'move', 'timeout', 'pass'];
// Events that change nothing the page counts.
const QUIET_KINDS = ['rematch_offer', 'rematch', 'resign', 'escape', 'time_limit'];

/** What the page around the state does when something arrives; main.js fills these in. */
export const hooks = {
  render: function () {},
  /** Ask the server for a whole state again. @type {(fresh: boolean) => void} */
  resync: function (fresh) { void fresh; },
  /**
   * A step or other event was applied (log line, animation, caption, sound); answers how
   * many ms the board needs to show it. `quick`: more wait, show it shortened.
   * @type {(ev: GameEvent, quick: boolean) => number}
   */
  event: function (ev, quick) { void ev; void quick; return 0; },
  /** A fresh state arrived. @type {(first: boolean) => void} */
  state: function (first) { void first; },
  /** The colours were just decided. @type {() => void} */
  colours: function () {},
  /** A rematch began while this page was open. @type {(id: string) => void} */
  follow: function (id) { void id; },
  /** @type {(d: import('../messages.js').Phrase) => void} */
  phrase: function (d) { void d; },
  /** @type {(d: import('../messages.js').ErrorData, a: number|undefined) => void} */
  error: function (d, a) { void d; void a; },
};

/** @param {Clock|null|undefined} c */
export function setClock(c) {
  if (c && c.to_move && typeof c.remaining_ms === 'number') {
    store.clock = {
      to_move: c.to_move,
      deadline: performance.now() + Math.max(0, c.remaining_ms),
      seconds: c.seconds_per_action || (store.clock ? store.clock.seconds : null),
    };
  } else {
    store.clock = null;
  }
}

/** @param {Presence|null|undefined} p */
function setPresence(p) {
  const S = store.S;
  if (!S || !p) return;
  S.presence = p;
  const watching = document.getElementById('watchers');
  if (watching) {
    const n = typeof p.watchers === 'number' ? p.watchers : 0;
    watching.hidden = n === 0;
    watching.textContent = '👁 ' + n;
    watching.dataset.watchers = String(n);
    watching.title = t(n + ' 人观战', n + ' watching');
  }
  const now = performance.now();
  for (const seat of /** @type {const} */ (['south', 'north'])) {
    const ms = p.escape_ms ? p.escape_ms[seat] : null;
    store.escapeAt[seat] = typeof ms === 'number' ? now + Math.max(0, ms) : null;
  }
}

/**
 * @param {number} v
 * @param {State} d
 */
function onState(v, d) {
  if (!d || !d.game) return;
  const first = !store.haveState;
  const prevYou = store.S ? store.S.you : undefined;
  const wasOpen = !!store.S && store.S.game.status === 'open';
  const S = d;
  S.rematch = S.rematch || { south: false, north: false, next: null };
  S.view = S.view || null;
  if (S.view) {
    const w = S.view;
    w.board = w.board || {};
    w.legal = Array.isArray(w.legal) ? w.legal : [];
    w.repetition_warnings = Array.isArray(w.repetition_warnings) ? w.repetition_warnings : [];
    w.tallies = Array.isArray(w.tallies) ? w.tallies : [];
    w.timeouts = w.timeouts || { south: 0, north: 0 };
    w.draw_offers_left = w.draw_offers_left || { south: null, north: null };
  }
  S.deploy = S.view ? null : S.deploy || null;
  S.marks = S.marks && typeof S.marks === 'object' ? S.marks : {};
  // An older server sends `connected` only: the page shows who is there, without the countdown.
  if (!S.presence && S.connected) {
    const none = { on: null, count: 0, permanent: false };
    S.presence = { connected: S.connected, escape_ms: { south: null, north: null }, tuoguan: { south: none, north: none } };
  }
  const hadColours = !!(store.S && store.S.view && store.S.view.colours);
  store.S = S;
  store.version = typeof v === 'number' ? v : 0;
  store.haveState = true;
  store.awaiting = false;
  store.deployDeadline = S.deploy && typeof S.deploy.remaining_ms === 'number' ? performance.now() + S.deploy.remaining_ms : null;
  setClock(S.clock);
  setPresence(S.presence);
  // Someone took the other seat: whoever moves first, the creator is told.
  if (wasOpen && S.game.status === 'running' && amCreator()) announceJoin();
  const last = S.last || null;
  // A state without `last` (an older server) keeps the highlight this page already had.
  if (last || first) store.last = last ? lastOf(last) : null;
  if (first || prevYou !== S.you) store.lastFlips = {};
  if (last && last.kind === 'flip' && last.seat && last.at) store.lastFlips[last.seat] = { at: last.at, piece: last.piece, colour: last.colour };
  if (store.stepsBefore < 0 && S.view) store.stepsBefore = S.view.steps;
  hooks.state(first);
  // Colours decided while this page was away (a reconnect): still the moment to say so.
  if (!first && !hadColours && S.view && S.view.colours) hooks.colours();
  hooks.render();
}

/**
 * The squares to highlight for an event, and its whole route.
 * @param {GameEvent} d
 */
function lastOf(d) {
  if (d.kind === 'flip' && d.at) return { at: d.at, path: null };
  if (d.kind === 'move' && d.from && d.to) {
    return { from: d.from, to: d.to, path: Array.isArray(d.route) && d.route.length > 1 ? d.route : [d.from, d.to] };
  }
  return null;
}

/**
 * @param {GameEvent} d
 * @param {boolean} quick
 * @returns {number} how long the board needs to show it, in ms
 */
function onEvent(d, quick) {
  const S = store.S;
  const v = view();
  if (!S) return 0;
  const kind = d.kind;
  if (kind === 'rematch_offer' && d.seat) S.rematch[d.seat] = true;
  if (kind === 'rematch' && d.next) {
    S.rematch.next = d.next;
    hooks.event(d, quick);
    // It happened while this page was open: a player goes along to the new game.
    if (mySeat()) hooks.follow(d.next);
    hooks.render();
    return 0;
  }
  if (!v) {
    if (QUIET_KINDS.indexOf(kind) < 0) hooks.resync(true);
    return 0;
  }
  const step = STEP_KINDS.indexOf(kind) >= 0;
  if ((step && (kind === 'flip' || kind === 'move') && !d.board) || (!d.status && QUIET_KINDS.indexOf(kind) < 0 && !d.result)) {
    // This event does not say what changed on the board or in the counters: ask for the
    // whole state, keeping what the event did say for the highlight.
    const l = lastOf(d);
    if (l) store.last = l;
    hooks.resync(true);
    return 0;
  }
  if (d.board) {
    for (const sq of Object.keys(d.board)) {
      const cell = d.board[sq];
      if (cell) v.board[sq] = cell;
      else delete v.board[sq];
    }
  }
  if (Array.isArray(d.tallies)) v.tallies = d.tallies;
  const hadColours = !!v.colours;
  if (d.status) {
    const s = d.status;
    v.to_move = s.to_move;
    v.steps = s.steps;
    v.quiet_steps = s.quiet_steps;
    if (s.timeouts) v.timeouts = s.timeouts;
    if (s.draw_offers_left) v.draw_offers_left = s.draw_offers_left;
    v.open_offer = s.open_offer || null;
    if (s.colours !== undefined) v.colours = s.colours;
    if (S.game) S.game.steps = s.steps;
  }
  if (d.colours_assigned) v.colours = d.colours_assigned;
  if (d.offer_lapsed) v.open_offer = null;
  // Legal actions travel only on the latest event, to the seat to move: none otherwise.
  v.legal = Array.isArray(d.legal) ? d.legal : [];
  v.repetition_warnings = Array.isArray(d.repetition_warnings) ? d.repetition_warnings : [];
  if (d.clock !== undefined) setClock(d.clock);
  if (step) {
    store.selected = null;
    store.awaiting = false;
    const l = lastOf(d);
    if (l) store.last = l;
    if (kind === 'flip' && d.seat && d.at) store.lastFlips[d.seat] = { at: d.at, piece: d.piece, colour: d.colour };
  }
  const end = d.result || null;
  if (end) {
    S.result = end;
    v.outcome = { winner: end.winner, reason: end.reason };
    v.open_offer = null;
    const g = game();
    if (g) {
      g.status = 'finished';
      g.result = end.winner || 'draw';
      g.reason = end.reason;
      if (end.score) g.score = end.score;
      if (typeof end.base === 'number') g.base = end.base;
    }
    store.clock = null;
  }
  // Drawn first, then animated: the board shows the new position once, with the moved
  // piece hidden at its destination until its slide arrives.
  hooks.render();
  const ms = hooks.event(d, quick);
  if (!hadColours && v.colours) hooks.colours();
  return ms;
}

/** @type {Record<string, (msg: any) => void>} */
export const HANDLERS = {
  // States and events are shown in order, each after the one before it has been seen
  // (pacing.js); the version checks run when each is shown.
  state: function (msg) {
    show(msg, function (m) {
      onState(m.v, m.d);
      return 0;
    }, true);
  },
  event: function (msg) {
    show(msg, function (m, quick) {
      if (!store.haveState || typeof m.v !== 'number') return 0;
      if (m.v <= store.version) return 0; // already applied
      if (m.v !== store.version + 1) {
        hooks.resync(false); // a gap: catch up with ?v=
        return 0;
      }
      store.version = m.v;
      return onEvent(m.d || { kind: '' }, quick);
    }, false);
  },
  deploy: function (msg) {
    // Unversioned: the deployment as this socket may see it.
    const S = store.S;
    if (!S || S.view || !msg.d || typeof msg.d !== 'object') return;
    S.deploy = Object.assign({}, S.deploy || {}, msg.d);
    const dep = S.deploy;
    if (dep && typeof dep.remaining_ms === 'number') store.deployDeadline = performance.now() + dep.remaining_ms;
    hooks.render();
  },
  marks: function (msg) {
    const S = store.S;
    if (!S || !msg.d || typeof msg.d !== 'object') return;
    S.marks = Object.assign({}, msg.d);
    hooks.render();
  },
  presence: function (msg) {
    if (!msg.d) return;
    setPresence(msg.d);
    hooks.render();
  },
  phrase: function (msg) {
    if (msg.d && msg.d.seat && msg.d.id) hooks.phrase(msg.d);
  },
  error: function (msg) {
    hooks.error(msg.d || { code: 'error', message: '' }, msg.a);
  },
};

/** @param {any} msg */
export function handle(msg) {
  const h = HANDLERS[msg.t];
  if (h) h(msg);
}
