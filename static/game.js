// The game page: one WebSocket to /ws/game/{id} (docs/protocol.md), the board, players,
// clocks, the status bar, draw offers, resignation, the result and rematches — and, once
// the game has ended, a replay built in the browser from the game's record. Flip chess
// (翻翻棋) and standard 军棋: the latter adds a deployment phase (布阵), passing (不行动),
// hidden enemy pieces and a player's private marks (子力标记) on them.
(function () {
  'use strict';
  const J = window.Junqi;
  const root = document.getElementById('game');
  if (!root || !window.JunqiBoard) return;

  const T = J.t;
  const gameId = root.dataset.gameId;
  const me = root.dataset.user || null;
  const $ = function (id) { return document.getElementById(id); };
  const SEATS = ['south', 'north'];
  const other = function (seat) { return seat === 'south' ? 'north' : 'south'; };
  const sameUser = function (a, b) {
    return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
  };
  const STEP_KINDS = ['flip', 'move', 'timeout', 'pass'];

  const els = {
    status: $('status'),
    svg: $('board'),
    top: $('player-top'),
    bottom: $('player-bottom'),
    steps: $('steps'),
    quiet: $('quiet'),
    perAction: $('per-action'),
    kind: $('game-kind'),
    joinPanel: $('join-panel'),
    joinText: $('join-text'),
    join: $('join'),
    joinLogin: $('join-login'),
    waitPanel: $('wait-panel'),
    inviteLink: $('invite-link'),
    copyInvite: $('copy-invite'),
    cancelGame: $('cancel-game'),
    result: $('result'),
    resultWord: $('result-word'),
    resultReason: $('result-reason'),
    resultScores: $('result-scores'),
    resultRank: $('result-rank'),
    rematch: $('rematch'),
    rematchText: $('rematch-text'),
    drawDialog: $('draw-dialog'),
    drawDialogText: $('draw-dialog-text'),
    acceptDraw: $('accept-draw'),
    declineDraw: $('decline-draw'),
    actions: $('game-actions'),
    actionsHint: $('actions-hint'),
    offerNote: $('offer-note'),
    offerDraw: $('offer-draw'),
    resign: $('resign'),
    tallies: $('tallies'),
    talliesPanel: $('tallies-panel'),
    log: $('log'),
    logPanel: $('log-panel'),
    replay: $('replay'),
    replayFirst: $('replay-first'),
    replayPrev: $('replay-prev'),
    replayNext: $('replay-next'),
    replayLast: $('replay-last'),
    replayStep: $('replay-step'),
    replayNow: $('replay-now'),
    replayMoves: $('replay-moves'),
    replayShare: $('replay-share'),
    replayCopy: $('replay-copy'),
    replayCommitment: $('replay-commitment'),
    dealVerified: $('deal-verified'),
    dealUnverified: $('deal-unverified'),
    langSwitch: $('lang-switch'),
    pass: $('pass'),
    boardWrap: document.querySelector('#game .board-wrap'),
    deployPanel: $('deploy-panel'),
    deployClock: $('deploy-clock'),
    deployClockNum: $('deploy-clock-num'),
    deployText: $('deploy-text'),
    deployReady: $('deploy-ready'),
    deployTools: $('deploy-tools'),
    deployRandom: $('deploy-random'),
    deployLoad: $('deploy-load'),
    deploySave: $('deploy-save'),
    deployChooser: $('deploy-chooser'),
    deployChooserNote: $('deploy-chooser-note'),
    deploySaved: $('deploy-saved'),
    deploySaveForm: $('deploy-save-form'),
    deploySaveName: $('deploy-save-name'),
    deployProblems: $('deploy-problems'),
    deployViolations: $('deploy-violations'),
    deployGo: $('deploy-go'),
    deployHint: $('deploy-hint'),
    dealVerifiedText: $('deal-verified-text'),
    dealUnverifiedText: $('deal-unverified-text'),
    replayHint: $('replay-hint'),
  };

  // ---- state ------------------------------------------------------------------

  let ui = null; // the JunqiBoard
  let S = null; // the last state's `d`, kept current by events
  let summary = null; // GET /api/games/{id}, used before the first state
  let version = 0;
  let haveState = false;
  let selected = null;
  let lastAction = null; // {at} or {from, to, path}
  let clock = null; // {to_move, deadline, seconds}
  let history = { south: [], north: [] }; // each seat's recent steps: "a2-a3" or null
  let seededAt = -1; // the version `history` was last filled from the record at
  let seedTries = 0;
  let liveLogCount = 0; // log lines written from live events
  let recordOptions = null; // the room's options, from the record
  let awaiting = null; // {a, timer} while an action waits for its answer
  let ackSeq = 0;
  let rematchAsked = false;
  let rematchAskedAck = null;
  let navigating = false;
  const playerInfo = {}; // username (lower case) → player from /api/players/{name}
  let openCreator = null; // the creator of an open game, from /api/games/open
  let standingsAsked = false; // the players' ranks after the end were asked for

  // Standard 军棋.
  let deploySel = null; // the first of two own pieces picked to swap while deploying
  let deployDeadline = null; // performance.now() when deployment ends
  let deployPending = null; // {a, kind} while a deployment request waits for its answer
  let markMenu = null; // {at, el} while the mark menu is open

  // The replay of a finished game (built from its record).
  const R = {
    loading: false,
    tries: 0,
    rec: null,
    positions: null, // position after each step, [0] the deal
    entries: null, // one per step (index = step), plus notes
    notes: null, // non-step actions: {after, d}
    step: 0,
    active: false,
    browserCheck: null, // null (not run), 'ok', 'mismatch', 'unavailable'
  };

  // ---- helpers -------------------------------------------------------------------

  function game() { return S ? S.game : summary; }
  function view() { return S ? S.view : null; }
  function mySeat() { return S && (S.you === 'south' || S.you === 'north') ? S.you : null; }

  /** Standard 军棋 (rather than flip chess). */
  function isStandard() {
    const v = view();
    if (v && v.variant) return v.variant === 'standard';
    const g = game();
    return !!(g && g.variant === 'standard');
  }

  function variantName() {
    return isStandard() ? 'standard' : 'flip';
  }

  /** The deployment phase of a standard game: `d.deploy` while there is no view yet. */
  function deploying() {
    return !!(S && S.deploy && !S.view && status() === 'running');
  }

  /** In standard 军棋 south plays red and north blue. */
  function standardColour(seat) {
    return window.JunqiBoard.STANDARD_COLOURS[seat] || null;
  }

  function status() {
    const g = game();
    return g ? g.status : null;
  }

  function outcome() {
    const v = view();
    if (v && v.outcome) return v.outcome;
    const g = game();
    if (g && g.status === 'finished' && g.result) {
      return { winner: g.result === 'draw' ? null : g.result, reason: g.reason };
    }
    return null;
  }

  function isRunning() {
    return status() === 'running' && !outcome();
  }

  function player(seat) {
    const g = game();
    return g && g.players && g.players[seat] ? g.players[seat] : null;
  }

  function playerName(seat) {
    const p = player(seat);
    return p && p.username ? p.username : J.seatName(seat);
  }

  function creatorName() {
    const g = game();
    if (!g) return null;
    if (g.creator && g.creator.username) return g.creator.username;
    for (const seat of SEATS) {
      const p = g.players && g.players[seat];
      if (p && p.username) return p.username;
    }
    return openCreator && openCreator.username ? openCreator.username : null;
  }

  function amCreator() {
    if (mySeat()) return true;
    return !!me && sameUser(creatorName(), me);
  }

  /** What the board, the status bar and the player cards show: the replay's position or the live view. */
  function shown() {
    if (R.active && R.positions) return R.positions[R.step];
    return view();
  }

  function colourOf(seat) {
    const v = shown();
    if (v && v.colours) return v.colours[seat];
    return isStandard() ? standardColour(seat) : null;
  }

  /** Steps strictly alternate (a timeout passes the turn too), so each seat's count follows from the total and whose turn it is. */
  function seatSteps(v, seat) {
    if (!v || typeof v.steps !== 'number') return 0;
    if (v.seat_steps) return v.seat_steps[seat] || 0;
    const n = v.steps;
    return v.to_move === seat ? Math.floor(n / 2) : Math.ceil(n / 2);
  }

  function gotoGame(id) {
    if (navigating) return;
    navigating = true;
    window.location.assign('/game/' + encodeURIComponent(id));
  }

  function moveCode(from, to) { return from + '-' + to; }

  function stepsWord(n) {
    return T(n + ' 步', n + (n === 1 ? ' step' : ' steps'));
  }

  // ---- action descriptions (the game log and the replay's move list) ------------------

  function pieceOrHidden(c) {
    if (c && c.piece) return J.pieceEl(c.piece, c.colour);
    return J.el('span', { class: 'pc-hidden', text: T('暗子', 'a hidden piece') });
  }

  /**
   * An event (or a replayed action) in words, as DOM nodes. `d` has `kind`, `seat` and the
   * fields of docs/protocol.md's events; names come from `nameOf(seat)`.
   */
  function describe(d, nameOf) {
    const who = d.seat ? nameOf(d.seat) : '';
    const out = [];
    const add = function () {
      for (let i = 0; i < arguments.length; i++) out.push(arguments[i]);
    };
    switch (d.kind) {
      case 'flip':
        add(who + T(' 翻开 ', ' flips ') + d.at);
        if (d.piece) {
          add(T('：', ': ') + J.colourName(d.colour) + ' ', J.pieceEl(d.piece, d.colour));
        }
        break;
      case 'move': {
        // A hidden mover (an opponent's piece in standard 军棋) goes unnamed.
        if (d.mover && d.mover.piece) add(who + ' ', pieceOrHidden(d.mover), ' ' + d.from + '→' + d.to);
        else add(who + ' ' + d.from + '→' + d.to);
        const target = d.target;
        const tpiece = target && target.piece;
        if (d.combat === 'attacker_wins') {
          if (tpiece === 'mine') add(T('，挖掉', ', clears '), pieceOrHidden(target));
          else if (tpiece === 'flag') add(T('，扛走', ', captures '), pieceOrHidden(target));
          else add(T('，吃掉', ', takes '), pieceOrHidden(target));
        } else if (d.combat === 'defender_wins') {
          if (tpiece === 'mine') add(T('，触雷阵亡（', ', hits a '), pieceOrHidden(target), T('）', ' and is removed'));
          else add(T('，撞上', ', loses to '), pieceOrHidden(target), T('阵亡', ''));
        } else if (d.combat === 'both_removed') {
          add(T('，与', ', trades with '), pieceOrHidden(target), T('同归于尽', ' (both removed)'));
        } else if (d.attack) {
          add(T('，攻击', ', attacks'));
        }
        break;
      }
      case 'timeout': add(who + T(' 超时', ' timed out')); break;
      case 'pass': add(who + T(' 不行动', ' passes')); break;
      case 'time_limit': add(T('对局时间到', 'The game ran out of time')); break;
      case 'draw_offer': add(who + T(' 提出和棋', ' offers a draw')); break;
      case 'draw_decline': add(who + T(' 拒绝和棋', ' declines the draw')); break;
      case 'draw_accept': add(who + T(' 同意和棋', ' accepts the draw')); break;
      case 'resign': add(who + T(' 认输', ' resigns')); break;
      case 'escape': add(who + T(' 逃跑', ' left the game')); break;
      case 'rematch_offer': add(who + T(' 想再来一局', ' wants a rematch')); break;
      case 'rematch': add(T('新的一局开始了', 'A new game has started')); break;
      default: return null;
    }
    if (Array.isArray(d.flags_revealed) && d.flags_revealed.length) {
      add(T('；司令阵亡，军旗亮出：', '; a marshal fell, so its flag is shown: ') + d.flags_revealed.join(T('、', ', ')));
    }
    if (d.colours_assigned) {
      const ca = d.colours_assigned;
      add(T('；', '; ') + nameOf('south') + T(' 执', ' plays ') + J.colourName(ca.south) +
        T('，', ', ') + nameOf('north') + T(' 执', ' plays ') + J.colourName(ca.north));
    }
    return out;
  }

  function outcomeText(out, nameOf) {
    if (!out) return '';
    const res = out.winner ? nameOf(out.winner) + T(' 胜', ' wins') : T('和棋', 'a draw');
    return T('对局结束：', 'Game over: ') + res + T('（', ' (') + J.reasonText(out.reason, variantName()) + T('）', ')');
  }

  // ---- the socket ------------------------------------------------------------------

  let ws = null;
  let wantFresh = false;
  let retryTimer = null;
  let pingTimer = null;
  let delay = 500;
  let leaving = false;
  let socketOpen = false;
  let lastResync = 0;

  function connect() {
    retryTimer = null;
    if (leaving) return;
    const fresh = wantFresh || !haveState;
    wantFresh = false;
    const path = '/ws/game/' + encodeURIComponent(gameId) + (fresh ? '' : '?v=' + version);
    let sock;
    try {
      sock = new WebSocket(J.socketUrl(path));
    } catch (e) {
      scheduleReconnect();
      return;
    }
    ws = sock;
    sock.addEventListener('open', function () {
      if (ws !== sock) return;
      socketOpen = true;
      renderStatus();
      pingTimer = setInterval(function () {
        if (sock.readyState === WebSocket.OPEN) sock.send(JSON.stringify({ t: 'ping' }));
      }, 25000);
    });
    sock.addEventListener('message', function (ev) {
      if (ws !== sock) return;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      if (msg && typeof msg === 'object') handle(msg);
    });
    sock.addEventListener('close', function () {
      if (pingTimer) clearInterval(pingTimer);
      pingTimer = null;
      if (ws !== sock) return;
      ws = null;
      socketOpen = false;
      clearAwaiting();
      renderStatus();
      scheduleReconnect();
    });
  }

  function scheduleReconnect(now) {
    if (leaving || retryTimer) return;
    const wait = now ? 0 : delay + Math.floor(Math.random() * 400);
    if (!now) delay = Math.min(delay * 2, 15000);
    retryTimer = setTimeout(connect, wait);
  }

  /** Drops the socket and connects again: with ?v=N to catch up, or fresh for a new state. */
  function reconnect(fresh) {
    if (fresh) wantFresh = true;
    const sock = ws;
    ws = null;
    socketOpen = false;
    if (pingTimer) clearInterval(pingTimer);
    pingTimer = null;
    if (sock) {
      try { sock.close(); } catch (e) { /* already closed */ }
    }
    clearAwaiting();
    if (retryTimer) {
      clearTimeout(retryTimer);
      retryTimer = null;
    }
    // At once, unless this keeps happening: then back off like any other drop.
    const now = Date.now();
    const soon = now - lastResync < 2000;
    lastResync = now;
    scheduleReconnect(!soon);
  }

  function send(type, data, isStep) {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      J.toast(T('连接已断开，正在重连…', 'Disconnected, reconnecting…'), 'error');
      return false;
    }
    const a = ++ackSeq;
    const msg = { t: type, a: a };
    if (data !== undefined) msg.d = data;
    ws.send(JSON.stringify(msg));
    if (isStep) {
      clearAwaiting();
      awaiting = {
        a: a,
        timer: setTimeout(function () { awaiting = null; renderBoard(); renderPanels(); }, 8000),
      };
    }
    return true;
  }

  function clearAwaiting() {
    if (awaiting) clearTimeout(awaiting.timer);
    awaiting = null;
  }

  function handle(msg) {
    switch (msg.t) {
      case 'state':
        delay = 500;
        applyState(msg.v, msg.d);
        break;
      case 'event':
        delay = 500;
        if (!haveState || typeof msg.v !== 'number') return;
        if (msg.v <= version) return; // already applied
        if (msg.v !== version + 1) {
          reconnect(false); // a gap: catch up with ?v=
          return;
        }
        version = msg.v;
        applyEvent(msg.d || {});
        break;
      case 'ack':
        if (awaiting && awaiting.a === msg.a) {
          // The event that goes with it brings the change; stay blocked until then only
          // if it has not arrived yet.
          if (typeof msg.v === 'number' && msg.v <= version) clearAwaiting();
        }
        if (deployPending && deployPending.a === msg.a) {
          const kind = deployPending.kind;
          clearTimeout(deployPending.timer);
          deployPending = null;
          if (kind === 'save_layout') {
            J.toast(T('布阵已保存', 'Layout saved'));
            els.deploySaveForm.hidden = true;
            els.deploySave.setAttribute('aria-expanded', 'false');
          }
          renderDeploy();
          renderBoard();
        }
        break;
      case 'deploy':
        // Unversioned: the deployment as this socket may see it.
        if (!S || S.view || !msg.d || typeof msg.d !== 'object') return;
        S.deploy = Object.assign({}, S.deploy || {}, msg.d);
        setDeployClock(S.deploy);
        renderAll();
        break;
      case 'marks':
        if (!S || !msg.d || typeof msg.d !== 'object') return;
        S.marks = Object.assign({}, msg.d);
        markPending = null;
        renderBoard();
        break;
      case 'error': {
        const d = msg.d || {};
        if (d.code === 'illegal' && d.reason) {
          J.toast(refusalText(d), 'error');
        } else {
          J.toast(J.errorText(d.code, d.message), 'error');
        }
        if (msg.a !== undefined && awaiting && awaiting.a === msg.a) clearAwaiting();
        if (msg.a !== undefined && deployPending && deployPending.a === msg.a) {
          clearTimeout(deployPending.timer);
          deployPending = null;
        }
        if (msg.a !== undefined && markPending && markPending.a === msg.a) {
          S.marks = markPending.before;
          markPending = null;
        }
        if (d.code === 'illegal' || d.code === 'game_over') {
          selected = null;
          deploySel = null;
        }
        if (msg.a !== undefined && msg.a === rematchAskedAck) {
          rematchAsked = false;
        }
        renderAll();
        break;
      }
      default:
        break; // pong and anything unknown
    }
  }

  // ---- state and events -----------------------------------------------------------

  function normaliseView(v, g) {
    if (!v.variant && g && g.variant) v.variant = g.variant;
    v.board = v.board || {};
    v.legal = Array.isArray(v.legal) ? v.legal : [];
    v.repetition_warnings = Array.isArray(v.repetition_warnings) ? v.repetition_warnings : [];
    v.tallies = Array.isArray(v.tallies) ? v.tallies : [];
    v.timeouts = v.timeouts || { south: 0, north: 0 };
    v.draw_offers_left = v.draw_offers_left || { south: null, north: null };
  }

  function applyState(v, d) {
    if (!d || !d.game) return;
    const firstState = !haveState;
    const prevYou = S ? S.you : undefined;
    S = d;
    S.rematch = S.rematch || { south: false, north: false, next: null };
    S.connected = S.connected || null;
    S.view = S.view || null;
    if (S.view) normaliseView(S.view, S.game);
    S.deploy = S.view ? null : S.deploy || null;
    S.marks = S.marks && typeof S.marks === 'object' ? S.marks : {};
    version = typeof v === 'number' ? v : 0;
    haveState = true;
    clearAwaiting(); // a selection survives (renderBoard drops it if it is no longer legal)
    if (deployPending) clearTimeout(deployPending.timer);
    deployPending = null;
    if (!S.deploy) deploySel = null;
    setDeployClock(S.deploy);
    setClock(S.clock);
    if (ui) ui.setFlipped(mySeat() === 'north');
    if (firstState || prevYou !== S.you) {
      history = { south: [], north: [] };
      seededAt = -1;
    }
    if (S.rematch && S.rematch.next && mySeat()) {
      gotoGame(S.rematch.next);
      return;
    }
    loadPlayers();
    seedHistory();
    maybeLoadReplay();
    renderAll();
  }

  /**
   * Fills each seat's recent steps (for repetition warnings), the last action and, when
   * this page opened mid-game, the log of the steps before it, from the record.
   */
  function seedHistory() {
    if (!S || !S.view || status() === 'open' || status() === 'cancelled' || status() === 'finished') return;
    if (seededAt === version) return; // a state about presence changes nothing here
    const askedAt = version;
    J.api('GET', '/api/games/' + encodeURIComponent(gameId) + '/record').then(function (rec) {
      if (!rec || !Array.isArray(rec.actions)) return;
      if (rec.options) recordOptions = rec.options;
      if (version !== askedAt) {
        // Events arrived meanwhile: ask again for a record that matches.
        if (seedTries++ < 5) setTimeout(seedHistory, 200);
        return;
      }
      seedTries = 0;
      const actions = rec.actions;
      const h = { south: [], north: [] };
      const flips = { south: null, north: null };
      let last = null;
      for (const act of actions) {
        if (!act || !h[act.seat]) continue;
        if (act.move && act.move.from && act.move.to) {
          h[act.seat].push(moveCode(act.move.from, act.move.to));
          last = { from: act.move.from, to: act.move.to };
        } else if (act.flip) {
          h[act.seat].push(null);
          last = { at: act.flip };
          flips[act.seat] = act.flip;
        } else if (act.timeout || act.pass) {
          h[act.seat].push(null);
        }
      }
      history = { south: h.south.slice(-16), north: h.north.slice(-16) };
      seededAt = askedAt;
      // Each seat's last flip: before colours are assigned nothing moves, so the piece
      // is still where it was flipped.
      const v = view();
      if (v) {
        v.last_flips = v.last_flips || {};
        for (const seat of SEATS) {
          const cell = flips[seat] && v.board[flips[seat]];
          if (cell && cell.face === 'up' && !v.last_flips[seat]) {
            v.last_flips[seat] = { at: flips[seat], piece: cell.piece, colour: cell.colour };
          }
        }
        renderPlayers();
      }
      if (!lastAction && last) {
        // Only the end squares of the last move differ between the board before it and
        // now, so its route is the same on the board as it stands.
        if (last.from && ui && view()) last.path = ui.pathOf(view().board, last.from, last.to);
        lastAction = last;
      }
      if (liveLogCount === 0 && status() !== 'finished') seedLog(actions);
      renderBoard();
    }).catch(function () { /* warnings then rest on what this page saw */ });
  }

  /**
   * The log of a game this page joined late. The record of a running game names squares
   * only (the deal is secret until the end); a flipped piece is named when no later move
   * touched its square, so it is the one standing there now.
   */
  function seedLog(actions) {
    const v = view();
    const touchedLater = new Set();
    const known = new Array(actions.length).fill(null);
    for (let i = actions.length - 1; i >= 0; i--) {
      const act = actions[i];
      if (act && act.move) {
        touchedLater.add(act.move.from);
        touchedLater.add(act.move.to);
      } else if (act && act.flip && !touchedLater.has(act.flip) && v) {
        const cell = v.board[act.flip];
        if (cell && cell.face === 'up' && cell.piece) known[i] = cell;
      }
    }
    const occupied = new Set();
    if (ui) {
      for (const sq of Object.keys(ui.graph.stations)) {
        if (ui.graph.stations[sq].kind !== 'camp') occupied.add(sq);
      }
    }
    const items = [];
    let stepNo = 0;
    // Where the colours were decided, when the flips up to then are known.
    const rule = (recordOptions && recordOptions.colour_rule) || 'match_previous';
    let decided = !(v && v.colours);
    let lastColour = null;
    const ownColour = { south: null, north: null };
    actions.forEach(function (act, i) {
      let d = null;
      if (act.flip) {
        d = { kind: 'flip', seat: act.seat, at: act.flip };
        if (known[i]) {
          d.piece = known[i].piece;
          d.colour = known[i].colour;
        }
        if (!decided) {
          if (!d.colour) {
            decided = true; // unknown from here on: say nothing
          } else {
            const takes = rule === 'first_flip' ? true
              : rule === 'two_in_a_row' ? ownColour[act.seat] === d.colour
                : lastColour === d.colour;
            if (takes) {
              decided = true;
              if (v.colours[act.seat] === d.colour) d.colours_assigned = v.colours;
            }
            lastColour = d.colour;
            ownColour[act.seat] = d.colour;
          }
        }
      }
      else if (act.move) {
        const attack = occupied.has(act.move.to);
        d = { kind: 'move', seat: act.seat, from: act.move.from, to: act.move.to, attack: attack };
        occupied.delete(act.move.from);
        occupied.add(act.move.to); // a guess after an attack; only used for wording
      } else if (act.timeout) d = { kind: 'timeout', seat: act.seat };
      else if (act.pass) d = { kind: 'pass', seat: act.seat };
      else if (act.offer_draw) d = { kind: 'draw_offer', seat: act.seat };
      else if (act.decline_draw) d = { kind: 'draw_decline', seat: act.seat };
      else if (act.accept_draw) d = { kind: 'draw_accept', seat: act.seat };
      if (!d) return;
      if (STEP_KINDS.indexOf(d.kind) >= 0) stepNo += 1;
      items.push(logItem(d, STEP_KINDS.indexOf(d.kind) >= 0 ? stepNo : null, true));
    });
    for (const n of Array.from(els.log.querySelectorAll('.log-seeded, .log-earlier'))) n.remove();
    if (!items.length) return;
    // The log is newest first: a heading, then these steps, below anything live.
    els.log.appendChild(J.el('li', { class: 'log-earlier muted' }, [
      J.el('span', { class: 'log-text', text: T('打开页面前的步骤（部分棋子在对局结束前无从得知）：', 'Steps before this page opened (some pieces stay unknown until the game ends):') }),
    ]));
    items.reverse();
    for (const item of items) if (item) els.log.appendChild(item);
  }

  function tally(piece, colour, from, to) {
    const v = view();
    if (!v || !piece || !colour) return;
    for (const t of v.tallies) {
      if (t.piece === piece && t.colour === colour) {
        if (from && t[from] > 0) t[from] -= 1;
        if (to) t[to] = (t[to] || 0) + 1;
        return;
      }
    }
  }

  function step(seat, code, attack) {
    const v = view();
    v.steps = (v.steps || 0) + 1;
    if (S.game) S.game.steps = v.steps;
    v.quiet_steps = attack ? 0 : (v.quiet_steps || 0) + 1;
    v.to_move = other(seat);
    history[seat].push(code);
    if (history[seat].length > 16) history[seat].shift();
  }

  /** A player's marks follow the marked piece when it moves, and vanish with it. */
  function moveMarks(d) {
    const marks = S && S.marks;
    if (!marks) return;
    const own = Object.prototype.hasOwnProperty;
    const m = own.call(marks, d.from) ? marks[d.from] : null;
    delete marks[d.from];
    if (d.combat === 'attacker_wins' || d.combat === 'both_removed') delete marks[d.to];
    if (m !== null && (!d.combat || d.combat === 'attacker_wins')) marks[d.to] = m;
    if (markMenu && (markMenu.at === d.from || markMenu.at === d.to)) closeMarkMenu();
  }

  function applyEvent(d) {
    const v = view();
    const seat = d.seat;
    if (!v || !S.game) {
      reconnect(true);
      return;
    }
    let needFresh = false;
    let stepped = false;
    switch (d.kind) {
      case 'flip':
        v.board[d.at] = { piece: d.piece, colour: d.colour, face: 'up' };
        tally(d.piece, d.colour, 'down', 'up');
        v.last_flips = v.last_flips || {};
        v.last_flips[seat] = { at: d.at, piece: d.piece, colour: d.colour };
        step(seat, null, false);
        stepped = true;
        lastAction = { at: d.at };
        break;
      case 'move': {
        const target = v.board[d.to];
        const mover = d.mover || v.board[d.from];
        // The route on the board as it stood before the move.
        const path = ui ? ui.pathOf(v.board, d.from, d.to) : [d.from, d.to];
        delete v.board[d.from];
        const attacked = !!(d.target || d.combat || target);
        const defender = d.target || target || null;
        if (!d.combat) {
          if (mover) v.board[d.to] = mover;
        } else if (d.combat === 'attacker_wins') {
          if (defender) tally(defender.piece, defender.colour, 'up', 'removed');
          if (mover) v.board[d.to] = mover;
        } else if (d.combat === 'defender_wins') {
          if (mover) tally(mover.piece, mover.colour, 'up', 'removed');
        } else if (d.combat === 'both_removed') {
          if (mover) tally(mover.piece, mover.colour, 'up', 'removed');
          if (defender) tally(defender.piece, defender.colour, 'up', 'removed');
          delete v.board[d.to];
        }
        moveMarks(d);
        step(seat, moveCode(d.from, d.to), attacked);
        stepped = true;
        lastAction = { from: d.from, to: d.to, path: path };
        break;
      }
      case 'timeout':
      case 'pass':
        // In standard 军棋 a pass counts like a timeout.
        if (d.kind === 'timeout' || isStandard()) v.timeouts[seat] = (v.timeouts[seat] || 0) + 1;
        step(seat, null, false);
        stepped = true;
        break;
      case 'draw_offer':
        v.open_offer = seat;
        if (typeof v.draw_offers_left[seat] === 'number') {
          v.draw_offers_left[seat] = Math.max(0, v.draw_offers_left[seat] - 1);
        }
        break;
      case 'draw_decline':
      case 'draw_accept':
        v.open_offer = null;
        break;
      case 'resign':
      case 'escape':
      case 'time_limit':
        break;
      case 'rematch_offer':
        S.rematch[seat] = true;
        break;
      case 'rematch':
        if (d.next) {
          S.rematch.next = d.next;
          if (mySeat()) {
            logEvent(d);
            gotoGame(d.next);
            return;
          }
        }
        break;
      default:
        needFresh = true;
    }
    if (d.colours_assigned) v.colours = d.colours_assigned;
    if (d.offer_lapsed) v.open_offer = null;
    // Whoever acted is there (escape and timeouts say nothing about it).
    if (S.connected && seat && d.kind !== 'timeout' && d.kind !== 'escape') S.connected[seat] = true;
    if (Array.isArray(d.flags_revealed) && d.flags_revealed.length) {
      // A marshal fell: its side's flag is shown to everyone.
      if (!isStandard()) needFresh = true;
      for (const sq of d.flags_revealed) {
        const cell = v.board[sq];
        if (cell) v.board[sq] = { piece: 'flag', colour: cell.colour, face: 'up' };
        else needFresh = true;
      }
    }
    if (d.clock !== undefined) {
      setClock(d.clock);
    } else if (stepped && clock) {
      setClock({ to_move: v.to_move, remaining_ms: clock.seconds * 1000, seconds_per_action: clock.seconds });
    }
    if (d.outcome) {
      v.outcome = d.outcome;
      v.open_offer = null;
      if (S.game) {
        S.game.status = 'finished';
        S.game.result = d.outcome.winner || 'draw';
        S.game.reason = d.outcome.reason;
      }
      clock = null;
    }
    if (d.score && S.game) S.game.score = d.score;
    if (stepped || d.kind === 'draw_offer') selected = null;

    logEvent(d);

    if (needFresh || (stepped && v.variant && v.variant !== 'flip' && v.variant !== 'standard')) {
      // This page mirrors the flip-chess and standard rules; anything else is fetched whole.
      reconnect(true);
      return;
    }
    recomputeLegal(d);
    if (stepped && awaiting && seat === mySeat()) clearAwaiting();
    if (d.outcome) maybeLoadReplay();
    renderAll();
  }

  /** Legal actions after an event: the server's when it sent them, else the rules mirror. */
  function recomputeLegal(d) {
    const v = view();
    if (Array.isArray(d.legal)) {
      v.legal = d.legal;
      v.repetition_warnings = Array.isArray(d.repetition_warnings) ? d.repetition_warnings : [];
      return;
    }
    const seat = mySeat();
    if (!seat || v.outcome || v.to_move !== seat) {
      v.legal = [];
      v.repetition_warnings = [];
      return;
    }
    v.legal = ui.legalActions(v, seat, recordOptions);
    if (isStandard()) {
      v.repetition_warnings = []; // standard 军棋 has no repetition rule
      return;
    }
    const recent = history[seat].slice(-7);
    v.repetition_warnings = v.legal.filter(function (a) {
      if (!a.move) return false;
      const code = moveCode(a.move.from, a.move.to);
      let n = 0;
      for (const c of recent) if (c === code) n += 1;
      return n + 1 >= 4;
    });
  }

  // ---- the clock ----------------------------------------------------------------------

  function setClock(c) {
    if (c && c.to_move && typeof c.remaining_ms === 'number') {
      clock = {
        to_move: c.to_move,
        deadline: performance.now() + Math.max(0, c.remaining_ms),
        seconds: c.seconds_per_action || (clock ? clock.seconds : null),
      };
    } else {
      clock = null;
    }
    renderClocks();
  }

  function setDeployClock(dep) {
    deployDeadline = dep && typeof dep.remaining_ms === 'number'
      ? performance.now() + Math.max(0, dep.remaining_ms)
      : null;
  }

  function renderDeployClock() {
    if (!els.deployClock) return;
    let text = '--';
    let low = false;
    if (deploying() && deployDeadline !== null) {
      const left = Math.max(0, deployDeadline - performance.now());
      text = String(Math.ceil(left / 1000));
      low = left <= 10000;
    }
    if (els.deployClockNum.textContent !== text) els.deployClockNum.textContent = text;
    els.deployClock.classList.toggle('low', low);
  }

  function perActionSeconds() {
    if (clock && clock.seconds) return clock.seconds;
    const g = game();
    return g && g.seconds_per_action ? g.seconds_per_action : null;
  }

  function renderClocks() {
    for (const card of [els.top, els.bottom]) {
      const seat = card.dataset.seat;
      const num = card.querySelector('.pc-clock-num');
      const box = card.querySelector('.pc-clock');
      let text = '--';
      let running = false;
      let low = false;
      if (isRunning() && !deploying() && (seat === 'south' || seat === 'north')) {
        if (clock && clock.to_move === seat) {
          const left = Math.max(0, clock.deadline - performance.now());
          text = String(Math.ceil(left / 1000));
          running = true;
          low = left <= 5000;
        } else {
          const s = perActionSeconds();
          text = s ? String(s) : '--';
        }
      }
      if (num.textContent !== text) num.textContent = text;
      box.hidden = text === '--';
      box.classList.toggle('running', running);
      box.classList.toggle('low', low);
    }
    renderDeployClock();
  }

  // ---- rendering -------------------------------------------------------------------------

  function renderAll() {
    renderPlayers();
    renderCounters();
    renderPanels();
    renderDeploy();
    renderBoard();
    renderTallies();
    renderClocks();
    renderStatus();
    renderReplay();
  }

  function rankName(rank) {
    if (!rank) return '';
    return J.EN ? rank.english || rank.chinese || '' : rank.chinese || rank.english || '';
  }

  function infoOf(p) {
    if (!p || !p.username) return p;
    return playerInfo[p.username.toLowerCase()] || p;
  }

  function rankLine(p) {
    if (!p) return '';
    let info = p;
    if (!(p.rank && p.rank.chinese) && p.username) info = infoOf(p);
    const parts = [];
    if (info.rank) parts.push(rankName(info.rank));
    if (typeof info.score === 'number') parts.push(T(info.score + ' 分', info.score + ' pts'));
    return parts.filter(Boolean).join(' · ');
  }

  function loadPlayers() {
    for (const seat of SEATS) {
      const p = player(seat);
      if (!p || !p.username || (p.rank && p.rank.chinese)) continue;
      const key = p.username.toLowerCase();
      if (playerInfo[key]) continue;
      playerInfo[key] = { username: p.username };
      fetchPlayer(p.username);
    }
  }

  function fetchPlayer(name) {
    const key = name.toLowerCase();
    return J.api('GET', '/api/players/' + encodeURIComponent(name)).then(function (info) {
      if (info && info.username) {
        playerInfo[key] = info;
        renderPlayers();
        renderResult();
      }
    }).catch(function () { /* the card shows the name alone */ });
  }

  /** After the end: the players' standings now (score, rank and progress). */
  function loadStandings() {
    if (standingsAsked) return;
    const g = game();
    if (!g || !g.players) return;
    standingsAsked = true;
    const fetchAll = function () {
      for (const seat of SEATS) {
        const p = player(seat);
        if (p && p.username) fetchPlayer(p.username);
      }
    };
    fetchAll();
    // Once more a little later, in case the scores were still being written.
    setTimeout(fetchAll, 2000);
  }

  function fillCard(card, seat, p, placeholder) {
    card.dataset.seat = seat || '';
    const you = seat && seat === mySeat();
    const nameEl = card.querySelector('.pc-name');
    nameEl.textContent = p && p.username ? p.username : placeholder;
    card.classList.toggle('is-you', !!you);
    card.classList.toggle('is-empty', !(p && p.username));
    card.querySelector('.pc-you').hidden = !you;
    const colourEl = card.querySelector('.pc-colour');
    const colour = seat ? colourOf(seat) : null;
    colourEl.dataset.colour = colour || '';
    colourEl.textContent = colour ? T(colour === 'red' ? '红' : '蓝', colour === 'red' ? 'R' : 'B') : '?';
    colourEl.title = colour ? J.colourName(colour) : T('颜色未定', 'Colour not yet decided');
    card.querySelector('.pc-rank').textContent = rankLine(p);
    const v = shown();
    const toEl = card.querySelector('.pc-timeouts');
    const stEl = card.querySelector('.pc-steps');
    const dep = deploying() ? S.deploy : null;
    card.classList.toggle('is-ready', !!(dep && seat && dep.ready && dep.ready[seat]));
    if (dep && seat) {
      // Deploying: of each side only whether it is ready.
      const ready = !!(dep.ready && dep.ready[seat]);
      stEl.textContent = ready ? T('已就绪', 'ready') : T('未就绪', 'not ready');
      stEl.dataset.ready = ready ? 'yes' : 'no';
      toEl.textContent = T('布阵中', 'deploying');
    } else if (v && seat && status() !== 'open') {
      const limit = v.timeouts_to_lose || (isStandard() ? 5 : 3);
      const used = (v.timeouts && v.timeouts[seat]) || 0;
      toEl.textContent = (isStandard() ? T('超时/不行动 ', 'timeouts+passes ') : T('超时 ', 'timeouts ')) + used + '/' + limit;
      stEl.textContent = T('已走 ', '') + stepsWord(seatSteps(v, seat));
      delete stEl.dataset.ready;
    } else {
      toEl.textContent = '';
      stEl.textContent = '';
      delete stEl.dataset.ready;
    }
    // While colours are undecided, each card shows the piece that player last flipped.
    const lf = card.querySelector('.pc-lastflip');
    const flip = v && seat && !v.colours && v.last_flips ? v.last_flips[seat] : null;
    lf.hidden = !flip;
    if (flip) {
      lf.replaceChildren(T('上次翻开：', 'last flip: ') + J.colourName(flip.colour) + ' ', J.pieceEl(flip.piece, flip.colour));
    }
    const off = card.querySelector('.pc-offline');
    off.hidden = !(S && S.connected && seat && !you && S.connected[seat] === false && isRunning());
    const lv = view();
    card.classList.toggle('to-move', !!(lv && seat && isRunning() && lv.to_move === seat));
  }

  function renderPlayers() {
    if (!game()) return;
    if (status() === 'open' || status() === 'cancelled') {
      const creator = creatorName();
      const creatorP = { username: creator };
      for (const seat of SEATS) {
        const p = player(seat);
        if (p && sameUser(p.username, creator)) Object.assign(creatorP, p);
      }
      if (me && sameUser(creator, me)) {
        fillCard(els.bottom, '', creatorP, '—');
        fillCard(els.top, '', null, status() === 'open' ? T('等待对手…', 'Waiting for an opponent…') : '—');
      } else {
        fillCard(els.top, '', creator ? creatorP : null, '—');
        fillCard(els.bottom, '', null, me && status() === 'open' ? T('你？', 'You?') : '—');
      }
      return;
    }
    const bottomSeat = mySeat() || 'south';
    const topP = player(other(bottomSeat));
    const bottomP = player(bottomSeat);
    // After the end, the cards show the standings the players have now.
    const fresh = status() === 'finished';
    fillCard(els.bottom, bottomSeat, fresh ? infoOf(bottomP) : bottomP, J.seatName(bottomSeat));
    fillCard(els.top, other(bottomSeat), fresh ? infoOf(topP) : topP, J.seatName(other(bottomSeat)));
  }

  function renderCounters() {
    const g = game();
    const v = shown();
    if (v) {
      const standard = isStandard();
      // Standard 军棋 has no step limit (RULES §4.9).
      const total = standard ? null : v.steps_to_draw || 300;
      const quietMax = v.quiet_steps_to_draw || (standard ? 70 : 80);
      if (total) {
        els.steps.textContent = v.steps + ' / ' + total;
        els.steps.title = T('总步数，满 ' + total + ' 步判和', 'Steps played; ' + total + ' is a draw');
      } else {
        els.steps.textContent = String(v.steps);
        els.steps.title = T('总步数', 'Steps played');
      }
      els.quiet.textContent = (v.quiet_steps || 0) + ' / ' + quietMax;
      els.quiet.title = T('连续未吃子步数，满 ' + quietMax + ' 步判和', 'Steps since the last attack; ' + quietMax + ' is a draw');
      els.quiet.classList.toggle('near-limit', (v.quiet_steps || 0) >= quietMax - 10);
    } else if (g) {
      els.steps.textContent = String(g.steps || 0);
    }
    const s = perActionSeconds();
    els.perAction.textContent = s ? T(s + ' 秒/步', s + ' s/step') : '--';
    if (g) {
      const variant = g.variant === 'standard' ? T('军棋', 'Junqi') : g.variant === 'flip' ? T('翻翻棋', 'Flip chess') : '';
      els.kind.textContent = (variant ? variant + ' · ' : '') + (g.rated ? T('积分赛', 'Rated') : T('友谊赛', 'Casual'));
    }
  }

  function offersLeft(seat) {
    const v = view();
    const n = v && v.draw_offers_left ? v.draw_offers_left[seat] : null;
    return typeof n === 'number' ? n : Infinity;
  }

  function renderPanels() {
    const st = status();
    const seat = mySeat();
    const v = view();

    // Joining an open game, or waiting for someone to join yours.
    const open = st === 'open';
    const creator = amCreator();
    els.joinPanel.hidden = !(open && !creator);
    els.join.hidden = !(open && !creator && me);
    els.joinLogin.hidden = !(open && !me);
    if (open && !me) {
      els.joinLogin.href = '/login?next=' + encodeURIComponent('/game/' + gameId);
    }
    const cname = creatorName();
    els.joinText.textContent = cname
      ? T(cname + ' 在等待对手，加入开始对局。', cname + ' is waiting for an opponent. Join to start the game.')
      : T('这局在等待对手。', 'This game is waiting for an opponent.');
    els.waitPanel.hidden = !(open && creator);
    if (open && creator) els.inviteLink.value = window.location.origin + '/game/' + gameId;

    // Resign and draw offers.
    const running = isRunning();
    els.actions.hidden = !(seat && running && v);
    els.pass.hidden = !isStandard();
    if (seat && running && v) {
      const myTurn = v.to_move === seat;
      els.pass.disabled = !myTurn || !!awaiting;
      els.pass.title = T('不行动：放弃这一步，与超时同样计数（第 ' + (v.timeouts_to_lose || 5) + ' 次判负）',
        'Pass this turn; it counts like a timeout (the ' + (v.timeouts_to_lose || 5) + 'th loses)');
      const threshold = v.steps_before_resign_or_draw || 0;
      const allowed = v.steps >= threshold;
      const left = offersLeft(seat);
      els.resign.disabled = !allowed;
      els.offerDraw.disabled = !allowed || left <= 0 || !!v.open_offer;
      els.offerDraw.textContent = left === Infinity
        ? T('求和', 'Offer a draw')
        : T('求和（剩 ' + left + ' 次）', 'Offer a draw (' + left + ' left)');
      els.actionsHint.hidden = allowed;
      els.actionsHint.textContent = T(
        '满 ' + threshold + ' 步后可以认输或求和（现在 ' + v.steps + ' 步）',
        'Resigning and draw offers are allowed after ' + threshold + ' steps (now ' + v.steps + ')');
    }

    // A draw offer.
    const offer = v && running ? v.open_offer : null;
    const answer = !!(seat && offer && offer === other(seat));
    els.drawDialog.hidden = !answer;
    if (answer) {
      els.drawDialogText.textContent = T(playerName(offer) + ' 提出和棋，是否同意？', playerName(offer) + ' offers a draw. Do you accept?');
    }
    if (offer && !answer) {
      els.offerNote.hidden = false;
      els.offerNote.textContent = offer === seat
        ? T('你已提出和棋，等待对手答复…', 'You offered a draw; waiting for the answer…')
        : T(playerName(offer) + ' 提出了和棋', playerName(offer) + ' offered a draw');
    } else {
      els.offerNote.hidden = true;
    }

    renderResult();
  }

  function rankBlock(seat) {
    const p = player(seat);
    if (!p || !p.username) return null;
    const info = playerInfo[p.username.toLowerCase()];
    if (!info || !info.rank || typeof info.score !== 'number') return null;
    const rank = info.rank;
    const next = rank.next || null;
    let progress = typeof rank.progress === 'number' ? rank.progress : (next ? 0 : 1);
    progress = Math.max(0, Math.min(1, progress));
    const pct = Math.round(progress * 100);
    let nextText;
    if (next && typeof next.from_score === 'number') {
      const need = Math.max(0, next.from_score - info.score);
      nextText = T('距「' + next.chinese + '」还差 ' + need + ' 分（' + next.from_score + ' 分）',
        need + ' points to ' + (next.english || next.chinese) + ' (' + next.from_score + ')');
    } else {
      nextText = T('已是最高等级', 'Highest rank reached');
    }
    return J.el('div', { class: 'rank-block', dataset: { seat: seat } }, [
      J.el('div', { class: 'rank-head' }, [
        J.el('span', { class: 'rank-user', text: p.username }),
        J.el('span', { class: 'rank-name', text: rankName(rank), title: J.EN ? rank.chinese : rank.english }),
        J.el('span', { class: 'rank-score', text: T(info.score + ' 分', info.score + ' pts') }),
      ]),
      J.el('div', {
        class: 'rank-bar',
        role: 'progressbar',
        'aria-valuemin': 0,
        'aria-valuemax': 100,
        'aria-valuenow': pct,
        'aria-label': T('升级进度', 'Progress to the next rank'),
      }, [J.el('span', { class: 'rank-bar-fill', style: 'width:' + pct + '%' })]),
      J.el('div', { class: 'rank-next', text: nextText }),
    ]);
  }

  function renderResult() {
    const out = outcome();
    const g = game();
    const finished = !!out && (status() === 'finished' || (view() && view().outcome));
    els.result.hidden = !finished;
    if (!finished) return;
    loadStandings();
    const seat = mySeat();
    let word;
    let cls;
    if (!out.winner) {
      word = seat ? T('和', 'Draw') : T('和棋', 'Draw');
      cls = 'draw';
    } else if (seat) {
      word = out.winner === seat ? T('胜', 'You won') : T('负', 'You lost');
      cls = out.winner === seat ? 'win' : 'loss';
    } else {
      word = T(playerName(out.winner) + ' 胜', playerName(out.winner) + ' wins');
      cls = 'win';
    }
    els.resultWord.textContent = word;
    els.resultWord.dataset.result = cls;
    els.result.dataset.result = cls;
    els.resultReason.textContent = T('原因：', 'Reason: ') + J.reasonText(out.reason, variantName());
    els.resultReason.dataset.reason = out.reason || '';
    els.resultScores.replaceChildren();
    if (g && g.score) {
      for (const s of SEATS) {
        if (typeof g.score[s] !== 'number') continue;
        const n = g.score[s];
        els.resultScores.appendChild(J.el('li', { dataset: { seat: s } }, [
          J.el('span', { class: 'rs-name', text: playerName(s) }),
          J.el('span', { class: 'rs-delta ' + (n > 0 ? 'up' : n < 0 ? 'down' : 'zero'), text: J.signed(n) }),
        ]));
      }
    } else if (g && g.rated === false) {
      els.resultScores.appendChild(J.el('li', { class: 'muted', text: T('友谊赛，不计积分', 'Casual game: scores unchanged') }));
    }
    // Ranks: the viewer's own when seated, both players' for a spectator.
    const rankSeats = seat ? [seat] : SEATS;
    const blocks = rankSeats.map(rankBlock).filter(Boolean);
    els.resultRank.replaceChildren.apply(els.resultRank, blocks);
    els.resultRank.hidden = blocks.length === 0;
    // Rematch.
    const rm = S ? S.rematch : null;
    els.rematch.hidden = !seat;
    if (seat) {
      const asked = rematchAsked || !!(rm && rm[seat]);
      els.rematch.disabled = asked;
      els.rematch.textContent = asked ? T('已请求，等待对手…', 'Asked; waiting for your opponent…') : T('再来一局', 'Rematch');
      const theyAsked = !!(rm && rm[other(seat)]);
      els.rematchText.hidden = !theyAsked;
      els.rematchText.textContent = theyAsked ? T(playerName(other(seat)) + ' 想再来一局', playerName(other(seat)) + ' wants a rematch') : '';
    } else if (rm && rm.next) {
      els.rematchText.hidden = false;
      els.rematchText.replaceChildren(J.el('a', { href: '/game/' + encodeURIComponent(rm.next), text: T('观看下一局', 'Watch the next game') }));
    } else {
      els.rematchText.hidden = true;
    }
  }

  function legalIndex() {
    const v = view();
    const flips = new Set();
    const moves = {};
    if (!v || !isRunning() || !mySeat() || v.to_move !== mySeat()) return { flips: flips, moves: moves };
    for (const a of v.legal) {
      if (a.flip) flips.add(a.flip);
      else if (a.move) (moves[a.move.from] = moves[a.move.from] || []).push(a.move.to);
    }
    return { flips: flips, moves: moves };
  }

  function warnedDests(from) {
    const v = view();
    if (!v || !from) return [];
    return v.repetition_warnings
      .filter(function (a) { return a.move && a.move.from === from; })
      .map(function (a) { return a.move.to; });
  }

  function renderBoard() {
    if (!ui) return;
    if (markMenu && !markable(markMenu.at)) closeMarkMenu();
    if (R.active && R.positions) {
      const pos = R.positions[R.step];
      ui.render(pos.board, { last: pos.last, path: pos.last && pos.last.path });
      return;
    }
    if (deploying()) {
      renderDeployBoard();
      return;
    }
    const v = view();
    if (!v) {
      ui.render({}, {});
      return;
    }
    const idx = legalIndex();
    if (selected && !idx.moves[selected]) selected = null;
    const actionable = awaiting ? [] : Array.from(idx.flips).concat(Object.keys(idx.moves));
    const showDests = selected && !awaiting;
    const standard = isStandard();
    ui.render(v.board, {
      selected: selected,
      dests: showDests ? idx.moves[selected] : [],
      warn: showDests ? warnedDests(selected) : [],
      last: lastAction,
      actionable: actionable,
      named: standard,
      marks: standard && mySeat() ? S.marks : null,
    });
  }

  /** A deployment's square → piece map (values may be a name or {piece: name}). */
  function layoutPieces(layout) {
    const out = {};
    if (!layout || typeof layout !== 'object') return out;
    for (const sq of Object.keys(layout)) {
      const p = layout[sq];
      const piece = typeof p === 'string' ? p : p && typeof p.piece === 'string' ? p.piece : null;
      if (piece) out[sq] = piece;
    }
    return out;
  }

  function canRearrange() {
    const seat = mySeat();
    const dep = S && S.deploy;
    return !!(seat && dep && dep.layout && deploying() && !(dep.ready && dep.ready[seat]));
  }

  /** Deploying: only your own half, from your layout, with the squares that break a rule. */
  function renderDeployBoard() {
    const dep = S.deploy;
    const seat = mySeat();
    const board = {};
    if (seat) {
      const pieces = layoutPieces(dep.layout);
      const colour = standardColour(seat);
      for (const sq of Object.keys(pieces)) board[sq] = { piece: pieces[sq], colour: colour, face: 'up' };
    }
    const movable = canRearrange() && !deployPending;
    if (!movable) deploySel = null;
    if (deploySel && !board[deploySel]) deploySel = null;
    const bad = [];
    for (const x of (seat && Array.isArray(dep.violations) ? dep.violations : [])) {
      if (x && typeof x.square === 'string' && bad.indexOf(x.square) < 0) bad.push(x.square);
    }
    ui.render(board, {
      selected: deploySel,
      actionable: movable ? Object.keys(board) : [],
      bad: bad,
    });
  }

  // ---- deployment (standard 军棋) ---------------------------------------------------------

  const VIOLATIONS = {
    flag_outside_headquarters: ['军旗必须放在大本营', 'The flag must stand in one of your headquarters'],
    mine_forward: ['地雷只能放在最后两排', 'Mines may only stand on your last two ranks'],
    bomb_on_front_rank: ['炸弹不能放在第一排', 'Bombs may not stand on your front rank'],
    in_camp: ['行营开局必须空着', 'Camps start empty'],
    outside_own_half: ['棋子只能放在己方半场', 'Pieces go on your own half only'],
    empty_station: ['除行营外每个站位都要放一枚棋子', 'Every station of your half but the camps holds a piece'],
    wrong_count: ['棋子数目与整副棋不符', 'The pieces do not match the set'],
  };

  /** Why the server refused a deployment command, from its `reason` (and `violations`). */
  const REFUSALS = {
    already_ready: ['你已出征，布阵不能再改', 'You are ready: your layout is locked'],
    not_your_piece: ['只能交换自己的棋子', 'Only your own pieces can be swapped'],
    invalid_layout: ['布阵不合规则', 'The layout breaks the rules'],
    no_such_layout: ['找不到这个已存布阵', 'That saved layout was not found'],
    layouts_full: ['已存满 50 个布阵，请先删除一个', 'You already keep 50 layouts; delete one first'],
    deployment_over: ['布阵已经结束', 'Deployment is over'],
  };

  function refusalText(d) {
    const words = REFUSALS[d.reason] ? T(REFUSALS[d.reason][0], REFUSALS[d.reason][1]) : J.errorText(d.code, d.message);
    const why = Array.isArray(d.violations) ? d.violations.map(violationText) : [];
    return why.length ? words + T('：', ': ') + why.join(T('；', '; ')) : words;
  }

  function violationText(x) {
    const words = VIOLATIONS[x.code] ? T(VIOLATIONS[x.code][0], VIOLATIONS[x.code][1]) : x.message || String(x.code || '');
    return x.square ? x.square + T('：', ': ') + words : words;
  }

  /** Sends a deployment request and blocks the deployment controls until it is answered. */
  function sendDeploy(kind, data) {
    if (deployPending) return false;
    if (!send(kind, data)) return false;
    const a = ackSeq;
    deployPending = {
      a: a,
      kind: kind,
      timer: setTimeout(function () {
        if (deployPending && deployPending.a === a) {
          deployPending = null;
          renderDeploy();
          renderBoard();
        }
      }, 8000),
    };
    renderDeploy();
    renderBoard();
    return true;
  }

  function renderDeploy() {
    const on = deploying();
    els.deployPanel.hidden = !on;
    root.classList.toggle('is-deploying', on);
    if (!on) return;
    const dep = S.deploy;
    const seat = mySeat();
    const player = !!(seat && dep.layout);
    const ready = !!(seat && dep.ready && dep.ready[seat]);
    const problems = player && Array.isArray(dep.violations) ? dep.violations : [];
    els.deployText.textContent = !player
      ? T('双方正在布阵，双方出征后开始对局。', 'Both sides are deploying; play starts once both are ready.')
      : ready ? T('已出征，等待对手布阵…', 'You are ready; waiting for your opponent…')
        : T('摆好你的 25 枚棋子，然后出征。先出征的一方先走。', 'Arrange your 25 pieces, then press Ready. Whoever is ready first moves first.');

    // Of each side only ready or not.
    const order = seat ? [seat, other(seat)] : SEATS;
    els.deployReady.replaceChildren.apply(els.deployReady, order.map(function (s) {
      const r = !!(dep.ready && dep.ready[s]);
      const mine = s === seat;
      return J.el('li', { dataset: { seat: s, ready: r ? 'yes' : 'no' } }, [
        J.el('span', { class: 'dr-name', text: mine ? T('你', 'You') : playerName(s) }),
        J.el('span', {
          class: 'dr-flag',
          text: mine ? (r ? T('已出征', 'ready') : T('布阵中', 'deploying')) : r ? T('已就绪', 'ready') : T('未就绪', 'not ready'),
        }),
      ]);
    }));

    const tools = player && !ready;
    const busy = !!deployPending;
    els.deployTools.hidden = !tools;
    els.deployRandom.disabled = busy;
    els.deployLoad.disabled = busy;
    // Only a layout that keeps the rules is worth keeping.
    els.deploySave.disabled = busy || problems.length > 0;
    els.deploySave.title = problems.length ? T('布阵合规后才能保存', 'Fix the layout before saving it') : '';
    if (!tools || problems.length) {
      els.deploySaveForm.hidden = true;
      els.deploySave.setAttribute('aria-expanded', 'false');
    }
    if (!tools) {
      els.deployChooser.hidden = true;
      els.deploySaveForm.hidden = true;
      els.deployLoad.setAttribute('aria-expanded', 'false');
      els.deploySave.setAttribute('aria-expanded', 'false');
    }
    els.deployProblems.hidden = !problems.length;
    els.deployViolations.replaceChildren.apply(els.deployViolations, problems.map(function (x) {
      return J.el('li', { dataset: { code: x.code || '', square: x.square || '' }, text: violationText(x) });
    }));
    els.deployGo.hidden = !player;
    els.deployGo.disabled = ready || problems.length > 0 || busy;
    els.deployGo.textContent = ready ? T('已出征', 'Ready ✓') : T('出征', 'Ready');
    els.deployGo.title = problems.length ? T('先按提示调整布阵', 'Fix the layout first') : '';
    els.deployHint.hidden = !tools;
    renderDeployClock();
  }

  async function openChooser() {
    els.deployChooser.hidden = false;
    els.deployLoad.setAttribute('aria-expanded', 'true');
    els.deploySaveForm.hidden = true;
    els.deploySave.setAttribute('aria-expanded', 'false');
    els.deployChooserNote.textContent = T('正在读取…', 'Loading…');
    els.deploySaved.replaceChildren();
    let list;
    try {
      list = await J.api('GET', '/api/layouts');
    } catch (e) {
      els.deployChooserNote.textContent = e.message;
      return;
    }
    if (els.deployChooser.hidden) return;
    list = Array.isArray(list) ? list : [];
    els.deployChooserNote.replaceChildren(
      list.length ? T('选择一个已保存的布阵：', 'Choose a saved layout:')
        : T('还没有保存的布阵。摆好后点「保存布阵」。', 'No saved layouts yet. Arrange your pieces and press Save.'),
      ' ',
      // Opens beside the game: leaving this page for long would count as escaping.
      J.el('a', { href: '/layouts', target: '_blank', rel: 'noopener', text: T('管理布阵', 'Manage layouts') }));
    els.deploySaved.replaceChildren.apply(els.deploySaved, list.map(function (x) {
      return J.el('li', null, [
        J.el('button', {
          type: 'button',
          class: 'btn btn-ghost btn-small deploy-saved-pick',
          dataset: { id: String(x.id) },
          text: x.name || '#' + x.id,
        }),
      ]);
    }));
    // Keep the ids as the server wrote them (numbers).
    Array.from(els.deploySaved.querySelectorAll('.deploy-saved-pick')).forEach(function (b, i) {
      b.addEventListener('click', function () {
        if (sendDeploy('load_layout', { id: list[i].id })) closeChooser();
      });
    });
  }

  function closeChooser() {
    els.deployChooser.hidden = true;
    els.deployLoad.setAttribute('aria-expanded', 'false');
  }

  function wireDeploy() {
    els.deployRandom.addEventListener('click', function () {
      closeChooser();
      sendDeploy('random_layout');
    });
    els.deployLoad.addEventListener('click', function () {
      if (els.deployChooser.hidden) openChooser();
      else closeChooser();
    });
    els.deploySave.addEventListener('click', function () {
      const open = els.deploySaveForm.hidden;
      closeChooser();
      els.deploySaveForm.hidden = !open;
      els.deploySave.setAttribute('aria-expanded', open ? 'true' : 'false');
      if (open) els.deploySaveName.focus();
    });
    els.deploySaveForm.addEventListener('submit', function (ev) {
      ev.preventDefault();
      const name = els.deploySaveName.value.trim();
      if (!name) {
        J.toast(T('请输入布阵名称', 'Please name the layout'), 'error');
        return;
      }
      sendDeploy('save_layout', { name: name });
    });
    els.deployGo.addEventListener('click', function () {
      closeChooser();
      sendDeploy('ready');
    });
  }

  function onDeploySquare(sq) {
    if (!canRearrange()) {
      const seat = mySeat();
      if (seat && S.deploy.ready && S.deploy.ready[seat]) J.toast(T('已出征，不能再调整布阵', 'You are ready; the layout is locked'));
      return;
    }
    if (deployPending) return;
    const pieces = layoutPieces(S.deploy.layout);
    if (!pieces[sq]) {
      deploySel = null;
      renderBoard();
      return;
    }
    if (!deploySel) {
      deploySel = sq;
    } else if (deploySel === sq) {
      deploySel = null;
    } else {
      const a = deploySel;
      deploySel = null;
      if (pieces[a] !== pieces[sq]) sendDeploy('swap', { a: a, b: sq });
    }
    renderBoard();
  }

  function renderTallies() {
    const v = shown();
    els.talliesPanel.hidden = !v || !v.tallies || !v.tallies.length;
    // A finished game's move list (in the replay) is its log.
    els.logPanel.hidden = !view() || (R.active && liveLogCount === 0);
    if (!v || !v.tallies || !v.tallies.length) {
      els.tallies.replaceChildren(J.el('p', { class: 'muted', text: T('对局开始后显示', 'Shown once the game starts') }));
      return;
    }
    const rows = [];
    for (const colour of ['red', 'blue']) {
      const owner = SEATS.find(function (s) { return colourOf(s) === colour; });
      const head = [
        J.el('span', { class: 'tally-chip', dataset: { colour: colour } }),
        J.el('span', { class: 'tally-colour', text: J.colourName(colour) }),
      ];
      if (owner) {
        head.push(J.el('span', { class: 'tally-owner', text: playerName(owner) }));
        head.push(J.el('span', { class: 'tally-steps', dataset: { seat: owner }, text: stepsWord(seatSteps(v, owner)) }));
      } else {
        head.push(J.el('span', { class: 'tally-owner muted', text: T('未定', 'not yet taken') }));
      }
      const cells = [];
      for (const piece of J.PIECE_ORDER) {
        const t = v.tallies.find(function (x) { return x.piece === piece && x.colour === colour; });
        if (!t) continue;
        const dots = [];
        for (let i = 0; i < (t.up || 0); i++) dots.push(J.el('span', { class: 'dot dot-up' }));
        for (let i = 0; i < (t.down || 0); i++) dots.push(J.el('span', { class: 'dot dot-down' }));
        for (let i = 0; i < (t.removed || 0); i++) dots.push(J.el('span', { class: 'dot dot-removed' }));
        const nameAttrs = { class: 'tally-name', text: J.PIECE_NAMES[piece] };
        if (J.EN) nameAttrs.title = J.PIECE_EN[piece];
        cells.push(J.el('div', {
          class: 'tally',
          dataset: { piece: piece, colour: colour, up: t.up || 0, down: t.down || 0, removed: t.removed || 0 },
          title: T('翻开 ' + (t.up || 0) + '，未翻 ' + (t.down || 0) + '，阵亡 ' + (t.removed || 0),
            J.PIECE_EN[piece] + ': ' + (t.up || 0) + ' up, ' + (t.down || 0) + ' down, ' + (t.removed || 0) + ' removed'),
        }, [
          J.el('span', nameAttrs),
          J.el('span', { class: 'tally-dots' }, dots),
        ]));
      }
      rows.push(J.el('div', { class: 'tally-row tally-' + colour }, [
        J.el('div', { class: 'tally-label' }, head),
        J.el('div', { class: 'tally-cells' }, cells),
      ]));
    }
    els.tallies.replaceChildren.apply(els.tallies, rows);
  }

  function statusText() {
    const st = status();
    if (!st) return T('正在连接…', 'Connecting…');
    if (st === 'cancelled') return T('对局已取消', 'This game was cancelled');
    if (st === 'open') {
      if (amCreator()) return T('等待对手加入…', 'Waiting for an opponent to join…');
      return me ? T('对局等待中，点击“加入”开始', 'This game is open: press Join to play')
        : T('对局等待中，登录后可加入', 'This game is open: log in to join');
    }
    const out = outcome();
    if (out) {
      const seat = mySeat();
      const why = T('（', ' (') + J.reasonText(out.reason, variantName()) + T('）', ')');
      if (!out.winner) return T('对局结束：和棋', 'Game over: a draw') + why;
      if (seat) return T('对局结束：' + (out.winner === seat ? '你赢了' : '你输了'), 'Game over: ' + (out.winner === seat ? 'you won' : 'you lost')) + why;
      return T('对局结束：' + playerName(out.winner) + ' 胜', 'Game over: ' + playerName(out.winner) + ' wins') + why;
    }
    if (deploying()) {
      const seat = mySeat();
      const dep = S.deploy;
      if (!seat || !dep.layout) return T('布阵中', 'Deploying');
      if (dep.ready && dep.ready[seat]) {
        return dep.ready[other(seat)] ? T('双方已出征', 'Both sides are ready')
          : T('已出征，等待对手布阵…', 'Ready; waiting for your opponent to deploy…');
      }
      return T('布阵中：点击两枚棋子交换位置，完成后点「出征」', 'Deploy: tap two pieces to swap them, then press Ready');
    }
    const v = view();
    if (!v) return T('正在载入对局…', 'Loading the game…');
    const seat = mySeat();
    if (seat && v.to_move === seat) {
      return v.colours ? T('轮到你走棋', 'Your turn') : T('轮到你翻棋（颜色未定）', 'Your turn: flip a piece (colours not yet decided)');
    }
    if (seat) return T('等待对手 ' + playerName(v.to_move) + ' 行动…', 'Waiting for ' + playerName(v.to_move) + '…');
    const c = colourOf(v.to_move);
    return T('轮到 ' + playerName(v.to_move) + (c ? '（' + J.colourName(c) + '）' : ''),
      playerName(v.to_move) + (c ? ' (' + J.colourName(c) + ')' : '') + ' to play');
  }

  function renderStatus() {
    let text = statusText();
    if (!socketOpen && haveState && !leaving && status() === 'running') {
      text += T(' · 连接中断，正在重连…', ' · connection lost, reconnecting…');
    }
    els.status.textContent = text;
    const seat = mySeat();
    const v = view();
    els.status.classList.toggle('your-turn', !!(seat && v && isRunning() && v.to_move === seat));
    root.classList.toggle('your-turn', !!(seat && v && isRunning() && v.to_move === seat));
  }

  function logItem(d, stepNo, seeded) {
    const parts = describe(d, playerName);
    if (!parts) return null;
    return J.el('li', { class: 'log-' + d.kind + (d.seat ? ' log-' + d.seat : '') + (seeded ? ' log-seeded' : '') }, [
      stepNo ? J.el('span', { class: 'log-step', text: String(stepNo) }) : null,
      J.el('span', { class: 'log-text' }, parts),
    ]);
  }

  function logEvent(d) {
    const v = view();
    const stepNo = v && STEP_KINDS.indexOf(d.kind) >= 0 ? v.steps : null;
    const item = logItem(d, stepNo, false);
    if (!item) return;
    liveLogCount += 1;
    els.log.insertBefore(item, els.log.firstChild);
    if (d.outcome) {
      els.log.insertBefore(J.el('li', { class: 'log-end' }, [
        J.el('span', { class: 'log-text', text: outcomeText(d.outcome, playerName) }),
      ]), els.log.firstChild);
    }
    while (els.log.childNodes.length > 400) els.log.removeChild(els.log.lastChild);
  }

  // ---- the replay -----------------------------------------------------------------------------

  const RANKED = ['marshal', 'general', 'major_general', 'brigadier', 'colonel', 'major', 'captain', 'lieutenant', 'engineer'];

  /** RULES §2 and §3.6–7: what an attack does. */
  function resolveCombat(attacker, defender) {
    if (attacker === 'bomb' || defender === 'bomb') return 'both_removed';
    if (defender === 'mine') return attacker === 'engineer' ? 'attacker_wins' : 'defender_wins';
    if (defender === 'flag') return 'attacker_wins';
    const a = RANKED.indexOf(attacker);
    const d = RANKED.indexOf(defender);
    if (a >= 0 && d >= 0) {
      if (a < d) return 'attacker_wins';
      if (a === d) return 'both_removed';
    }
    return 'defender_wins';
  }

  function squareKey(sq) {
    return parseInt(sq.slice(1), 10) * 8 + 'abcde'.indexOf(sq.charAt(0));
  }

  /** The record's deal in square order: a1, b1, …, e1, a2, …, e12. */
  function dealSquares(deal) {
    return Object.keys(deal).sort(function (a, b) { return squareKey(a) - squareKey(b); });
  }

  /**
   * A standard record's two layouts as one deal: square → {piece, colour}, South's
   * pieces red and North's blue (README "Record format").
   */
  function layoutsDeal(layouts) {
    const deal = {};
    for (const seat of SEATS) {
      const pieces = layoutPieces(layouts && layouts[seat]);
      for (const sq of Object.keys(pieces)) deal[sq] = { piece: pieces[sq], colour: standardColour(seat) };
    }
    return deal;
  }

  /** The record's pieces at the start: the flip deal, or the standard layouts. */
  function recordDeal(rec) {
    return rec.deal || layoutsDeal(rec.layouts);
  }

  /** The commitment string the server hashed (RULES §3.1 / src/rules/deal.rs). */
  function commitmentInput(deal, salt) {
    return dealSquares(deal).map(function (sq) {
      return sq + ':' + deal[sq].piece + ':' + deal[sq].colour;
    }).join(';') + '|' + salt;
  }

  async function sha256Hex(text) {
    const bytes = new TextEncoder().encode(text);
    const digest = await window.crypto.subtle.digest('SHA-256', bytes);
    return Array.from(new Uint8Array(digest)).map(function (b) { return b.toString(16).padStart(2, '0'); }).join('');
  }

  /**
   * Replays a finished record: every position (board, tallies, counters, colours) after
   * each step, and each action in words. A flip-chess record starts from its deal, face
   * down; a standard one from both layouts, everything shown, with attacks resolved by
   * RULES §2 and §4.
   */
  function buildReplay(rec) {
    const standard = !rec.deal && !!rec.layouts;
    const deal = recordDeal(rec);
    const colourRule = (rec.options && rec.options.colour_rule) || 'match_previous';
    const board = {};
    const counts = {};
    for (const sq of dealSquares(deal)) {
      const e = deal[sq];
      board[sq] = { piece: e.piece, colour: e.colour, face: standard ? 'up' : 'down' };
      const k = e.piece + ':' + e.colour;
      counts[k] = (counts[k] || 0) + 1;
    }
    const tallies = [];
    if (!standard) {
      for (const colour of ['red', 'blue']) {
        for (const piece of J.PIECE_ORDER) {
          const n = counts[piece + ':' + colour] || 0;
          tallies.push({ piece: piece, colour: colour, up: 0, down: n, removed: 0 });
        }
      }
    }
    const noTally = { up: 0, down: 0, removed: 0 };
    const tallyOf = function (piece, colour) {
      return tallies.find(function (t) { return t.piece === piece && t.colour === colour; }) || Object.assign({}, noTally);
    };
    const live = view();
    const limits = standard ? {
      variant: 'standard',
      quiet_steps_to_draw: (live && live.quiet_steps_to_draw) || 70,
      steps_to_draw: null,
      timeouts_to_lose: (live && live.timeouts_to_lose) || 5,
    } : {
      variant: 'flip',
      quiet_steps_to_draw: (live && live.quiet_steps_to_draw) || 80,
      steps_to_draw: (live && live.steps_to_draw) || 300,
      timeouts_to_lose: (live && live.timeouts_to_lose) || 3,
    };
    let colours = standard ? { south: standardColour('south'), north: standardColour('north') } : null;
    let lastFlip = null;
    const ownLast = { south: null, north: null };
    let steps = 0;
    let quiet = 0;
    let toMove = rec.first || 'south';
    const timeouts = { south: 0, north: 0 };
    const seatStepCount = { south: 0, north: 0 };
    const lastFlips = { south: null, north: null };

    function snapshot(last) {
      return Object.assign({
        board: Object.assign({}, board),
        tallies: tallies.map(function (t) { return Object.assign({}, t); }),
        steps: steps,
        quiet_steps: quiet,
        colours: colours ? Object.assign({}, colours) : null,
        timeouts: Object.assign({}, timeouts),
        seat_steps: Object.assign({}, seatStepCount),
        last_flips: Object.assign({}, lastFlips),
        to_move: toMove,
        last: last,
      }, limits);
    }

    const positions = [snapshot(null)];
    const entries = [null]; // entries[n]: the words for step n
    const notes = []; // {after: step, d}
    const atMs = Array.isArray(rec.at_ms) ? rec.at_ms : [];
    rec.actions.forEach(function (act, i) {
      const seat = act.seat;
      let d = null;
      let last = null;
      let attack = false;
      if (act.flip) {
        const at = act.flip;
        const cell = board[at];
        if (!cell) throw new Error('flip of an empty square ' + at);
        board[at] = { piece: cell.piece, colour: cell.colour, face: 'up' };
        const t = tallyOf(cell.piece, cell.colour);
        t.down -= 1;
        t.up += 1;
        d = { kind: 'flip', seat: seat, at: at, piece: cell.piece, colour: cell.colour };
        if (!colours) {
          const takes = colourRule === 'first_flip' ? true
            : colourRule === 'two_in_a_row' ? ownLast[seat] === cell.colour
              : lastFlip === cell.colour;
          if (takes) {
            colours = {};
            colours[seat] = cell.colour;
            colours[other(seat)] = cell.colour === 'red' ? 'blue' : 'red';
            d.colours_assigned = Object.assign({}, colours);
          }
        }
        lastFlip = cell.colour;
        ownLast[seat] = cell.colour;
        lastFlips[seat] = { at: at, piece: cell.piece, colour: cell.colour };
        last = { at: at };
      } else if (act.move) {
        const from = act.move.from;
        const to = act.move.to;
        const mover = board[from];
        if (!mover) throw new Error('move from an empty square ' + from);
        const target = board[to] || null;
        if (target && target.colour === mover.colour) throw new Error('an attack on an own piece at ' + to);
        const path = window.JunqiBoard.pathBetween(ui.graph, board, from, to);
        delete board[from];
        let combat = null;
        if (!target) {
          board[to] = mover;
        } else {
          attack = true;
          combat = resolveCombat(mover.piece, target.piece);
          if (combat === 'attacker_wins') {
            tallyOf(target.piece, target.colour).up -= 1;
            tallyOf(target.piece, target.colour).removed += 1;
            board[to] = mover;
          } else if (combat === 'defender_wins') {
            tallyOf(mover.piece, mover.colour).up -= 1;
            tallyOf(mover.piece, mover.colour).removed += 1;
          } else {
            tallyOf(mover.piece, mover.colour).up -= 1;
            tallyOf(mover.piece, mover.colour).removed += 1;
            tallyOf(target.piece, target.colour).up -= 1;
            tallyOf(target.piece, target.colour).removed += 1;
            delete board[to];
          }
        }
        d = { kind: 'move', seat: seat, from: from, to: to, mover: mover, target: target, combat: combat };
        if (standard && combat) {
          // A marshal that falls shows its side's flag (everything is shown here already).
          const fallen = [];
          if (combat !== 'attacker_wins' && mover.piece === 'marshal') fallen.push(mover.colour);
          if (combat !== 'defender_wins' && target.piece === 'marshal') fallen.push(target.colour);
          const flags = [];
          for (const c of fallen) {
            for (const sq of Object.keys(board)) {
              if (board[sq].piece === 'flag' && board[sq].colour === c) flags.push(sq);
            }
          }
          if (flags.length) d.flags_revealed = flags;
        }
        last = { from: from, to: to, path: path };
      } else if (act.timeout || act.pass) {
        // In standard 军棋 a pass counts like a timeout.
        if (act.timeout || standard) timeouts[seat] += 1;
        d = { kind: act.timeout ? 'timeout' : 'pass', seat: seat };
      } else {
        const kind = act.offer_draw ? 'draw_offer' : act.accept_draw ? 'draw_accept'
          : act.decline_draw ? 'draw_decline' : act.resign ? 'resign' : act.escape ? 'escape' : null;
        if (kind) notes.push({ after: steps, d: { kind: kind, seat: seat }, at_ms: atMs[i] });
        return;
      }
      steps += 1;
      seatStepCount[seat] += 1;
      quiet = attack ? 0 : quiet + 1;
      toMove = other(seat);
      d.at_ms = atMs[i];
      entries.push(d);
      positions.push(snapshot(last));
    });
    return { positions: positions, entries: entries, notes: notes };
  }

  function maybeLoadReplay() {
    if (status() !== 'finished' || R.rec || R.loading || !ui) return;
    R.loading = true;
    J.api('GET', '/api/games/' + encodeURIComponent(gameId) + '/record').then(function (rec) {
      R.loading = false;
      if (!rec || !(rec.deal || rec.layouts) || !Array.isArray(rec.actions)) {
        // The end may still be on its way to the database: try again shortly.
        if (R.tries++ < 10) setTimeout(maybeLoadReplay, 400);
        return;
      }
      let built;
      try {
        built = buildReplay(rec);
      } catch (e) {
        J.toast(T('无法复盘这局棋谱', 'This record cannot be replayed') + ': ' + e.message, 'error');
        return;
      }
      R.rec = rec;
      if (!rec.deal) {
        els.replayHint.textContent = T('用 ← / → 键逐步查看，点击着法可跳到该步。复盘显示双方全部棋子。',
          'Use ← and → to step; click a move to jump to it. The replay shows every piece of both sides.');
      }
      R.positions = built.positions;
      R.entries = built.entries;
      R.notes = built.notes;
      R.active = true;
      buildMoveList();
      const fromHash = stepFromHash();
      R.step = fromHash !== null ? clampStep(fromHash) : R.positions.length - 1;
      checkCommitment(rec);
      renderAll();
      scrollCurrentIntoView();
    }).catch(function () {
      R.loading = false;
      if (R.tries++ < 10) setTimeout(maybeLoadReplay, 1000);
    });
  }

  function checkCommitment(rec) {
    if (!rec.salt || !rec.commitment || !window.crypto || !window.crypto.subtle || !window.TextEncoder) {
      R.browserCheck = 'unavailable';
      renderVerified();
      return;
    }
    sha256Hex(commitmentInput(recordDeal(rec), rec.salt)).then(function (hex) {
      R.browserCheck = hex === String(rec.commitment).toLowerCase() ? 'ok' : 'mismatch';
      renderVerified();
    }).catch(function () {
      R.browserCheck = 'unavailable';
      renderVerified();
    });
  }

  function renderVerified() {
    const rec = R.rec;
    if (!rec) return;
    const good = rec.verified === true && R.browserCheck !== 'mismatch';
    const standard = !rec.deal && !!rec.layouts;
    els.dealVerified.hidden = !good;
    els.dealVerified.dataset.browser = R.browserCheck || 'pending';
    if (standard) {
      els.dealVerifiedText.textContent = T('布阵已验证', 'Layouts verified');
      els.dealUnverifiedText.textContent = T('布阵未通过验证', 'Layouts not verified');
      els.dealVerified.title = R.browserCheck === 'ok'
        ? T('服务器已按双方布阵重放本局，浏览器也核对了 SHA-256 承诺', 'The server replayed the game from both layouts, and this browser checked the SHA-256 commitment')
        : T('服务器已按双方布阵重放本局并核对承诺', 'The server replayed the game from both layouts and checked the commitment');
      els.dealUnverified.title = R.browserCheck === 'mismatch'
        ? T('布阵与开局时公布的承诺不符', 'The layouts do not match the commitment published at the start')
        : '';
    } else {
      els.dealVerified.title = R.browserCheck === 'ok'
        ? T('服务器已按发牌重放本局，浏览器也核对了 SHA-256 承诺', 'The server replayed the game from the deal, and this browser checked the SHA-256 commitment')
        : T('服务器已按发牌重放本局并核对承诺', 'The server replayed the game from the deal and checked the commitment');
      els.dealUnverified.title = R.browserCheck === 'mismatch'
        ? T('发牌与开局时公布的承诺不符', 'The deal does not match the commitment published at the start')
        : '';
    }
    if (rec.commitment) {
      els.replayCommitment.hidden = false;
      els.replayCommitment.replaceChildren(
        T('开局承诺 SHA-256：', 'Commitment (SHA-256): '),
        J.el('code', { text: rec.commitment }),
        R.browserCheck === 'ok' ? T('（浏览器已核对）', ' (checked in this browser)') : '');
    }
  }

  function clampStep(n) {
    if (!R.positions) return 0;
    const last = R.positions.length - 1;
    if (typeof n !== 'number' || Number.isNaN(n)) return 0;
    return Math.max(0, Math.min(last, Math.floor(n)));
  }

  function stepFromHash() {
    const m = /(?:^#|&)step=(\d+)/.exec(window.location.hash || '');
    return m ? parseInt(m[1], 10) : null;
  }

  function nameOfSeat(seat) { return playerName(seat); }

  function buildMoveList() {
    const items = [];
    const total = R.positions.length - 1;
    const notesAfter = {};
    for (const n of R.notes) (notesAfter[n.after] = notesAfter[n.after] || []).push(n);
    const noteItems = function (step) {
      return (notesAfter[step] || []).map(function (n) {
        return J.el('li', { class: 'replay-note', dataset: { after: step } }, [
          J.el('span', { class: 'rm-text' }, describe(n.d, nameOfSeat) || []),
        ]);
      });
    };
    items.push(J.el('li', { class: 'rm-start', dataset: { step: 0 }, tabindex: -1 }, [
      J.el('span', { class: 'rm-no', text: '0' }),
      J.el('span', {
        class: 'rm-text',
        text: R.rec.deal ? T('开局：50 枚棋子背面朝上', 'The deal: 50 pieces face down')
          : T('开局：双方布阵', 'The start: both layouts'),
      }),
    ]));
    items.push.apply(items, noteItems(0));
    for (let n = 1; n <= total; n++) {
      const d = R.entries[n];
      const attrs = { class: 'rm-' + d.kind + ' rm-' + d.seat, dataset: { step: n }, tabindex: -1 };
      if (typeof d.at_ms === 'number') attrs.title = formatMs(d.at_ms);
      items.push(J.el('li', attrs, [
        J.el('span', { class: 'rm-no', text: String(n) }),
        J.el('span', { class: 'rm-text' }, describe(d, nameOfSeat) || []),
      ]));
      items.push.apply(items, noteItems(n));
    }
    const out = outcome() || (R.rec.result ? {
      winner: R.rec.result === 'draw' ? null : R.rec.result,
      reason: R.rec.reason,
    } : null);
    if (out) {
      items.push(J.el('li', { class: 'replay-note rm-end' }, [
        J.el('span', { class: 'rm-text', text: outcomeText(out, nameOfSeat) }),
      ]));
    }
    els.replayMoves.replaceChildren.apply(els.replayMoves, items);
  }

  function formatMs(ms) {
    const s = Math.floor(ms / 1000);
    const m = Math.floor(s / 60);
    const h = Math.floor(m / 60);
    const pad = function (x) { return String(x).padStart(2, '0'); };
    return (h ? h + ':' + pad(m % 60) : String(m)) + ':' + pad(s % 60);
  }

  function renderReplay() {
    els.replay.hidden = !(R.active && R.positions);
    if (els.replay.hidden) return;
    const total = R.positions.length - 1;
    els.replayStep.textContent = R.step + ' / ' + total;
    els.replayStep.dataset.step = R.step;
    els.replayStep.dataset.total = total;
    els.replayFirst.disabled = R.step === 0;
    els.replayPrev.disabled = R.step === 0;
    els.replayNext.disabled = R.step === total;
    els.replayLast.disabled = R.step === total;
    const d = R.entries[R.step];
    if (d) {
      els.replayNow.replaceChildren.apply(els.replayNow,
        [J.el('strong', { text: T('第 ' + R.step + ' 步：', 'Step ' + R.step + ': ') })].concat(describe(d, nameOfSeat) || []));
    } else {
      els.replayNow.textContent = R.rec && !R.rec.deal
        ? T('开局：双方布阵，全部棋子明示', 'The start: both layouts, every piece shown')
        : T('开局：发牌已揭晓，所有棋子都显示了名称', 'The deal, revealed: every piece is named');
    }
    const cur = els.replayMoves.querySelector('li.current');
    if (cur) {
      cur.classList.remove('current');
      cur.removeAttribute('aria-current');
    }
    const li = els.replayMoves.querySelector('li[data-step="' + R.step + '"]');
    if (li) {
      li.classList.add('current');
      li.setAttribute('aria-current', 'step');
    }
    const hash = '#step=' + R.step;
    els.replayShare.href = hash;
    if (els.langSwitch) {
      const base = (els.langSwitch.getAttribute('href') || '').split('#')[0];
      els.langSwitch.setAttribute('href', base + (stepFromHash() !== null ? hash : ''));
    }
    renderVerified();
  }

  function scrollCurrentIntoView() {
    const li = els.replayMoves.querySelector('li.current');
    if (!li) return;
    const box = els.replayMoves;
    const top = li.offsetTop; // the list is the offset parent (position: relative)
    if (top < box.scrollTop || top + li.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = Math.max(0, top - box.clientHeight / 2);
    }
  }

  function goToStep(n, fromHash) {
    if (!R.active || !R.positions) return;
    R.step = clampStep(n);
    if (!fromHash) {
      const url = window.location.pathname + window.location.search + '#step=' + R.step;
      try {
        window.history.replaceState(null, '', url);
      } catch (e) {
        window.location.hash = 'step=' + R.step;
      }
    }
    renderPlayers();
    renderCounters();
    renderBoard();
    renderTallies();
    renderReplay();
    scrollCurrentIntoView();
  }

  function wireReplay() {
    els.replayFirst.addEventListener('click', function () { goToStep(0); });
    els.replayPrev.addEventListener('click', function () { goToStep(R.step - 1); });
    els.replayNext.addEventListener('click', function () { goToStep(R.step + 1); });
    els.replayLast.addEventListener('click', function () { goToStep(Infinity); });
    els.replayMoves.addEventListener('click', function (ev) {
      const li = ev.target.closest('li[data-step]');
      if (li && els.replayMoves.contains(li)) goToStep(parseInt(li.dataset.step, 10));
    });
    els.replayShare.addEventListener('click', function (ev) {
      ev.preventDefault();
      goToStep(R.step);
    });
    els.replayCopy.addEventListener('click', async function () {
      const url = window.location.origin + window.location.pathname + '#step=' + R.step;
      const ok = await J.copyText(url);
      J.toast(ok ? T('已复制本步链接', 'Link to this step copied') : url);
    });
    window.addEventListener('hashchange', function () {
      const n = stepFromHash();
      if (n !== null && R.active && n !== R.step) goToStep(n, true);
    });
    document.addEventListener('keydown', function (ev) {
      if (!R.active || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      const tag = ev.target && ev.target.tagName;
      if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || (ev.target && ev.target.isContentEditable)) return;
      let n = null;
      if (ev.key === 'ArrowLeft') n = R.step - 1;
      else if (ev.key === 'ArrowRight') n = R.step + 1;
      else if (ev.key === 'Home') n = 0;
      else if (ev.key === 'End') n = Infinity;
      if (n === null) return;
      ev.preventDefault();
      goToStep(n);
    });
  }

  // ---- interaction ------------------------------------------------------------------------------

  // ---- piece marks (子力标记, standard 军棋) ------------------------------------------------------

  const MARKS = [
    ['司', '司令', 'marshal'], ['军', '军长', 'general'], ['师', '师长', 'major general'],
    ['旅', '旅长', 'brigadier'], ['团', '团长', 'colonel'], ['营', '营长', 'major'],
    ['连', '连长', 'captain'], ['排', '排长', 'lieutenant'], ['兵', '工兵', 'engineer'],
    ['弹', '炸弹', 'bomb'], ['雷', '地雷', 'mine'], ['旗', '军旗', 'flag'],
    ['?', '不明', 'unknown'], ['大', '大子', 'a big piece'], ['小', '小子', 'a small piece'],
    ['>', '比我方棋子大', 'stronger than mine'], ['清', '清除这个标记', 'clear this mark'],
    ['全清', '清除全部标记', 'clear all marks'],
  ];
  let markPending = null; // {a, before} while a mark request waits for its answer

  /** An opponent's piece this player does not know: one they may mark. */
  function markable(sq) {
    const v = view();
    const seat = mySeat();
    if (!v || !seat || !isStandard() || !isRunning() || R.active) return false;
    const cell = v.board[sq];
    return !!(cell && !cell.piece && cell.colour && cell.colour !== colourOf(seat));
  }

  function closeMarkMenu() {
    if (!markMenu) return;
    markMenu.el.remove();
    markMenu = null;
  }

  function openMarkMenu(sq) {
    closeMarkMenu();
    const current = S.marks && Object.prototype.hasOwnProperty.call(S.marks, sq) ? S.marks[sq] : null;
    const buttons = MARKS.map(function (m) {
      const attrs = {
        type: 'button',
        class: 'mark-choice' + (m[0] === current ? ' is-current' : '') + (m[0].length > 1 ? ' mark-wide' : ''),
        dataset: { mark: m[0] },
        title: T(m[1], m[2]),
        'aria-label': T(m[1], m[2]),
        text: m[0],
      };
      if (m[0] === '清' && !current) attrs.disabled = true;
      return J.el('button', attrs);
    });
    const el = J.el('div', { class: 'mark-menu', id: 'mark-menu', role: 'dialog', 'aria-label': T('标记 ' + sq, 'Mark ' + sq), dataset: { square: sq } }, [
      J.el('div', { class: 'mark-menu-head' }, [
        J.el('span', { text: T('标记 ' + sq + ' 的棋子', 'Mark the piece on ' + sq) }),
        J.el('button', { type: 'button', class: 'mark-close', 'aria-label': T('关闭', 'Close'), text: '×' }),
      ]),
      J.el('div', { class: 'mark-grid' }, buttons),
    ]);
    el.addEventListener('click', function (ev) {
      const b = ev.target.closest('button');
      if (!b || !el.contains(b)) return;
      if (b.classList.contains('mark-close')) {
        closeMarkMenu();
        return;
      }
      if (b.dataset.mark) chooseMark(sq, b.dataset.mark);
    });
    els.boardWrap.appendChild(el);
    markMenu = { at: sq, el: el };
    placeMarkMenu();
    const first = el.querySelector('.mark-choice');
    if (first) first.focus({ preventScroll: true });
  }

  /** Puts the menu next to its square, inside the board. */
  function placeMarkMenu() {
    if (!markMenu) return;
    const hit = els.svg.querySelector('g[data-square="' + markMenu.at + '"] .hit');
    if (!hit) return;
    const wrap = els.boardWrap.getBoundingClientRect();
    const r = hit.getBoundingClientRect();
    const el = markMenu.el;
    const w = el.offsetWidth;
    const h = el.offsetHeight;
    let left = r.left - wrap.left + r.width / 2 - w / 2;
    left = Math.max(0, Math.min(wrap.width - w, left));
    let top = r.bottom - wrap.top + 2;
    if (top + h > wrap.height) top = Math.max(0, r.top - wrap.top - h - 2);
    el.style.left = Math.round(left) + 'px';
    el.style.top = Math.round(top) + 'px';
  }

  function chooseMark(sq, mark) {
    const before = Object.assign({}, S.marks || {});
    const ok = mark === '全清' ? send('mark', { mark: '全清' }) : send('mark', { at: sq, mark: mark });
    closeMarkMenu();
    if (!ok) return;
    markPending = { a: ackSeq, before: before };
    // At once; the server's `marks` answer confirms it.
    if (mark === '全清') S.marks = {};
    else if (mark === '清') delete S.marks[sq];
    else S.marks[sq] = mark;
    renderBoard();
  }

  function wireMarks() {
    document.addEventListener('pointerdown', function (ev) {
      if (!markMenu) return;
      const t = ev.target;
      if (markMenu.el.contains(t) || els.svg.contains(t)) return;
      closeMarkMenu();
    });
    document.addEventListener('keydown', function (ev) {
      if (markMenu && ev.key === 'Escape') closeMarkMenu();
    });
    window.addEventListener('resize', placeMarkMenu);
  }

  function onSquare(sq) {
    if (markMenu) {
      const was = markMenu.at;
      closeMarkMenu();
      if (was === sq) return; // a second tap on the same piece just closes the menu
    }
    if (deploying()) {
      onDeploySquare(sq);
      return;
    }
    const v = view();
    const seat = mySeat();
    if (!v || !seat || !isRunning()) return;
    const canMark = markable(sq);
    if (v.to_move !== seat) {
      if (canMark) {
        openMarkMenu(sq);
        return;
      }
      const cell = v.board[sq];
      if (cell) J.toast(T('还没轮到你', 'It is not your turn yet'));
      return;
    }
    if (awaiting) return;
    const idx = legalIndex();
    if (selected && idx.moves[selected] && idx.moves[selected].indexOf(sq) >= 0) {
      playMove(selected, sq);
      return;
    }
    if (idx.flips.has(sq)) {
      selected = null;
      if (send('flip', { at: sq }, true)) renderBoard();
      return;
    }
    if (idx.moves[sq]) {
      selected = selected === sq ? null : sq;
      renderBoard();
      return;
    }
    if (canMark) {
      // Not a target of the selected piece: mark it instead.
      selected = null;
      renderBoard();
      openMarkMenu(sq);
      return;
    }
    const cell = v.board[sq];
    const known = cell && cell.piece && (cell.face === 'up' || isStandard());
    if (known && cell.colour && cell.colour === colourOf(seat)) {
      const st = ui.graph.stations[sq];
      if (cell.piece === 'mine' || cell.piece === 'flag') {
        J.toast(T(J.PIECE_NAMES[cell.piece] + '不能移动', J.PIECE_NAMES[cell.piece] + ' (' + J.PIECE_EN[cell.piece] + ') cannot move'));
      } else if (isStandard() && st && st.kind === 'headquarters') {
        J.toast(T('进入大本营的棋子不能再移动', 'A piece in a headquarters never moves again'));
      } else {
        J.toast(T('这枚棋子现在无路可走', 'This piece has no move now'));
      }
    }
    selected = null;
    renderBoard();
  }

  function playMove(from, to) {
    const warned = warnedDests(from).indexOf(to) >= 0;
    if (warned && !window.confirm(T(
      '这是你最近 8 步内第 4 次走 ' + from + '→' + to + '，会因重复走棋判负。确定要走吗？',
      'This is the 4th time within your last 8 steps that you play ' + from + '→' + to + ': you would lose by repetition. Play it anyway?'))) {
      return;
    }
    selected = null;
    if (send('move', { from: from, to: to }, true)) renderBoard();
  }

  function wireButtons() {
    els.resign.addEventListener('click', function () {
      if (!window.confirm(T('确定认输吗？', 'Resign this game?'))) return;
      send('resign');
    });
    els.pass.addEventListener('click', function () {
      const v = view();
      const seat = mySeat();
      if (!v || !seat || v.to_move !== seat || awaiting) return;
      const limit = v.timeouts_to_lose || 5;
      const used = (v.timeouts && v.timeouts[seat]) || 0;
      if (used + 1 >= limit && !window.confirm(T(
        '这是你第 ' + limit + ' 次超时或不行动，会判负。确定不行动吗？',
        'This would be your ' + limit + 'th timeout or pass: you would lose. Pass anyway?'))) {
        return;
      }
      selected = null;
      closeMarkMenu();
      if (send('pass', undefined, true)) {
        renderBoard();
        renderPanels();
      }
    });
    els.offerDraw.addEventListener('click', function () {
      if (send('draw_offer')) els.offerDraw.disabled = true;
    });
    els.acceptDraw.addEventListener('click', function () {
      if (send('draw_accept')) els.drawDialog.hidden = true;
    });
    els.declineDraw.addEventListener('click', function () {
      if (send('draw_decline')) els.drawDialog.hidden = true;
    });
    els.rematch.addEventListener('click', function () {
      if (send('rematch')) {
        rematchAsked = true;
        rematchAskedAck = ackSeq;
        renderResult();
      }
    });
    els.join.addEventListener('click', async function () {
      els.join.disabled = true;
      try {
        await J.api('POST', '/api/games/' + encodeURIComponent(gameId) + '/join');
        reconnect(true); // this socket was a spectator's; a new one gets the seat's view
        await refreshSummary(true);
      } catch (e) {
        J.toast(e.message, 'error');
        await refreshSummary();
      } finally {
        els.join.disabled = false;
      }
    });
    els.copyInvite.addEventListener('click', async function () {
      const ok = await J.copyText(els.inviteLink.value);
      if (ok) J.toast(T('邀请链接已复制', 'Invitation link copied'));
      else {
        els.inviteLink.select();
        J.toast(T('请手动复制链接', 'Please copy the link by hand'));
      }
    });
    els.inviteLink.addEventListener('focus', function () { els.inviteLink.select(); });
    els.cancelGame.addEventListener('click', async function () {
      els.cancelGame.disabled = true;
      try {
        await J.api('POST', '/api/games/' + encodeURIComponent(gameId) + '/cancel');
        window.location.assign('/');
      } catch (e) {
        J.toast(e.message, 'error');
        els.cancelGame.disabled = false;
      }
    });
    wireReplay();
    wireDeploy();
    wireMarks();
  }

  // ---- the game summary (before the first state, and while the game is open) -------------

  async function refreshSummary(noReconnect) {
    try {
      const g = await J.api('GET', '/api/games/' + encodeURIComponent(gameId));
      if (!g) return null;
      const before = status();
      if (S) {
        // The live copy wins, except while the game is open (a join starts it) or when
        // the summary knows of a cancellation.
        if (before === 'open' || g.status === 'cancelled') {
          S.game = Object.assign({}, S.game, g);
          if (!noReconnect && before === 'open' && g.status !== 'open' && g.status !== 'cancelled') {
            reconnect(true); // the game started: a new socket gets this seat's view
          }
        }
      } else {
        summary = g;
      }
      if (g.status === 'open' && !openCreator) await findOpenCreator();
      maybeLoadReplay();
      renderAll();
      return g;
    } catch (e) {
      if (e.status === 404) {
        leaving = true;
        els.status.textContent = T('找不到这局对局', 'No such game');
        if (ws) ws.close();
      }
      return null;
    }
  }

  /** The summary of an open game may not name its creator; the open list does. */
  async function findOpenCreator() {
    try {
      const open = await J.api('GET', '/api/games/open');
      const mine = Array.isArray(open) ? open.find(function (x) { return x && x.id === gameId; }) : null;
      if (mine && mine.creator) openCreator = mine.creator;
    } catch (e) {
      // the page then offers to join; the server refuses a join of one's own game
    }
  }

  function pollWhileOpen() {
    setInterval(function () {
      if (leaving || document.hidden) return;
      if (status() === 'open') refreshSummary();
    }, 3000);
  }

  // ---- start ------------------------------------------------------------------------------------

  async function loadBoard() {
    let wait = 500;
    for (;;) {
      try {
        return await J.api('GET', '/api/board');
      } catch (e) {
        els.status.textContent = T('棋盘加载失败，正在重试…', 'Could not load the board; retrying…');
        await new Promise(function (r) { setTimeout(r, wait); });
        wait = Math.min(wait * 2, 10000);
      }
    }
  }

  async function start() {
    wireButtons();
    refreshSummary();
    const board = await loadBoard();
    if (leaving) return;
    ui = window.JunqiBoard.create(els.svg, board, { flipped: mySeat() === 'north' });
    ui.onSquareClick(onSquare);
    maybeLoadReplay();
    renderAll();
    connect();
    pollWhileOpen();
    setInterval(renderClocks, 200);
    document.addEventListener('visibilitychange', function () {
      if (!document.hidden && !ws && !leaving) {
        if (retryTimer) clearTimeout(retryTimer);
        retryTimer = null;
        scheduleReconnect(true);
      }
    });
    window.addEventListener('pagehide', function () { leaving = true; });
    window.addEventListener('pageshow', function (ev) {
      if (ev.persisted) {
        leaving = false;
        reconnect(false);
      }
    });
  }

  start();
})();
