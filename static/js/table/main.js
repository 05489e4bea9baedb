// @ts-check
// The 四国 table page (/game/{id} of a siguo game): the board from /api/board, the
// game socket's table message (the whole table as this viewer may see it, after every
// change), and taps turned into commands. What is legal, whose turn it is and how the
// game ended all come from the server; the page draws the newest message.
import { byId, toast } from '../dom.js';
import { t } from '../i18n.js';
import { CommandError, Socket } from '../socket.js';
import { withdraw } from '../game/confirm.js';
import { renderActions, wireActions } from './actions.js';
import { TableBoard } from './board.js';
import { renderCards, renderClocks, wireCards } from './cards.js';
import { Geometry, squareOf } from './geometry.js';
import { renderOpen, wireOpen } from './open.js';
import { renderResult } from './result.js';
import { renderLayouts, wireLayouts } from './layouts.js';
import { renderRematch, wireRematch } from './rematch.js';
import { renderReplayBar, replayCaption, replayCells, replayRoute, replaying, wireReplay } from './replay.js';
import { verifyOnce } from './verify.js';
import { renderHand } from './hand.js';
import { soundFor, wireMute } from './sounds.js';
import { logChanges } from './log.js';
import {
  deployingNow, movesFrom, mySeat, readServerClock, seatCard, serverNow, store, team, viewerSeat,
} from './state.js';
import { allianceWord, refusalText, seatWord, stepCaption } from './words.js';
import { wireZoom } from './zoom.js';

/** @typedef {import('../table_messages.js').Seat4} Seat4 */
/** @typedef {import('../table_messages.js').TablePiece} TablePiece */

const els = {
  status: byId('status'),
  info: byId('table-info'),
  caption: byId('board-caption'),
  svg: /** @type {SVGSVGElement} */ (/** @type {unknown} */ (byId('board'))),
  viewChoice: byId('view-choice'),
  viewSeat: /** @type {HTMLSelectElement} */ (byId('view-seat')),
  outLeave: byId('out-leave'),
};

/** @type {Geometry|null} */
let geo = null;
/** @type {TableBoard|null} */
let board = null;

const socket = new Socket({
  // The newest table message is all a client needs: a fresh socket is sent it at once.
  path: function () { return '/ws/game/' + encodeURIComponent(store.gameId); },
  onMessage: onMessage,
  onStatus: function (open) {
    store.socketOpen = open;
    if (!open) store.awaiting = false;
    render();
  },
});

/** @param {unknown} e */
function showRefusal(e) {
  if (!(e instanceof CommandError)) return;
  if (e.code === 'disconnected') toast(t('连接已断开，正在重连…', 'Disconnected, reconnecting…'), 'error');
  else if (e.code === 'timeout') toast(t('服务器没有回应', 'No answer from the server'), 'error');
  else toast(refusalText(e.code, e.message), 'error');
}

/**
 * Sends a command; a refusal is shown as a toast.
 * @param {string} type
 * @param {unknown} [data]
 */
function command(type, data) {
  return socket.send(type, data).catch(function (e) {
    showRefusal(e);
    throw e;
  });
}

/**
 * A move or swap: further taps wait for the table message it brings (or its refusal).
 * @param {string} type
 * @param {unknown} data
 */
function step(type, data) {
  store.awaiting = true;
  store.selected = null;
  render();
  // The table message comes before the ack; an ack without one changed nothing.
  command(type, data).catch(function () {}).then(function () {
    store.awaiting = false;
    render();
  });
}

/** @param {any} msg */
function onMessage(msg) {
  if (msg.t === 'table') {
    const before = store.table;
    store.table = msg.d;
    store.version = msg.v;
    store.awaiting = false;
    if (before && before.phase !== msg.d.phase) withdraw();
    if (board && before) board.leave(leavingPieces(before, msg.d));
    soundFor(before, msg.d);
    logChanges(before, msg.d);
    if (store.selected && !stillChoosable(store.selected)) store.selected = null;
    const sit = renderOpen();
    if (sit) command('sit', { seat: sit }).catch(function () {});
    render();
  } else if (msg.t === 'error' && typeof msg.a !== 'number') {
    const d = msg.d || {};
    toast(refusalText(String(d.code || 'error'), String(d.message || '')), 'error');
  }
}

/**
 * The pieces of the seats this message newly shows defeated (by a step, a resignation,
 * a timeout or leaving) that are gone from the board, as the viewer saw them before.
 * @param {import('../table_messages.js').Table} before
 * @param {import('../table_messages.js').Table} now
 */
function leavingPieces(before, now) {
  /** @type {Set<string>} */
  const fallen = new Set();
  for (const c of now.seats) {
    const was = before.seats.find(function (b) { return b.seat === c.seat; });
    if (c.state === 'defeated' && was && was.state !== 'defeated') fallen.add(c.seat);
  }
  if (!fallen.size) return [];
  const stays = new Set(now.board.filter(function (c) { return fallen.has(c.seat); }).map(function (c) { return c.at; }));
  return before.board.filter(function (c) { return fallen.has(c.seat) && !stays.has(c.at); }).map(function (c) {
    return { at: c.at, cell: c.piece ? { seat: c.seat, face: c.face, piece: c.piece } : { seat: c.seat, face: c.face } };
  });
}

/** @param {string} station */
function stillChoosable(station) {
  const tb = store.table;
  if (deployingNow() && tb && tb.deploy) return station in tb.deploy.pieces;
  return station in movesFrom();
}

/** @param {string} station */
function onTap(station) {
  const tb = store.table;
  if (!tb || store.awaiting) return;
  if (deployingNow() && tb.deploy) {
    if (!(station in tb.deploy.pieces)) store.selected = null;
    else if (!store.selected || store.selected === station) store.selected = store.selected ? null : station;
    else return step('swap', { a: squareOf(store.selected), b: squareOf(station) });
    return render();
  }
  const moves = movesFrom();
  const sel = store.selected;
  if (sel && moves[sel] && moves[sel].indexOf(station) >= 0) return step('move', { from: sel, to: station });
  store.selected = moves[station] && sel !== station ? station : null;
  render();
}

/** Every piece to draw: the viewer's own area while deploying, else the board. */
function cells() {
  const tb = store.table;
  if (replaying()) return replayCells();
  /** @type {Record<string, TablePiece>} */
  const out = {};
  if (!tb) return out;
  if (tb.phase === 'deploying' && tb.deploy) {
    const seat = tb.deploy.seat;
    for (const at of Object.keys(tb.deploy.pieces)) out[at] = { seat: seat, face: 'down', piece: tb.deploy.pieces[at] };
    return out;
  }
  for (const c of tb.board) out[c.at] = c.piece ? { seat: c.seat, face: c.face, piece: c.piece } : { seat: c.seat, face: c.face };
  return out;
}

function renderBoard() {
  const tb = store.table;
  if (!board || !geo) return;
  if (geo.viewer !== viewerSeat()) {
    geo.turnTo(viewerSeat());
    board.draw();
  }
  const moves = movesFrom();
  const dep = deployingNow();
  /** @type {Set<string>} */
  const from = new Set(store.awaiting ? [] : dep && tb && tb.deploy ? Object.keys(tb.deploy.pieces) : Object.keys(moves));
  board.render({
    cells: cells(),
    from: from,
    dests: new Set(store.selected && !dep ? moves[store.selected] || [] : []),
    selected: store.selected,
    route: replaying() ? replayRoute() : tb && tb.phase !== 'deploying' && tb.last && tb.last.route ? tb.last.route : [],
    team: team(),
  });
  els.svg.classList.toggle('is-deploying', dep);
  els.svg.dataset.viewer = viewerSeat();
  // The table message drawn, for tests that wait for the next one.
  els.svg.dataset.version = String(store.version);
}

/** The status line: what the table waits for. */
function statusText() {
  const tb = store.table;
  if (!tb) return store.socketOpen ? t('正在载入…', 'Loading…') : t('正在连接…', 'Connecting…');
  const off = store.socketOpen ? '' : t('（连接中断，正在重连…）', ' (disconnected, reconnecting…)');
  const me = mySeat();
  switch (tb.phase) {
    case 'open': return t('等待玩家入座和准备', 'Waiting for players to sit down and get ready') + off;
    case 'closed': return t('这张桌已关闭（取消或超时未开局）', 'This table was closed (cancelled, or it never filled)');
    case 'deploying': {
      const left = typeof tb.deadline_at === 'number' ? Math.max(0, Math.ceil((tb.deadline_at - serverNow()) / 1000)) : 0;
      const own = me && !tb.can.deploy ? t('你已布好，等待其他人。', 'You are ready; waiting for the others. ') : '';
      return own + t('布阵中，剩余 ' + left + ' 秒', 'Deploying: ' + left + ' s left') + off;
    }
    case 'playing': {
      if (tb.to_move && tb.to_move === me && tb.legal.length) return t('轮到你了', 'Your turn') + off;
      const mine = me ? seatCard(me) : null;
      const pre = mine && mine.state === 'defeated' ? t('你已出局。', 'You are out. ')
        : mine && mine.tuoguan ? t('托管中，服务器替你走棋。', 'Auto-play: the server moves for you. ') : '';
      const seen = tb.watching ? t('你可以看到' + seatWord(tb.watching) + '的棋子（指定旁观）。', 'You see ' + seatWord(tb.watching) + "'s pieces (allowed watcher). ") : '';
      const c = tb.to_move ? seatCard(tb.to_move) : null;
      const name = c && c.player ? c.player.display_name || c.player.username : '';
      return seen + pre + t('轮到' + seatWord(tb.to_move) + (name ? '（' + name + '）' : '') + '走棋', seatWord(tb.to_move) + (name ? ' (' + name + ')' : '') + ' to move') + off;
    }
    default: return t('对局结束', 'Game over');
  }
}

function renderTop() {
  const tb = store.table;
  els.status.textContent = statusText();
  els.status.dataset.phase = tb ? tb.phase : '';
  const parts = [];
  if (tb) {
    parts.push(allianceWord(tb.options.alliance));
    parts.push(t('每步 ' + tb.seconds_per_action + ' 秒', tb.seconds_per_action + ' s a step'));
    if (tb.phase === 'playing' || tb.phase === 'over') parts.push(t('第 ' + tb.steps + ' 步', 'step ' + tb.steps));
  }
  els.info.textContent = parts.join(' · ');
  const text = replaying() ? replayCaption() : tb && tb.last && tb.phase !== 'deploying' ? stepCaption(tb.last) : '';
  els.caption.hidden = !text;
  els.caption.textContent = text;
  els.viewChoice.hidden = !tb || !!mySeat();
  // Out of the game while it runs: stay to watch (with the ally's pieces, §5.4.2) or go.
  const me = mySeat();
  const card = me ? seatCard(me) : null;
  els.outLeave.hidden = !(tb && tb.phase === 'playing' && card && card.state === 'defeated');
}

function render() {
  renderTop();
  renderBoard();
  renderCards();
  // Before the bar's own render, which hides the bar when none of its buttons shows.
  renderLayouts();
  renderActions();
  renderHand();
  renderResult();
  renderRematch();
  const over = !!store.table && store.table.phase === 'over';
  renderReplayBar(over);
  if (over && store.table) verifyOnce(store.gameId, store.table);
}

wireCards({
  sit: function (seat) { command('sit', { seat: seat }).catch(function () {}); },
  computer: function (seat, level) { command('seat_computer', { seat: seat, level: level }).catch(function () {}); },
});
wireActions(command);
wireLayouts(command);
wireRematch(command);
wireOpen();
wireMute();
wireReplay(store.gameId, render);
els.viewSeat.addEventListener('change', function () {
  store.watchFrom = /** @type {Seat4} */ (els.viewSeat.value);
  store.selected = null;
  render();
  // The server shows a spectator the pieces of the seat it sits behind when that
  // seat's player lists it (指定旁观).
  if (store.table && !store.table.you) command('behind', { seat: store.watchFrom }).catch(function () {});
});
setInterval(function () {
  renderClocks();
  if (store.table && store.table.phase === 'deploying') els.status.textContent = statusText();
}, 250);

/** The board's stations and lines, and on the way the server's clock. */
async function loadBoard() {
  const res = await fetch('/api/board?variant=siguo', { cache: 'no-store', headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error('GET /api/board: ' + res.status);
  readServerClock(res);
  return res.json();
}

loadBoard().then(function (data) {
  geo = new Geometry(data);
  geo.turnTo(viewerSeat());
  board = new TableBoard(els.svg, geo);
  board.onTap(onTap);
  wireZoom(geo.width);
  render();
}, function () {
  toast(t('棋盘载入失败，请刷新页面', 'The board did not load: reload the page'), 'error');
});
render();
socket.start();
