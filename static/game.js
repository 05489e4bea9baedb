// The live game page: one WebSocket to /ws/game/{id} (docs/protocol.md), the board,
// players, clock, counters, draw offers, resignation, the result and rematches.
(function () {
  'use strict';
  const J = window.Junqi;
  const root = document.getElementById('game');
  if (!root || !window.JunqiBoard) return;

  const gameId = root.dataset.gameId;
  const me = root.dataset.user || null;
  const $ = function (id) { return document.getElementById(id); };
  const SEATS = ['south', 'north'];
  const other = function (seat) { return seat === 'south' ? 'north' : 'south'; };
  const sameUser = function (a, b) {
    return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
  };

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
  };

  // ---- state ------------------------------------------------------------------

  let ui = null; // the JunqiBoard
  let S = null; // the last state's `d`, kept current by events
  let summary = null; // GET /api/games/{id}, used before the first state
  let version = 0;
  let haveState = false;
  let selected = null;
  let lastAction = null; // {at} or {from, to}
  let clock = null; // {to_move, deadline, seconds}
  let history = { south: [], north: [] }; // each seat's recent steps: "a2-a3" or null
  let seededAt = -1; // the version `history` was last filled from the record at
  let awaiting = null; // {a, timer} while an action waits for its answer
  let ackSeq = 0;
  let rematchAsked = false;
  let rematchAskedAck = null;
  let navigating = false;
  const playerInfo = {}; // username (lower case) → player from /api/players/{name}
  let openCreator = null; // the creator of an open game, from /api/games/open

  // ---- helpers -------------------------------------------------------------------

  function game() { return S ? S.game : summary; }
  function view() { return S ? S.view : null; }
  function mySeat() { return S && (S.you === 'south' || S.you === 'north') ? S.you : null; }

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
    return p && p.username ? p.username : J.SEAT_NAMES[seat] + '方';
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

  function colourOf(seat) {
    const v = view();
    return v && v.colours ? v.colours[seat] : null;
  }

  function gotoGame(id) {
    if (navigating) return;
    navigating = true;
    window.location.assign('/game/' + encodeURIComponent(id));
  }

  function moveCode(from, to) { return from + '-' + to; }

  function reasonText(reason) {
    return J.REASONS[reason] || String(reason || '');
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
      J.toast('连接已断开，正在重连…', 'error');
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
        timer: setTimeout(function () { awaiting = null; renderBoard(); }, 8000),
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
        break;
      case 'error': {
        const d = msg.d || {};
        J.toast(d.message || '出错了', 'error');
        if (msg.a !== undefined && awaiting && awaiting.a === msg.a) clearAwaiting();
        if (d.code === 'illegal' || d.code === 'game_over') selected = null;
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

  function normaliseView(v) {
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
    if (S.view) normaliseView(S.view);
    version = typeof v === 'number' ? v : 0;
    haveState = true;
    clearAwaiting(); // a selection survives (renderBoard drops it if it is no longer legal)
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
    renderAll();
  }

  /** Fills each seat's recent steps (for repetition warnings) and the last action from the record. */
  function seedHistory() {
    if (!S || status() === 'open' || status() === 'cancelled') return;
    if (seededAt === version) return; // a state about presence changes nothing here
    const askedAt = version;
    J.api('GET', '/api/games/' + encodeURIComponent(gameId) + '/record').then(function (rec) {
      if (!rec || !Array.isArray(rec.actions) || version !== askedAt) return;
      const actions = rec.actions.length > askedAt ? rec.actions.slice(0, askedAt) : rec.actions;
      const h = { south: [], north: [] };
      let last = null;
      for (const act of actions) {
        if (!act || !h[act.seat]) continue;
        if (act.move && act.move.from && act.move.to) {
          h[act.seat].push(moveCode(act.move.from, act.move.to));
          last = { from: act.move.from, to: act.move.to };
        } else if (act.flip) {
          h[act.seat].push(null);
          last = { at: act.flip };
        } else if (act.timeout || act.pass) {
          h[act.seat].push(null);
        }
      }
      history = { south: h.south.slice(-16), north: h.north.slice(-16) };
      seededAt = askedAt;
      if (!lastAction && last) lastAction = last;
      renderBoard();
    }).catch(function () { /* warnings then rest on what this page saw */ });
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
        step(seat, null, false);
        stepped = true;
        lastAction = { at: d.at };
        break;
      case 'move': {
        const target = v.board[d.to];
        const mover = d.mover || v.board[d.from];
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
        step(seat, moveCode(d.from, d.to), attacked);
        stepped = true;
        lastAction = { from: d.from, to: d.to };
        break;
      }
      case 'timeout':
      case 'pass':
        if (d.kind === 'timeout') v.timeouts[seat] = (v.timeouts[seat] || 0) + 1;
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
    if (Array.isArray(d.flags_revealed) && d.flags_revealed.length) needFresh = true;
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

    if (needFresh || (stepped && v.variant && v.variant !== 'flip')) {
      // This page only mirrors the flip-chess rules; anything else is fetched whole.
      reconnect(true);
      return;
    }
    recomputeLegal(d);
    if (stepped && awaiting && seat === mySeat()) clearAwaiting();
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
    v.legal = ui.legalActions(v, seat);
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
      if (isRunning() && (seat === 'south' || seat === 'north')) {
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
  }

  // ---- rendering -------------------------------------------------------------------------

  function renderAll() {
    renderPlayers();
    renderCounters();
    renderPanels();
    renderBoard();
    renderTallies();
    renderClocks();
    renderStatus();
  }

  function rankLine(p) {
    if (!p) return '';
    let info = p;
    if (!(p.rank && p.rank.chinese) && p.username) {
      info = playerInfo[p.username.toLowerCase()] || p;
    }
    const parts = [];
    if (info.rank && info.rank.chinese) parts.push(info.rank.chinese);
    if (typeof info.score === 'number') parts.push(info.score + ' 分');
    return parts.join(' · ');
  }

  function loadPlayers() {
    for (const seat of SEATS) {
      const p = player(seat);
      if (!p || !p.username || (p.rank && p.rank.chinese)) continue;
      const key = p.username.toLowerCase();
      if (playerInfo[key]) continue;
      playerInfo[key] = { username: p.username };
      J.api('GET', '/api/players/' + encodeURIComponent(p.username)).then(function (info) {
        if (info && info.username) {
          playerInfo[key] = info;
          renderPlayers();
        }
      }).catch(function () { /* the card shows the name alone */ });
    }
  }

  function fillCard(card, seat, p, placeholder) {
    card.dataset.seat = seat || '';
    const you = seat && seat === mySeat();
    const nameEl = card.querySelector('.pc-name');
    nameEl.textContent = p && p.username ? p.username : placeholder;
    card.classList.toggle('is-you', !!you);
    card.classList.toggle('is-empty', !(p && p.username));
    const colourEl = card.querySelector('.pc-colour');
    const colour = seat ? colourOf(seat) : null;
    colourEl.dataset.colour = colour || '';
    colourEl.textContent = colour ? (colour === 'red' ? '红' : '蓝') : '?';
    colourEl.title = colour ? J.COLOUR_NAMES[colour] : '颜色未定';
    card.querySelector('.pc-rank').textContent = rankLine(p);
    const v = view();
    const toEl = card.querySelector('.pc-timeouts');
    if (v && seat && status() !== 'open') {
      toEl.textContent = '超时 ' + (v.timeouts[seat] || 0) + '/' + (v.timeouts_to_lose || 3);
    } else {
      toEl.textContent = '';
    }
    const off = card.querySelector('.pc-offline');
    off.hidden = !(S && S.connected && seat && !you && S.connected[seat] === false && isRunning());
    card.classList.toggle('to-move', !!(v && seat && isRunning() && v.to_move === seat));
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
        fillCard(els.top, '', null, status() === 'open' ? '等待对手…' : '—');
      } else {
        fillCard(els.top, '', creator ? creatorP : null, '—');
        fillCard(els.bottom, '', null, me && status() === 'open' ? '你？' : '—');
      }
      return;
    }
    const bottomSeat = mySeat() || 'south';
    fillCard(els.bottom, bottomSeat, player(bottomSeat), J.SEAT_NAMES[bottomSeat] + '方');
    fillCard(els.top, other(bottomSeat), player(other(bottomSeat)), J.SEAT_NAMES[other(bottomSeat)] + '方');
  }

  function renderCounters() {
    const g = game();
    const v = view();
    if (v) {
      els.steps.textContent = v.steps + (v.steps_to_draw ? ' / ' + v.steps_to_draw : '');
      els.quiet.textContent = v.quiet_steps + ' / ' + (v.quiet_steps_to_draw || 80);
    } else if (g) {
      els.steps.textContent = String(g.steps || 0);
    }
    const s = perActionSeconds();
    els.perAction.textContent = s ? s + ' 秒/步' : '--';
    if (g) els.kind.textContent = g.rated ? '积分赛' : '友谊赛';
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
    els.joinText.textContent = cname ? cname + ' 在等待对手，加入开始对局。' : '这局在等待对手。';
    els.waitPanel.hidden = !(open && creator);
    if (open && creator) els.inviteLink.value = window.location.origin + '/game/' + gameId;

    // Resign and draw offers.
    const running = isRunning();
    els.actions.hidden = !(seat && running);
    if (seat && running && v) {
      const threshold = v.steps_before_resign_or_draw || 0;
      const allowed = v.steps >= threshold;
      const left = offersLeft(seat);
      els.resign.disabled = !allowed;
      els.offerDraw.disabled = !allowed || left <= 0 || !!v.open_offer;
      els.offerDraw.textContent = left === Infinity ? '求和' : '求和（剩 ' + left + ' 次）';
      els.actionsHint.hidden = allowed;
      els.actionsHint.textContent = '满 ' + threshold + ' 步后可以认输或求和（现在 ' + v.steps + ' 步）';
    }

    // A draw offer.
    const offer = v && running ? v.open_offer : null;
    const answer = !!(seat && offer && offer === other(seat));
    els.drawDialog.hidden = !answer;
    if (answer) els.drawDialogText.textContent = playerName(offer) + ' 提出和棋，是否同意？';
    if (offer && !answer) {
      els.offerNote.hidden = false;
      els.offerNote.textContent = offer === seat ? '你已提出和棋，等待对手答复…' : playerName(offer) + ' 提出了和棋';
    } else {
      els.offerNote.hidden = true;
    }

    renderResult();
  }

  function renderResult() {
    const out = outcome();
    const g = game();
    const finished = !!out && (status() === 'finished' || (view() && view().outcome));
    els.result.hidden = !finished;
    if (!finished) return;
    const seat = mySeat();
    let word;
    let cls;
    if (!out.winner) {
      word = seat ? '和' : '和棋';
      cls = 'draw';
    } else if (seat) {
      word = out.winner === seat ? '胜' : '负';
      cls = out.winner === seat ? 'win' : 'loss';
    } else {
      word = playerName(out.winner) + ' 胜';
      cls = 'win';
    }
    els.resultWord.textContent = word;
    els.resultWord.dataset.result = cls;
    els.result.dataset.result = cls;
    els.resultReason.textContent = '原因：' + reasonText(out.reason);
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
      els.resultScores.appendChild(J.el('li', { class: 'muted', text: '友谊赛，不计积分' }));
    }
    // Rematch.
    const rm = S ? S.rematch : null;
    els.rematch.hidden = !seat;
    if (seat) {
      const asked = rematchAsked || !!(rm && rm[seat]);
      els.rematch.disabled = asked;
      els.rematch.textContent = asked ? '已请求，等待对手…' : '再来一局';
      const theyAsked = !!(rm && rm[other(seat)]);
      els.rematchText.hidden = !theyAsked;
      els.rematchText.textContent = theyAsked ? playerName(other(seat)) + ' 想再来一局' : '';
    } else if (rm && rm.next) {
      els.rematchText.hidden = false;
      els.rematchText.replaceChildren(J.el('a', { href: '/game/' + encodeURIComponent(rm.next), text: '观看下一局' }));
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

  function renderBoard() {
    if (!ui) return;
    const v = view();
    if (!v) {
      ui.render({}, {});
      return;
    }
    const idx = legalIndex();
    if (selected && !idx.moves[selected]) selected = null;
    const actionable = awaiting ? [] : Array.from(idx.flips).concat(Object.keys(idx.moves));
    ui.render(v.board, {
      selected: selected,
      dests: selected && !awaiting ? idx.moves[selected] : [],
      last: lastAction,
      actionable: actionable,
    });
  }

  function renderTallies() {
    const v = view();
    els.talliesPanel.hidden = !v || !v.tallies.length;
    els.logPanel.hidden = !v;
    if (!v || !v.tallies.length) {
      els.tallies.replaceChildren(J.el('p', { class: 'muted', text: '对局开始后显示' }));
      return;
    }
    const rows = [];
    for (const colour of ['red', 'blue']) {
      const owner = SEATS.find(function (s) { return colourOf(s) === colour; });
      const label = J.COLOUR_NAMES[colour] + (owner ? '（' + playerName(owner) + '）' : '');
      const cells = [];
      for (const piece of J.PIECE_ORDER) {
        const t = v.tallies.find(function (x) { return x.piece === piece && x.colour === colour; });
        if (!t) continue;
        const dots = [];
        for (let i = 0; i < (t.up || 0); i++) dots.push(J.el('span', { class: 'dot dot-up' }));
        for (let i = 0; i < (t.down || 0); i++) dots.push(J.el('span', { class: 'dot dot-down' }));
        for (let i = 0; i < (t.removed || 0); i++) dots.push(J.el('span', { class: 'dot dot-removed' }));
        cells.push(J.el('div', { class: 'tally', dataset: { piece: piece, colour: colour } }, [
          J.el('span', { class: 'tally-name', text: J.PIECE_NAMES[piece] }),
          J.el('span', { class: 'tally-dots' }, dots),
        ]));
      }
      rows.push(J.el('div', { class: 'tally-row tally-' + colour }, [
        J.el('div', { class: 'tally-label', text: label }),
        J.el('div', { class: 'tally-cells' }, cells),
      ]));
    }
    els.tallies.replaceChildren.apply(els.tallies, rows);
  }

  function statusText() {
    const st = status();
    if (!st) return '正在连接…';
    if (st === 'cancelled') return '对局已取消';
    if (st === 'open') {
      if (amCreator()) return '等待对手加入…';
      return me ? '对局等待中，点击“加入”开始' : '对局等待中，登录后可加入';
    }
    const out = outcome();
    if (out) {
      const seat = mySeat();
      const why = '（' + reasonText(out.reason) + '）';
      if (!out.winner) return '对局结束：和棋' + why;
      if (seat) return '对局结束：' + (out.winner === seat ? '你赢了' : '你输了') + why;
      return '对局结束：' + playerName(out.winner) + ' 胜' + why;
    }
    const v = view();
    if (!v) return '正在载入对局…';
    const seat = mySeat();
    if (seat && v.to_move === seat) {
      return v.colours ? '轮到你走棋' : '轮到你翻棋（颜色未定）';
    }
    if (seat) return '等待对手 ' + playerName(v.to_move) + ' 行动…';
    const c = colourOf(v.to_move);
    return '轮到 ' + playerName(v.to_move) + (c ? '（' + J.COLOUR_NAMES[c] + '）' : '');
  }

  function renderStatus() {
    let text = statusText();
    if (!socketOpen && haveState && !leaving && status() !== 'cancelled') text += ' · 连接中断，正在重连…';
    els.status.textContent = text;
    const seat = mySeat();
    const v = view();
    els.status.classList.toggle('your-turn', !!(seat && v && isRunning() && v.to_move === seat));
    root.classList.toggle('your-turn', !!(seat && v && isRunning() && v.to_move === seat));
  }

  function logEvent(d) {
    const who = d.seat ? playerName(d.seat) : '';
    const name = function (c) { return c && c.piece ? J.PIECE_NAMES[c.piece] || c.piece : '暗子'; };
    let text = '';
    switch (d.kind) {
      case 'flip':
        text = who + ' 翻开 ' + d.at + '：' + (J.COLOUR_NAMES[d.colour] || '') + J.PIECE_NAMES[d.piece];
        break;
      case 'move':
        text = who + ' ' + name(d.mover) + ' ' + d.from + '→' + d.to;
        if (d.combat === 'attacker_wins') text += '，吃掉' + name(d.target);
        else if (d.combat === 'defender_wins') text += '，撞上' + name(d.target) + '阵亡';
        else if (d.combat === 'both_removed') text += '，与' + name(d.target) + '同归于尽';
        break;
      case 'timeout': text = who + ' 超时'; break;
      case 'time_limit': text = '对局时间到'; break;
      case 'pass': text = who + ' 不行动'; break;
      case 'draw_offer': text = who + ' 提出和棋'; break;
      case 'draw_decline': text = who + ' 拒绝和棋'; break;
      case 'draw_accept': text = who + ' 同意和棋'; break;
      case 'resign': text = who + ' 认输'; break;
      case 'escape': text = who + ' 逃跑'; break;
      case 'rematch_offer': text = who + ' 想再来一局'; break;
      case 'rematch': text = '新的一局开始了'; break;
      default: return;
    }
    if (d.colours_assigned) {
      text += '；' + playerName('south') + ' 执' + (d.colours_assigned.south === 'red' ? '红' : '蓝') +
        '，' + playerName('north') + ' 执' + (d.colours_assigned.north === 'red' ? '红' : '蓝');
    }
    const v = view();
    const stepNo = v && ['flip', 'move', 'timeout', 'pass'].indexOf(d.kind) >= 0 ? v.steps : null;
    const item = J.el('li', { class: 'log-' + d.kind + (d.seat ? ' log-' + d.seat : '') }, [
      stepNo ? J.el('span', { class: 'log-step', text: String(stepNo) }) : null,
      J.el('span', { class: 'log-text', text: text }),
    ]);
    els.log.insertBefore(item, els.log.firstChild);
    if (d.outcome) {
      const out = d.outcome;
      const res = out.winner ? playerName(out.winner) + ' 胜' : '和棋';
      els.log.insertBefore(J.el('li', { class: 'log-end' }, [
        J.el('span', { class: 'log-text', text: '对局结束：' + res + '（' + reasonText(out.reason) + '）' }),
      ]), els.log.firstChild);
    }
    while (els.log.childNodes.length > 300) els.log.removeChild(els.log.lastChild);
  }

  // ---- interaction ------------------------------------------------------------------------------

  function onSquare(sq) {
    const v = view();
    const seat = mySeat();
    if (!v || !seat || !isRunning()) return;
    if (v.to_move !== seat) {
      const cell = v.board[sq];
      if (cell) J.toast('还没轮到你');
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
    const cell = v.board[sq];
    if (cell && cell.face === 'up' && cell.colour && cell.colour === colourOf(seat)) {
      if (cell.piece === 'mine' || cell.piece === 'flag') J.toast(J.PIECE_NAMES[cell.piece] + '不能移动');
      else J.toast('这枚棋子现在无路可走');
    }
    selected = null;
    renderBoard();
  }

  function playMove(from, to) {
    const v = view();
    const warned = v.repetition_warnings.some(function (a) {
      return a.move && a.move.from === from && a.move.to === to;
    });
    if (warned && !window.confirm('这是你最近 8 步内第 4 次走 ' + from + '→' + to + '，会因重复走棋判负。确定要走吗？')) {
      return;
    }
    selected = null;
    if (send('move', { from: from, to: to }, true)) renderBoard();
  }

  function wireButtons() {
    els.resign.addEventListener('click', function () {
      send('resign');
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
      if (ok) J.toast('邀请链接已复制');
      else {
        els.inviteLink.select();
        J.toast('请手动复制链接');
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
      renderAll();
      return g;
    } catch (e) {
      if (e.status === 404) {
        leaving = true;
        els.status.textContent = '找不到这局对局';
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
        els.status.textContent = '棋盘加载失败，正在重试…';
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
