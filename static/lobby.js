// The lobby: create / quick-pair form and the live list of open games (/ws/lobby).
(function () {
  'use strict';
  const J = window.Junqi;
  const T = J.t;
  const root = document.getElementById('lobby');
  if (!root) return;
  const me = root.dataset.user || null;
  const list = document.getElementById('open-games');
  const empty = document.getElementById('open-empty');
  const conn = document.getElementById('lobby-conn');
  const formError = document.getElementById('lobby-error');
  const listError = document.getElementById('list-error');
  const form = document.getElementById('create-form');

  let lastOpen = [];
  let haveSocketList = false;

  function sameUser(a, b) {
    return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
  }

  function showError(box, message) {
    if (!box) {
      J.toast(message, 'error');
      return;
    }
    box.textContent = message;
    box.hidden = false;
  }

  function clearError(box) {
    if (box) box.hidden = true;
  }

  function gotoGame(id) {
    window.location.assign('/game/' + encodeURIComponent(id));
  }

  // ---- create / quick pair -------------------------------------------------

  function formOptions() {
    const secondsInput = form.querySelector('input[name="seconds_per_action"]:checked');
    const ratedInput = form.querySelector('input[name="rated"]:checked');
    return {
      variant: form.elements.variant.value || 'flip',
      seconds_per_action: secondsInput ? Number(secondsInput.value) : 30,
      rated: ratedInput ? ratedInput.value === 'true' : true,
    };
  }

  if (form) {
    const createBtn = document.getElementById('create');
    const quickBtn = document.getElementById('quick');

    const submitWith = async function (path, btn) {
      clearError(formError);
      createBtn.disabled = true;
      quickBtn.disabled = true;
      const label = btn.textContent;
      btn.textContent = btn === quickBtn ? T('配对中…', 'Matching…') : T('创建中…', 'Creating…');
      try {
        const res = await J.api('POST', path, formOptions());
        if (!res || !res.id) throw new J.ApiError(0, 'bad_answer', T('服务器没有返回对局编号', 'The server gave no game id'));
        gotoGame(res.id);
      } catch (e) {
        showError(formError, e.message);
        createBtn.disabled = false;
        quickBtn.disabled = false;
        btn.textContent = label;
      }
    };

    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      submitWith('/api/games', createBtn);
    });
    quickBtn.addEventListener('click', function () {
      submitWith('/api/games/quick', quickBtn);
    });
  }

  // ---- the open games list ---------------------------------------------------

  function rankText(creator) {
    const parts = [];
    const rank = creator && creator.rank;
    if (rank && (rank.chinese || rank.english)) parts.push(J.EN ? rank.english || rank.chinese : rank.chinese || rank.english);
    if (creator && typeof creator.score === 'number') parts.push(T(creator.score + ' 分', creator.score + ' pts'));
    return parts.join(' · ');
  }

  function variantName(v) {
    return v === 'flip' ? T('翻翻棋', 'Flip chess') : v === 'standard' ? T('标准军棋', 'Standard 军棋') : String(v || '');
  }

  function row(game) {
    const creator = game.creator || {};
    const mine = me && sameUser(creator.username, me);
    const actions = J.el('div', { class: 'og-actions' });
    if (mine) {
      actions.appendChild(J.el('button', {
        type: 'button', class: 'btn btn-secondary btn-small copy-invite', dataset: { id: game.id }, text: T('复制邀请链接', 'Copy invitation link'),
      }));
      actions.appendChild(J.el('button', {
        type: 'button', class: 'btn btn-danger btn-small cancel-game', dataset: { id: game.id }, text: T('取消', 'Cancel'),
      }));
      actions.appendChild(J.el('a', {
        class: 'btn btn-ghost btn-small', href: '/game/' + encodeURIComponent(game.id), text: T('进入', 'Open'),
      }));
    } else if (me) {
      actions.appendChild(J.el('button', {
        type: 'button', class: 'btn btn-primary btn-small join-game', dataset: { id: game.id }, text: T('加入', 'Join'),
      }));
    } else {
      actions.appendChild(J.el('a', {
        class: 'btn btn-ghost btn-small',
        href: '/login?next=' + encodeURIComponent('/game/' + game.id),
        text: T('登录后加入', 'Log in to join'),
      }));
    }
    const seconds = typeof game.seconds_per_action === 'number' ? game.seconds_per_action : '?';
    return J.el('li', { class: 'open-game' + (mine ? ' mine' : ''), dataset: { gameId: game.id } }, [
      J.el('div', { class: 'og-who' }, [
        J.el('span', { class: 'og-creator', text: creator.username || '?' }),
        mine ? J.el('span', { class: 'tag tag-me', text: T('我', 'me') }) : null,
        J.el('span', { class: 'og-rank', text: rankText(creator) }),
      ]),
      J.el('div', { class: 'og-meta' }, [
        J.el('span', { class: 'tag', text: variantName(game.variant) }),
        J.el('span', { class: 'tag og-clock', text: T(seconds + ' 秒/步', seconds + ' s/step') }),
        J.el('span', {
          class: 'tag ' + (game.rated ? 'tag-rated' : 'tag-casual'),
          text: game.rated ? T('积分赛', 'Rated') : T('友谊赛', 'Casual'),
        }),
      ]),
      actions,
    ]);
  }

  function render(open) {
    lastOpen = Array.isArray(open) ? open : [];
    list.replaceChildren.apply(list, lastOpen.map(row));
    empty.hidden = lastOpen.length > 0;
  }

  list.addEventListener('click', async function (ev) {
    const btn = ev.target.closest('button[data-id]');
    if (!btn || !list.contains(btn)) return;
    const id = btn.dataset.id;
    clearError(listError);
    if (btn.classList.contains('copy-invite')) {
      const ok = await J.copyText(window.location.origin + '/game/' + id);
      J.toast(ok ? T('邀请链接已复制', 'Invitation link copied') : T('复制失败，请手动复制：', 'Could not copy; the link is ') + window.location.origin + '/game/' + id);
      return;
    }
    btn.disabled = true;
    try {
      if (btn.classList.contains('join-game')) {
        const res = await J.api('POST', '/api/games/' + encodeURIComponent(id) + '/join');
        gotoGame((res && res.id) || id);
      } else if (btn.classList.contains('cancel-game')) {
        await J.api('POST', '/api/games/' + encodeURIComponent(id) + '/cancel');
        render(lastOpen.filter(function (g) { return g.id !== id; }));
      }
    } catch (e) {
      showError(listError, e.message);
      btn.disabled = false;
    }
  });

  // A first paint over HTTP; the socket keeps it current.
  J.api('GET', '/api/games/open').then(function (open) {
    if (!haveSocketList) render(open);
  }).catch(function () { /* the socket will fill the list */ });

  // ---- /ws/lobby with reconnect and backoff -----------------------------------

  let ws = null;
  let delay = 500;
  let pingTimer = null;
  let retryTimer = null;

  function setConn(state, text) {
    conn.dataset.state = state;
    conn.textContent = text;
  }

  function connect() {
    retryTimer = null;
    setConn('connecting', T('连接中…', 'Connecting…'));
    let sock;
    try {
      sock = new WebSocket(J.socketUrl('/ws/lobby'));
    } catch (e) {
      scheduleReconnect();
      return;
    }
    ws = sock;
    sock.addEventListener('open', function () {
      setConn('live', T('实时', 'Live'));
      pingTimer = setInterval(function () {
        if (sock.readyState === WebSocket.OPEN) sock.send(JSON.stringify({ t: 'ping' }));
      }, 25000);
    });
    sock.addEventListener('message', function (ev) {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      if (msg && msg.t === 'lobby' && msg.d) {
        delay = 500;
        haveSocketList = true;
        render(msg.d.open);
      }
    });
    sock.addEventListener('close', function () {
      if (pingTimer) clearInterval(pingTimer);
      pingTimer = null;
      if (ws === sock) {
        ws = null;
        scheduleReconnect();
      }
    });
  }

  function scheduleReconnect() {
    if (retryTimer) return;
    setConn('offline', T('已断开，重连中…', 'Disconnected, reconnecting…'));
    const wait = delay + Math.floor(Math.random() * 300);
    delay = Math.min(delay * 2, 15000);
    retryTimer = setTimeout(connect, wait);
  }

  connect();
})();
