// @ts-check
// The replay of a finished game, computed by the server (GET /api/games/{id}/replay):
// the page applies each step's `board` to the one before (drawing, not rules) and shows
// the step's counters, tallies and words. The one thing checked here is the deal itself:
// SHA-256 of the revealed deal (or both standard layouts) against the commitment the
// server published at the start, from the record — a trust feature that must not depend
// on the server's word.
import { api } from '../api.js';
import { byId, copyText, el, toast } from '../dom.js';
import { t } from '../i18n.js';
import { describe, outcomeText } from './log.js';
import { layoutPieces, limits, playerName, status, store } from './state.js';

/** @typedef {import('../messages.js').Replay} Replay */
/** @typedef {import('../messages.js').GameEvent} GameEvent */
/** @typedef {import('../messages.js').Cell} Cell */
/** @typedef {import('../messages.js').View} View */

const els = {
  box: byId('replay'),
  first: /** @type {HTMLButtonElement} */ (byId('replay-first')),
  prev: /** @type {HTMLButtonElement} */ (byId('replay-prev')),
  next: /** @type {HTMLButtonElement} */ (byId('replay-next')),
  last: /** @type {HTMLButtonElement} */ (byId('replay-last')),
  step: byId('replay-step'),
  now: byId('replay-now'),
  moves: byId('replay-moves'),
  share: /** @type {HTMLAnchorElement} */ (byId('replay-share')),
  copy: byId('replay-copy'),
  commitment: byId('replay-commitment'),
  verified: byId('deal-verified'),
  unverified: byId('deal-unverified'),
  verifiedText: byId('deal-verified-text'),
  unverifiedText: byId('deal-unverified-text'),
  hint: byId('replay-hint'),
  reviewOpen: /** @type {HTMLButtonElement} */ (byId('review-open')),
  lang: document.getElementById('lang-switch'),
};

/** The review (review.js), once its button was first pressed. @type {typeof import('./review.js')|null} */
let review = null;

const STEP_KINDS = ['flip', 'move', 'timeout', 'pass'];

const R = {
  loading: false,
  tries: 0,
  /** @type {Replay|null} */
  data: null,
  /** Views after each step; [0] the start. @type {View[]} */
  views: [],
  /** The event of each step; [0] null. @type {Array<GameEvent|null>} */
  events: [null],
  /** Other events (draw offers, resignation), after the step they followed. @type {{after: number, d: GameEvent}[]} */
  notes: [],
  step: 0,
  active: false,
  /** @type {any} */
  record: null,
  /** null (not run), 'ok', 'mismatch', 'unavailable' @type {string|null} */
  check: null,
};

let rerender = function () {};

export function replaying() {
  return R.active;
}

/** The review's best action to draw on the board now, if any. */
export function replayBest() {
  return R.active && review ? review.bestOnBoard() : null;
}

/** The replay's current event, for the board's highlight. */
export function replayEvent() {
  return R.active ? R.events[R.step] : null;
}

/** @param {number} n */
function clamp(n) {
  const last = R.views.length - 1;
  if (typeof n !== 'number' || Number.isNaN(n)) return 0;
  return Math.max(0, Math.min(last, Math.floor(n)));
}

function stepFromHash() {
  const m = /(?:^#|&)step=(\d+)/.exec(window.location.hash || '');
  return m ? parseInt(m[1], 10) : null;
}

/**
 * Builds every step's view by applying the server's deltas in order.
 * @param {Replay} data
 */
function build(data) {
  /** @type {View} */
  let cur = {
    variant: data.variant,
    viewer: 'spectator',
    outcome: null,
    steps_before_resign_or_draw: 0,
    board: Object.assign({}, data.start.board),
    tallies: data.start.tallies || [],
    legal: [],
    repetition_warnings: [],
    to_move: data.start.status.to_move,
    steps: data.start.status.steps || 0,
    quiet_steps: data.start.status.quiet_steps || 0,
    timeouts: data.start.status.timeouts || { south: 0, north: 0 },
    draw_offers_left: data.start.status.draw_offers_left || { south: null, north: null },
    open_offer: null,
    colours: data.start.status.colours || null,
    steps_to_draw: data.start.limits.steps_to_draw,
    quiet_steps_to_draw: data.start.limits.quiet_steps_to_draw,
    timeouts_to_lose: data.start.limits.timeouts_to_lose,
  };
  R.views = [cur];
  R.events = [null];
  R.notes = [];
  for (const d of data.steps || []) {
    const next = Object.assign({}, cur, { board: Object.assign({}, cur.board) });
    if (d.board) {
      for (const sq of Object.keys(d.board)) {
        const c = d.board[sq];
        if (c) next.board[sq] = c;
        else delete next.board[sq];
      }
    }
    if (Array.isArray(d.tallies)) next.tallies = d.tallies;
    if (d.status) {
      next.to_move = d.status.to_move;
      next.steps = d.status.steps;
      next.quiet_steps = d.status.quiet_steps;
      next.timeouts = d.status.timeouts || next.timeouts;
      next.colours = d.status.colours !== undefined ? d.status.colours : next.colours;
    }
    if (d.colours_assigned) next.colours = d.colours_assigned;
    if (STEP_KINDS.indexOf(d.kind) >= 0) {
      R.views.push(next);
      R.events.push(d);
    } else {
      // Not a step: a line in the list; whatever it changed shows from the next step on.
      R.notes.push({ after: R.views.length - 1, d: d });
    }
    cur = next;
  }
}

export function maybeLoadReplay() {
  if (status() !== 'finished' || R.data || R.loading) return;
  R.loading = true;
  api('GET', '/api/games/' + encodeURIComponent(store.gameId) + '/replay').then(function (data) {
    R.loading = false;
    if (!data || !data.start || !Array.isArray(data.steps)) throw new Error('no replay');
    R.data = data;
    build(data);
    R.active = true;
    if (data.variant === 'standard') {
      els.hint.textContent = t('用 ← / → 键逐步查看，点击着法可跳到该步。复盘显示双方全部棋子。',
        'Use ← and → to step; click a move to jump to it. The replay shows every piece of both sides.');
    }
    buildList();
    const h = stepFromHash();
    R.step = h !== null ? clamp(h) : R.views.length - 1;
    store.replayView = R.views[R.step];
    checkCommitment();
    rerender();
    scrollCurrent();
  }).catch(function (e) {
    R.loading = false;
    // The end may still be on its way to the database (409 while it is written): again shortly.
    if (R.tries++ < 10) setTimeout(maybeLoadReplay, e && e.status === 404 ? 3000 : 500);
  });
}

/** @param {number} n @param {boolean} [fromHash] */
function goTo(n, fromHash) {
  if (!R.active) return;
  R.step = clamp(n);
  store.replayView = R.views[R.step];
  if (!fromHash) {
    try {
      window.history.replaceState(null, '', window.location.pathname + window.location.search + '#step=' + R.step);
    } catch (e) {
      window.location.hash = 'step=' + R.step;
    }
  }
  rerender();
  scrollCurrent();
}

/** @param {number} ms */
function formatMs(ms) {
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  /** @param {number} x */
  const pad = function (x) { return String(x).padStart(2, '0'); };
  return (h ? h + ':' + pad(m % 60) : String(m)) + ':' + pad(s % 60);
}

function buildList() {
  const items = [];
  /** @param {number} n */
  const notesAfter = function (n) {
    return R.notes.filter(function (x) { return x.after === n; }).map(function (x) {
      return el('li', { class: 'replay-note', dataset: { after: n } }, [el('span', { class: 'rm-text' }, describe(x.d, playerName) || [])]);
    });
  };
  const standard = R.data && R.data.variant === 'standard';
  items.push(el('li', { class: 'rm-start', dataset: { step: 0 }, tabindex: -1 }, [
    el('span', { class: 'rm-no', text: '0' }),
    el('span', { class: 'rm-text', text: standard ? t('开局：双方布阵', 'The start: both layouts') : t('开局：50 枚棋子背面朝上', 'The deal: 50 pieces face down') }),
  ]));
  items.push.apply(items, notesAfter(0));
  for (let n = 1; n < R.views.length; n++) {
    const d = /** @type {GameEvent} */ (R.events[n]);
    items.push(el('li', { class: 'rm-' + d.kind + ' rm-' + (d.seat || ''), dataset: { step: n }, tabindex: -1, title: typeof d.at_ms === 'number' ? formatMs(d.at_ms) : null }, [
      el('span', { class: 'rm-no', text: String(n) }),
      el('span', { class: 'rm-text' }, describe(d, playerName) || []),
    ]));
    items.push.apply(items, notesAfter(n));
  }
  const res = R.data && R.data.result;
  if (res) items.push(el('li', { class: 'replay-note rm-end' }, [el('span', { class: 'rm-text', text: outcomeText(res, playerName, limits()) })]));
  els.moves.replaceChildren.apply(els.moves, items);
}

function scrollCurrent() {
  const li = /** @type {HTMLElement|null} */ (els.moves.querySelector('li.current'));
  if (!li) return;
  const box = els.moves;
  if (li.offsetTop < box.scrollTop || li.offsetTop + li.offsetHeight > box.scrollTop + box.clientHeight) {
    box.scrollTop = Math.max(0, li.offsetTop - box.clientHeight / 2);
  }
}

/** @param {string} sq */
function squareKey(sq) {
  return parseInt(sq.slice(1), 10) * 8 + 'abcde'.indexOf(sq.charAt(0));
}

/**
 * The pieces the commitment covers: the flip deal, or both standard layouts coloured as
 * the replay says each seat played.
 * @param {any} rec
 * @returns {Record<string, {piece: string, colour: string}>|null}
 */
function dealOf(rec) {
  if (rec.deal) return rec.deal;
  const colours = R.data && R.data.colours;
  if (!rec.layouts || !colours) return null;
  /** @type {Record<string, {piece: string, colour: string}>} */
  const deal = {};
  for (const seat of /** @type {const} */ (['south', 'north'])) {
    const pieces = layoutPieces(rec.layouts[seat]);
    for (const sq of Object.keys(pieces)) deal[sq] = { piece: pieces[sq], colour: colours[seat] };
  }
  return deal;
}

/**
 * The commitment string the server hashed (README, record format).
 * @param {Record<string, {piece: string, colour: string}>} deal
 * @param {string} salt
 */
function commitmentInput(deal, salt) {
  return Object.keys(deal).sort(function (a, b) { return squareKey(a) - squareKey(b); }).map(function (sq) {
    return sq + ':' + deal[sq].piece + ':' + deal[sq].colour;
  }).join(';') + '|' + salt;
}

/** @param {string} text */
async function sha256Hex(text) {
  const digest = await window.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest)).map(function (b) { return b.toString(16).padStart(2, '0'); }).join('');
}

async function checkCommitment() {
  let rec;
  try {
    rec = await api('GET', '/api/games/' + encodeURIComponent(store.gameId) + '/record');
  } catch (e) {
    return;
  }
  R.record = rec;
  const deal = rec ? dealOf(rec) : null;
  if (!deal || !rec.salt || !rec.commitment || !window.crypto || !window.crypto.subtle) {
    R.check = 'unavailable';
  } else {
    try {
      R.check = (await sha256Hex(commitmentInput(deal, rec.salt))) === String(rec.commitment).toLowerCase() ? 'ok' : 'mismatch';
    } catch (e) {
      R.check = 'unavailable';
    }
  }
  renderVerified();
}

function renderVerified() {
  const rec = R.record;
  if (!rec) return;
  const good = rec.verified === true && R.check !== 'mismatch';
  const standard = !rec.deal && !!rec.layouts;
  els.verified.hidden = !good;
  els.unverified.hidden = good;
  els.verified.dataset.browser = R.check || 'pending';
  const what = standard ? t('布阵', 'Layouts') : t('发牌', 'Deal');
  els.verifiedText.textContent = what + t('已验证', ' verified');
  els.unverifiedText.textContent = what + t('未通过验证', ' not verified');
  els.verified.title = R.check === 'ok'
    ? t('服务器已重放本局，浏览器也核对了 SHA-256 承诺', 'The server replayed the game, and this browser checked the SHA-256 commitment')
    : t('服务器已重放本局并核对承诺', 'The server replayed the game and checked the commitment');
  els.unverified.title = R.check === 'mismatch' ? t('与开局时公布的承诺不符', 'It does not match the commitment published at the start') : '';
  if (rec.commitment) {
    els.commitment.hidden = false;
    els.commitment.replaceChildren(t('开局承诺 SHA-256：', 'Commitment (SHA-256): '), el('code', { text: rec.commitment }),
      R.check === 'ok' ? t('（浏览器已核对）', ' (checked in this browser)') : '');
  }
}

export function renderReplay() {
  els.box.hidden = !R.active;
  if (!R.active) return;
  const total = R.views.length - 1;
  els.step.textContent = R.step + ' / ' + total;
  els.step.dataset.step = String(R.step);
  els.step.dataset.total = String(total);
  els.first.disabled = R.step === 0;
  els.prev.disabled = R.step === 0;
  els.next.disabled = R.step === total;
  els.last.disabled = R.step === total;
  const d = R.events[R.step];
  if (d) {
    els.now.replaceChildren(el('strong', { text: t('第 ' + R.step + ' 步：', 'Step ' + R.step + ': ') }), ...(describe(d, playerName) || []));
  } else {
    els.now.textContent = R.data && R.data.variant === 'standard' ? t('开局：双方布阵，全部棋子明示', 'The start: both layouts, every piece shown')
      : t('开局：发牌已揭晓，所有棋子都显示了名称', 'The deal, revealed: every piece is named');
  }
  const cur = els.moves.querySelector('li.current');
  if (cur) {
    cur.classList.remove('current');
    cur.removeAttribute('aria-current');
  }
  const li = els.moves.querySelector('li[data-step="' + R.step + '"]');
  if (li) {
    li.classList.add('current');
    li.setAttribute('aria-current', 'step');
  }
  const hash = '#step=' + R.step;
  els.share.href = hash;
  if (els.lang) {
    const base = (els.lang.getAttribute('href') || '').split('#')[0];
    els.lang.setAttribute('href', base + (stepFromHash() !== null ? hash : ''));
  }
  renderVerified();
  els.reviewOpen.hidden = false;
  if (review) review.renderReview();
}

function openReview() {
  if (review) {
    review.showReview();
    return;
  }
  els.reviewOpen.disabled = true;
  import('./review.js').then(function (m) {
    review = m;
    els.reviewOpen.disabled = false;
    m.openReview({ goTo: goTo, step: function () { return R.step; }, render: rerender });
  }, function () {
    els.reviewOpen.disabled = false;
    toast(t('无法加载复盘分析，请稍后再试', 'The review could not be loaded; please try again'), 'error');
  });
}

/** @param {() => void} renderFn */
export function wireReplay(renderFn) {
  rerender = renderFn;
  els.first.addEventListener('click', function () { goTo(0); });
  els.prev.addEventListener('click', function () { goTo(R.step - 1); });
  els.next.addEventListener('click', function () { goTo(R.step + 1); });
  els.last.addEventListener('click', function () { goTo(Infinity); });
  els.moves.addEventListener('click', function (ev) {
    const li = /** @type {HTMLElement|null} */ (/** @type {HTMLElement} */ (ev.target).closest('li[data-step]'));
    if (li && els.moves.contains(li)) goTo(parseInt(li.dataset.step || '0', 10));
  });
  els.reviewOpen.addEventListener('click', openReview);
  els.share.addEventListener('click', function (ev) {
    ev.preventDefault();
    goTo(R.step);
  });
  els.copy.addEventListener('click', async function () {
    const url = window.location.origin + window.location.pathname + '#step=' + R.step;
    toast((await copyText(url)) ? t('已复制本步链接', 'Link to this step copied') : url);
  });
  window.addEventListener('hashchange', function () {
    const n = stepFromHash();
    if (n !== null && R.active && n !== R.step) goTo(n, true);
  });
  // On a phone there are no arrow keys: a tap on the board's left half steps back, on
  // its right half forward (the board takes no moves during a replay).
  const board = document.getElementById('board');
  if (board) {
    board.addEventListener('click', function (ev) {
      if (!R.active) return;
      const r = board.getBoundingClientRect();
      goTo(ev.clientX < r.left + r.width / 2 ? R.step - 1 : R.step + 1);
    });
  }
  document.addEventListener('keydown', function (ev) {
    if (!R.active || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const target = /** @type {HTMLElement|null} */ (ev.target);
    const tag = target && target.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || (target && target.isContentEditable)) return;
    let n = null;
    if (ev.key === 'ArrowLeft') n = R.step - 1;
    else if (ev.key === 'ArrowRight') n = R.step + 1;
    else if (ev.key === 'Home') n = 0;
    else if (ev.key === 'End') n = Infinity;
    if (n === null) return;
    ev.preventDefault();
    goTo(n);
  });
}

