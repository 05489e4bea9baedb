// @ts-check
// The game page (/game/{id}): wires the socket, the one game state, the handlers and the
// views together, and turns clicks into commands. Flip chess and standard 军棋 alike:
// what is legal, what changed and how the game ended all come from the server.
import { api } from '../api.js';
import { BoardView } from '../board.js';
import { byId, copyText, toast } from '../dom.js';
import { colourName, errorText, t } from '../i18n.js';
import { CommandError, Socket } from '../socket.js';
import { bubble, renderCards, renderClocks } from './cards.js';
import { ask, withdraw } from './confirm.js';
import { wireMenus } from './menus.js';
import { SLIDE_MARGIN_MS, answerToast, showCaption } from './notices.js';
import { HANDLERS, handle, hooks } from './handlers.js';
import { caption, logLine, logNote, describe } from './log.js';
import { renderBanner, renderPanels } from './panels.js';
import { loadBoard, loadPlayers, refreshSummary } from './fetches.js';
import {
  closeMarkMenu, endedNow, loadParts, loadPhrases, maybeLoadReplay, parts, replayBest, replayEvent, replaying, wireParts,
} from './parts.js';
import { isMuted, play, setMuted } from './sound.js';
import {
  SEATS, colourOf, deploying, isRunning, isStandard, mySeat, playerName, shown, status, store, view,
} from './state.js';
import { renderTallies } from './tallies.js';
import { handedOver } from './tuoguan.js';

/** @typedef {import('../messages.js').GameEvent} GameEvent */
/** @typedef {import('../messages.js').Seat} Seat */

const els = {
  svg: /** @type {SVGSVGElement} */ (/** @type {unknown} */ (byId('board'))),
  log: byId('log'),
  logPanel: byId('log-panel'),
  join: /** @type {HTMLButtonElement} */ (byId('join')),
  copyInvite: byId('copy-invite'),
  inviteLink: /** @type {HTMLInputElement} */ (byId('invite-link')),
  cancelGame: /** @type {HTMLButtonElement} */ (byId('cancel-game')),
  resign: byId('resign'),
  pass: byId('pass'),
  offerDraw: /** @type {HTMLButtonElement} */ (byId('offer-draw')),
  acceptDraw: byId('accept-draw'),
  declineDraw: byId('decline-draw'),
  drawDialog: byId('draw-dialog'),
  rematch: byId('rematch'),
  mute: /** @type {HTMLButtonElement} */ (byId('mute')),
  phraseButton: byId('phrase-button'),
  moment: byId('colour-moment'),
  status: byId('status'),
};

/** @type {BoardView|null} */
let board = null;

let wantFresh = false;

const socket = new Socket({
  path: function () {
    const fresh = wantFresh || !store.haveState;
    wantFresh = false;
    return '/ws/game/' + encodeURIComponent(store.gameId) + (fresh ? '' : '?v=' + store.version);
  },
  onMessage: handle,
  onStatus: function (open) {
    store.socketOpen = open;
    if (!open) store.awaiting = false;
    render();
  },
});

/**
 * Sends a command; refusals are shown in the page language.
 * @param {string} type
 * @param {unknown} [data]
 */
function command(type, data) {
  return socket.send(type, data).catch(function (e) {
    showRefusal(e);
    throw e;
  });
}

/** @param {unknown} e */
function showRefusal(e) {
  if (!(e instanceof CommandError)) return;
  if (e.code === 'disconnected') toast(t('连接已断开，正在重连…', 'Disconnected, reconnecting…'), 'error');
  else if (e.code === 'timeout') toast(t('服务器没有回应', 'No answer from the server'), 'error');
  else if (e.code === 'illegal' && e.data.reason && parts.deploy) toast(parts.deploy.refusalText(Object.assign({ code: e.code }, e.data)), 'error');
  else if (e.code !== 'rate_limited') toast(errorText(e.code, e.message), 'error');
}

/**
 * A step (flip, move, pass): the board waits for the server's event.
 * @param {string} type
 * @param {unknown} [data]
 */
function step(type, data) {
  store.awaiting = true;
  store.selected = null;
  render();
  socket.send(type, data).then(function (ack) {
    if (typeof ack.v === 'number' && ack.v <= store.version) store.awaiting = false;
    render();
  }, function (e) {
    store.awaiting = false;
    showRefusal(e);
    render();
  });
}

/** @param {boolean} fresh */
function resync(fresh) {
  if (fresh) wantFresh = true;
  socket.reconnect();
}

// ---- drawing ----------------------------------------------------------------------

function legalIndex() {
  const v = view();
  /** @type {Set<string>} */
  const flips = new Set();
  /** @type {Record<string, string[]>} */
  const moves = {};
  const seat = mySeat();
  if (!v || !isRunning() || !seat || v.to_move !== seat || handedOver()) return { flips: flips, moves: moves };
  for (const a of v.legal) {
    if ('flip' in a) flips.add(a.flip);
    else if ('move' in a) (moves[a.move.from] = moves[a.move.from] || []).push(a.move.to);
  }
  return { flips: flips, moves: moves };
}

/** @param {string} from */
function warnedDests(from) {
  const v = view();
  if (!v) return [];
  /** @type {string[]} */
  const out = [];
  for (const a of v.repetition_warnings) if ('move' in a && a.move.from === from) out.push(a.move.to);
  return out;
}

function renderBoard() {
  if (!board) return;
  const marks = parts.marks;
  const at = marks && marks.menuOpenAt();
  if (at && marks && !marks.markable(at)) closeMarkMenu();
  board.setOwnColour(mySeat() ? colourOf(/** @type {Seat} */ (mySeat())) : null);
  if (replaying() && store.replayView) {
    const d = replayEvent();
    const last = d ? (d.kind === 'flip' ? { at: d.at } : d.kind === 'move' ? { from: d.from, to: d.to } : null) : null;
    const path = d && d.kind === 'move' ? (Array.isArray(d.route) && d.route.length > 1 ? d.route : [d.from || '', d.to || '']) : null;
    board.render(store.replayView.board, { last: last, path: path, best: replayBest() });
    return;
  }
  if (deploying()) {
    if (parts.deploy) parts.deploy.renderDeployBoard(board);
    else board.render({}, {});
    return;
  }
  const v = view();
  if (!v) {
    board.render({}, {});
    return;
  }
  const idx = legalIndex();
  if (store.selected && !idx.moves[store.selected]) store.selected = null;
  const sel = store.awaiting ? null : store.selected;
  board.render(v.board, {
    selected: sel,
    dests: sel ? idx.moves[sel] : [],
    warn: sel ? warnedDests(sel) : [],
    last: store.last,
    path: store.last ? store.last.path : null,
    actionable: store.awaiting ? [] : Array.from(idx.flips).concat(Object.keys(idx.moves)),
    named: isStandard(),
    marks: isStandard() && mySeat() && store.S ? store.S.marks || null : null,
  });
}

function render() {
  loadParts();
  renderCards();
  renderPanels();
  if (parts.deploy) parts.deploy.renderDeploy();
  renderBoard();
  const v = shown();
  renderTallies(v ? v.tallies : null, function (colour) {
    const seat = SEATS.find(function (s) { return colourOf(s) === colour; });
    return seat ? playerName(seat) : null;
  });
  renderClocks();
  if (parts.ending) parts.ending.renderResult();
  if (parts.replay) parts.replay.renderReplay();
  els.logPanel.hidden = !view() || (replaying() && !els.log.firstChild);
  const seat = mySeat();
  els.phraseButton.hidden = !(seat && (status() === 'running' || status() === 'finished'));
  // A question about a game that is over, or a turn that has passed, no longer applies.
  if (!isRunning()) withdraw();
}

// ---- what happened ----------------------------------------------------------------

/** @param {GameEvent} d */
function stepNumber(d) {
  const v = view();
  return v && ['flip', 'move', 'timeout', 'pass'].indexOf(d.kind) >= 0 ? v.steps : null;
}

let wasMyTurn = false;

hooks.render = render;
hooks.resync = resync;
hooks.state = function (first) {
  if (board) board.setFlipped(mySeat() === 'north');
  loadPlayers(false, render);
  maybeLoadReplay();
  if (first && store.stepsBefore > 0 && status() === 'running') {
    logNote(els.log, 'log-earlier muted', [t('本页打开前已走 ' + store.stepsBefore + ' 步', store.stepsBefore + ' steps were played before this page opened')]);
    const last = store.S && store.S.last;
    if (last && describe(last, playerName)) logLine(els.log, last, store.stepsBefore, playerName, 'log-seeded');
  }
  wasMyTurn = !!(view() && mySeat() && view()?.to_move === mySeat() && isRunning());
};
hooks.event = function (d, quick) {
  logLine(els.log, d, stepNumber(d), playerName);
  const res = store.S && store.S.result;
  if (d.result || d.outcome) {
    endedNow();
    if (res) logNote(els.log, 'log-end', [t('对局结束', 'Game over')]);
    loadPlayers(true, render);
    maybeLoadReplay();
  }
  let hold = 0;
  if (board && !replaying()) {
    const slide = board.animate({ route: d.kind === 'move' ? (d.route || (d.from && d.to ? [d.from, d.to] : null)) : null, mover: d.mover || null, combat: d.combat || null, at: d.kind === 'flip' ? d.at : null }, { quick: quick });
    // A little past the slide's end, so that it has arrived (and the piece it hid is
    // shown) before the next event is drawn.
    if (slide > 0) hold = slide + SLIDE_MARGIN_MS;
  }
  const cap = caption(d);
  if (cap) hold = Math.max(hold, showCaption(cap, quick));
  if (d.kind === 'flip') play('flip');
  else if (d.kind === 'move') play(d.combat ? 'capture' : 'move');
  answerToast(d);
  const mine = !!(view() && mySeat() && view()?.to_move === mySeat() && isRunning());
  if (mine && !wasMyTurn) play('turn');
  wasMyTurn = mine;
  return hold;
};
hooks.colours = function () {
  const seat = mySeat();
  if (!seat) return;
  const colour = colourOf(seat);
  if (!colour) return;
  // The moment colours are decided: say it large, then tint your half of the board.
  els.moment.textContent = t('你执' + colourName(colour), 'You play ' + colourName(colour));
  els.moment.dataset.colour = colour;
  els.moment.hidden = false;
  els.moment.classList.remove('show');
  void els.moment.offsetWidth;
  els.moment.classList.add('show');
  setTimeout(function () { els.moment.hidden = true; }, 2600);
};
hooks.follow = function (id) {
  if (store.leaving) return;
  store.leaving = true;
  window.location.assign('/game/' + encodeURIComponent(id));
};
hooks.phrase = function (d) {
  if (!parts.phrases) {
    loadPhrases().then(function () { if (parts.phrases) hooks.phrase(d); });
    return;
  }
  if (parts.phrases.phrasesHidden()) return;
  const text = parts.phrases.phraseText(d.id);
  if (!text) return;
  bubble(d.seat, text);
  logNote(els.log, 'log-phrase log-' + d.seat, [playerName(d.seat) + t('：', ': ') + text]);
};
hooks.error = function (d, a) {
  if (a === undefined) toast(errorText(d.code, d.message), 'error');
};
// An ack may close a step that waits: the event came first.
HANDLERS.ack = function (msg) {
  if (store.awaiting && typeof msg.v === 'number' && msg.v <= store.version) {
    store.awaiting = false;
    render();
  }
};

// ---- clicks -------------------------------------------------------------------------

/** @param {string} sq */
function onSquare(sq) {
  const marks = parts.marks;
  const open = marks && marks.menuOpenAt();
  if (open) {
    closeMarkMenu();
    if (open === sq) return; // a second tap on the same piece just closes the menu
  }
  if (replaying()) return;
  if (deploying()) {
    if (parts.deploy) parts.deploy.onDeploySquare(sq);
    return;
  }
  const v = view();
  const seat = mySeat();
  if (!v || !seat || !isRunning()) return;
  const canMark = !!marks && marks.markable(sq);
  if (v.to_move !== seat) {
    if (canMark && marks) marks.openMarkMenu(sq);
    else if (v.board[sq]) toast(t('还没轮到你', 'It is not your turn yet'));
    return;
  }
  if (store.awaiting) return;
  const idx = legalIndex();
  const sel = store.selected;
  if (sel && idx.moves[sel] && idx.moves[sel].indexOf(sq) >= 0) {
    playMove(sel, sq);
    return;
  }
  if (idx.flips.has(sq)) {
    step('flip', { at: sq });
    return;
  }
  if (idx.moves[sq]) {
    store.selected = sel === sq ? null : sq;
    renderBoard();
    return;
  }
  if (canMark && marks) {
    store.selected = null;
    renderBoard();
    marks.openMarkMenu(sq);
    return;
  }
  const cell = v.board[sq];
  if (cell && cell.piece && cell.colour && cell.colour === colourOf(seat)) {
    toast(t('这枚棋子现在不能走', 'This piece cannot move now'));
  }
  store.selected = null;
  renderBoard();
}

/**
 * @param {string} from
 * @param {string} to
 */
function playMove(from, to) {
  if (warnedDests(from).indexOf(to) < 0) {
    step('move', { from: from, to: to });
    return;
  }
  const version = store.version;
  ask(t('服务器提示：走 ' + from + '→' + to + ' 会因重复走棋判负。确定要走吗？',
    'The server warns that ' + from + '→' + to + ' would lose by repetition. Play it anyway?'),
  t('仍然走', 'Play it')).then(function (yes) {
    // Asked about this position only: a move since (a timeout) makes the answer moot.
    if (yes && store.version === version) step('move', { from: from, to: to });
  });
}

function wireButtons() {
  els.resign.addEventListener('click', function () {
    ask(t('确定认输吗？', 'Resign this game?'), t('认输', 'Resign')).then(function (yes) {
      if (yes && isRunning()) command('resign').catch(function () {});
    });
  });
  els.pass.addEventListener('click', function () {
    const v = view();
    const seat = mySeat();
    if (!v || !seat || v.to_move !== seat || store.awaiting) return;
    const used = (v.timeouts && v.timeouts[seat]) || 0;
    closeMarkMenu();
    if (!(v.timeouts_to_lose && used + 1 >= v.timeouts_to_lose)) {
      step('pass');
      return;
    }
    const version = store.version;
    ask(t('这是你第 ' + v.timeouts_to_lose + ' 次超时或不行动，会判负。确定不行动吗？',
      'This would be your ' + v.timeouts_to_lose + 'th timeout or pass: you would lose. Pass anyway?'),
    t('不行动', 'Pass')).then(function (yes) {
      if (yes && store.version === version) step('pass');
    });
  });
  els.offerDraw.addEventListener('click', function () {
    els.offerDraw.disabled = true;
    command('offer_draw').catch(function () { render(); });
  });
  els.acceptDraw.addEventListener('click', function () {
    els.drawDialog.hidden = true;
    command('accept_draw').catch(function () { render(); });
  });
  els.declineDraw.addEventListener('click', function () {
    els.drawDialog.hidden = true;
    command('decline_draw').catch(function () { render(); });
  });
  els.rematch.addEventListener('click', function () {
    store.rematchAsked = true;
    render();
    command('rematch').catch(function () {
      store.rematchAsked = false;
      render();
    });
  });
  els.join.addEventListener('click', async function () {
    els.join.disabled = true;
    try {
      await api('POST', '/api/games/' + encodeURIComponent(store.gameId) + '/join');
      await refreshSummary(page);
      resync(true); // this socket was a spectator's; a new one gets the seat's view
    } catch (e) {
      toast(/** @type {Error} */ (e).message, 'error');
      await refreshSummary(page);
    } finally {
      els.join.disabled = false;
    }
  });
  els.copyInvite.addEventListener('click', async function () {
    if (await copyText(els.inviteLink.value)) toast(t('邀请链接已复制', 'Invitation link copied'));
    else {
      els.inviteLink.select();
      toast(t('请手动复制链接', 'Please copy the link by hand'));
    }
  });
  els.inviteLink.addEventListener('focus', function () { els.inviteLink.select(); });
  els.cancelGame.addEventListener('click', async function () {
    els.cancelGame.disabled = true;
    try {
      await api('POST', '/api/games/' + encodeURIComponent(store.gameId) + '/cancel');
      window.location.assign('/');
    } catch (e) {
      toast(/** @type {Error} */ (e).message, 'error');
      els.cancelGame.disabled = false;
    }
  });
  const showMute = function () {
    els.mute.setAttribute('aria-pressed', isMuted() ? 'true' : 'false');
    els.mute.textContent = isMuted() ? '🔇' : '🔊';
    els.mute.title = isMuted() ? t('声音已关闭', 'Sound off') : t('声音已打开', 'Sound on');
  };
  els.mute.addEventListener('click', function () {
    setMuted(!isMuted());
    showMute();
  });
  showMute();
}

let lowSecond = -1;

/** Several times a second: clocks, countdowns and the low-clock tick. */
function tick() {
  renderClocks();
  if (parts.deploy) parts.deploy.renderDeployClock();
  renderBanner();
  const c = store.clock;
  if (c && c.to_move === mySeat() && isRunning()) {
    const left = Math.ceil((c.deadline - performance.now()) / 1000);
    if (left <= 5 && left > 0 && left !== lowSecond) {
      lowSecond = left;
      play('low');
    }
  }
}

/** What fetches.js may do to the page. */
const page = {
  render: render,
  resync: resync,
  maybeLoadReplay: maybeLoadReplay,
  stop: function () { socket.stop(); },
  status: els.status,
};

async function start() {
  wireButtons();
  wireMenus();
  wireParts({
    render: render,
    renderBoard: renderBoard,
    send: function (type, data) { return socket.send(type, data); },
    command: command,
  });
  refreshSummary(page);
  const json = await loadBoard(els.status);
  if (store.leaving) return;
  board = new BoardView(els.svg, json, { flipped: mySeat() === 'north' });
  board.onSquareClick(onSquare);
  render();
  socket.start();
  setInterval(function () {
    if (!store.leaving && !document.hidden && status() === 'open') refreshSummary(page);
  }, 3000);
  setInterval(tick, 200);
}

start();

