// @ts-check
// The lobby: the create / quick-pair form, playing the computer, and the live list of
// open games and 四国 tables (lobby_tables.js) (/ws/lobby, through the shared socket module). When a game this player opened leaves the list
// without them cancelling it, someone joined: the tab title says so and the page goes
// to the game.
import { ApiError, api } from './api.js';
import { byId, copyText, el, toast } from './dom.js';
import { rankName, t } from './i18n.js';
import { Socket } from './socket.js';
import { kindBadge } from './badge.js';
import { avatarImg } from './avatar.js';
import { bindGuestButton } from './guest.js';
import { renderLive } from './lobby_live.js';
import { renderTables } from './lobby_tables.js';
import { showChallenges } from './challenges.js';

/** @typedef {import('./messages.js').OpenGame} OpenGame */

const root = byId('lobby');
const me = root.dataset.user || null;
const list = byId('open-games');
const empty = byId('open-empty');
const conn = byId('lobby-conn');
const formError = document.getElementById('lobby-error');
const listError = byId('list-error');
const form = /** @type {HTMLFormElement|null} */ (document.getElementById('create-form'));
const baseTitle = document.title;

/** @type {OpenGame[]} */
let lastOpen = [];
let haveSocketList = false;
/** Games this player cancelled from here: their leaving the list is no join. */
const cancelled = new Set();

/**
 * @param {string|null|undefined} a
 * @param {string|null|undefined} b
 */
function sameUser(a, b) {
  return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
}

/**
 * @param {HTMLElement|null} box
 * @param {string} message
 */
function showError(box, message) {
  if (!box) {
    toast(message, 'error');
    return;
  }
  box.textContent = message;
  box.hidden = false;
}

/** @param {string} id */
function gotoGame(id) {
  window.location.assign('/game/' + encodeURIComponent(id));
}

bindGuestButton(function () { window.location.reload(); });

if (form) {
  const f = form;
  // A guest plays casual games only (the server refuses rated ones): start on casual.
  const casual = /** @type {HTMLInputElement|null} */ (f.querySelector('input[name="rated"][value="false"]'));
  if (casual && document.getElementById('guest-note')) casual.checked = true;
  const createBtn = /** @type {HTMLButtonElement} */ (byId('create'));
  const quickBtn = /** @type {HTMLButtonElement} */ (byId('quick'));
  const options = function () {
    const seconds = /** @type {HTMLInputElement|null} */ (f.querySelector('input[name="seconds_per_action"]:checked'));
    const rated = /** @type {HTMLInputElement|null} */ (f.querySelector('input[name="rated"]:checked'));
    const variantSel = /** @type {HTMLSelectElement} */ (f.elements.namedItem('variant'));
    return {
      variant: variantSel.value || 'flip',
      seconds_per_action: seconds ? Number(seconds.value) : 30,
      rated: rated ? rated.value === 'true' : true,
    };
  };
  // The quick match at the top of the page, with the settings of this form.
  const quickTop = /** @type {HTMLButtonElement|null} */ (document.getElementById('quick-top'));
  const buttons = [createBtn, quickBtn, quickTop];
  /**
   * @param {string} path
   * @param {HTMLButtonElement} btn
   * @param {HTMLElement|null} box where a refusal is shown: beside the button pressed
   */
  const submitWith = async function (path, btn, box) {
    if (box) box.hidden = true;
    for (const b of buttons) if (b) b.disabled = true;
    const label = btn.textContent;
    btn.textContent = btn === createBtn ? t('创建中…', 'Creating…') : t('配对中…', 'Matching…');
    try {
      const res = await api('POST', path, options());
      if (!res || !res.id) throw new ApiError(0, 'bad_answer', t('服务器没有返回对局编号', 'The server gave no game id'));
      gotoGame(res.id);
    } catch (e) {
      showError(box, /** @type {Error} */ (e).message);
      for (const b of buttons) if (b) b.disabled = false;
      btn.textContent = label;
    }
  };
  f.addEventListener('submit', function (ev) {
    ev.preventDefault();
    submitWith('/api/games', createBtn, formError);
  });
  quickBtn.addEventListener('click', function () { submitWith('/api/games/quick', quickBtn, formError); });
  if (quickTop) {
    const top = quickTop;
    top.addEventListener('click', function () { submitWith('/api/games/quick', top, document.getElementById('quick-error')); });
  }
}

// Playing the computer: one request opens a casual game the server has already started
// against the chosen level, and the page goes to it.
const computerForm = /** @type {HTMLFormElement|null} */ (document.getElementById('computer-form'));
if (computerForm) {
  const f = computerForm;
  const formBtn = /** @type {HTMLButtonElement} */ (byId('computer-start'));
  const topBtn = /** @type {HTMLButtonElement|null} */ (document.getElementById('computer-top'));
  /** @param {string} name */
  const checked = function (name) {
    const input = /** @type {HTMLInputElement|null} */ (f.querySelector('input[name="' + name + '"]:checked'));
    return input ? input.value : '';
  };
  /**
   * @param {HTMLButtonElement} startBtn the button pressed
   * @param {HTMLElement} errorBox where a refusal is shown, beside it
   */
  const start = async function (startBtn, errorBox) {
    errorBox.hidden = true;
    startBtn.disabled = true;
    const label = startBtn.textContent;
    startBtn.textContent = t('开局中…', 'Starting…');
    try {
      const res = await api('POST', '/api/games', {
        variant: checked('variant') || 'flip',
        seconds_per_action: Number(checked('seconds_per_action') || 30),
        rated: false,
        computer: checked('computer') || 'easy',
      });
      if (!res || !res.id) throw new ApiError(0, 'bad_answer', t('服务器没有返回对局编号', 'The server gave no game id'));
      gotoGame(res.id);
    } catch (e) {
      showError(errorBox, t('未能开始人机对战：', 'Could not start a game against the computer: ') + /** @type {Error} */ (e).message);
      startBtn.disabled = false;
      startBtn.textContent = label;
    }
  };
  f.addEventListener('submit', function (ev) {
    ev.preventDefault();
    start(formBtn, byId('computer-error'));
  });
  if (topBtn) {
    const top = topBtn;
    top.addEventListener('click', function () { start(top, byId('quick-error')); });
  }
}

/** @param {OpenGame['creator']} creator */
function rankText(creator) {
  const parts = [];
  if (creator && creator.rank) parts.push(rankName(creator.rank));
  if (creator && typeof creator.score === 'number') parts.push(t(creator.score + ' 分', creator.score + ' pts'));
  return parts.filter(Boolean).join(' · ');
}

/** @param {string} v */
function variantName(v) {
  return v === 'flip' ? t('翻翻棋', 'Flip chess') : v === 'standard' ? t('标准军棋', 'Standard 军棋') : String(v || '');
}

/** @param {OpenGame} game */
function row(game) {
  const creator = game.creator || { username: '?' };
  const mine = !!me && sameUser(creator.username, me);
  const actions = el('div', { class: 'og-actions' });
  if (mine) {
    actions.append(
      el('button', { type: 'button', class: 'btn btn-secondary btn-small copy-invite', dataset: { id: game.id }, text: t('复制邀请链接', 'Copy invitation link') }),
      el('button', { type: 'button', class: 'btn btn-danger btn-small cancel-game', dataset: { id: game.id }, text: t('取消', 'Cancel') }),
      el('a', { class: 'btn btn-ghost btn-small', href: '/game/' + encodeURIComponent(game.id), text: t('进入', 'Open') }));
  } else if (me) {
    actions.append(el('button', { type: 'button', class: 'btn btn-primary btn-small join-game', dataset: { id: game.id }, text: t('加入', 'Join') }));
  } else {
    actions.append(el('a', { class: 'btn btn-ghost btn-small', href: '/login?next=' + encodeURIComponent('/game/' + game.id), text: t('登录后加入', 'Log in to join') }));
  }
  const seconds = typeof game.seconds_per_action === 'number' ? game.seconds_per_action : '?';
  return el('li', { class: 'open-game' + (mine ? ' mine' : ''), dataset: { gameId: game.id } }, [
    el('div', { class: 'og-who' }, [
      avatarImg(creator, 'og-avatar'),
      el('bdi', { class: 'og-creator', text: creator.display_name || creator.username || '?' }),
      creator.display_name ? el('span', { class: 'og-login', text: creator.username }) : null,
      kindBadge(creator.kind),
      mine ? el('span', { class: 'tag tag-me', text: t('我', 'me') }) : null,
      el('span', { class: 'og-rank', text: rankText(creator) }),
    ]),
    el('div', { class: 'og-meta' }, [
      el('span', { class: 'tag', text: variantName(game.variant) }),
      el('span', { class: 'tag og-clock', text: t(seconds + ' 秒/步', seconds + ' s/step') }),
      el('span', { class: 'tag ' + (game.rated ? 'tag-rated' : 'tag-casual'), text: game.rated ? t('积分赛', 'Rated') : t('友谊赛', 'Casual') }),
    ]),
    actions,
  ]);
}

/** @param {OpenGame[]} open */
function render(open) {
  const next = Array.isArray(open) ? open : [];
  // One of mine left the list and I did not cancel it: somebody joined, unless it only
  // fell off the end of a long list or expired; the game itself says which.
  if (me && haveSocketList) {
    const ids = new Set(next.map(function (g) { return g.id; }));
    const left = lastOpen.find(function (g) {
      return g.creator && sameUser(g.creator.username, me) && !ids.has(g.id) && !cancelled.has(g.id);
    });
    if (left) {
      api('GET', '/api/games/' + encodeURIComponent(left.id)).then(function (game) {
        if (!game || game.status !== 'running') return;
        document.title = t('★ 对手已加入 · ', '★ Opponent joined · ') + baseTitle;
        toast(t('有人加入了你的对局！', 'Someone joined your game!'));
        setTimeout(function () { gotoGame(left.id); }, 600);
      }).catch(function () { /* not known to have started: stay */ });
    }
  }
  lastOpen = next;
  list.replaceChildren.apply(list, next.map(row));
  empty.hidden = next.length > 0;
}

list.addEventListener('click', async function (ev) {
  const btn = /** @type {HTMLButtonElement|null} */ (/** @type {HTMLElement} */ (ev.target).closest('button[data-id]'));
  if (!btn || !list.contains(btn)) return;
  const id = btn.dataset.id || '';
  listError.hidden = true;
  if (btn.classList.contains('copy-invite')) {
    const url = window.location.origin + '/game/' + id;
    toast((await copyText(url)) ? t('邀请链接已复制', 'Invitation link copied') : t('复制失败，请手动复制：', 'Could not copy; the link is ') + url);
    return;
  }
  btn.disabled = true;
  try {
    if (btn.classList.contains('join-game')) {
      const res = await api('POST', '/api/games/' + encodeURIComponent(id) + '/join');
      gotoGame((res && res.id) || id);
    } else if (btn.classList.contains('cancel-game')) {
      cancelled.add(id);
      await api('POST', '/api/games/' + encodeURIComponent(id) + '/cancel');
      render(lastOpen.filter(function (g) { return g.id !== id; }));
    }
  } catch (e) {
    showError(listError, /** @type {Error} */ (e).message);
    btn.disabled = false;
  }
});

// A first paint over HTTP; the socket keeps it current.
api('GET', '/api/games/open').then(function (open) {
  if (!haveSocketList) render(open);
}).catch(function () { /* the socket will fill the list */ });
api('GET', '/api/tables/open').then(function (tables) {
  if (!haveSocketList) renderTables(tables);
}).catch(function () { /* the socket will fill the list */ });
api('GET', '/api/games/live').then(function (live) {
  if (!haveSocketList) renderLive(live, undefined);
}).catch(function () { /* the socket will fill the list */ });

/**
 * @param {string} state
 * @param {string} text
 */
function setConn(state, text) {
  conn.dataset.state = state;
  conn.textContent = text;
}

const socket = new Socket({
  path: function () {
    setConn('connecting', t('连接中…', 'Connecting…'));
    return '/ws/lobby';
  },
  onMessage: function (msg) {
    if (msg.t === 'lobby' && msg.d) {
      render(msg.d.open);
      renderTables(msg.d.tables);
      renderLive(msg.d.live, msg.d.online);
      haveSocketList = true;
    } else if (msg.t === 'challenges' && msg.d) {
      showChallenges(msg.d);
    }
  },
  onStatus: function (open) {
    if (open) setConn('live', t('实时', 'Live'));
    else setConn('offline', t('已断开，重连中…', 'Disconnected, reconnecting…'));
  },
});
socket.start();

