// @ts-check
// What the game page asks over HTTP: the players' standings in this game's variant, the
// game's summary (before the first state, and while the game is open, when a join starts
// it), and the board's drawing.
import { api } from '../api.js';
import { t } from '../i18n.js';
import { announceJoin } from './panels.js';
import { SEATS, amCreator, player, status, store, variant } from './state.js';

/**
 * @typedef {Object} Page
 * @property {() => void} render
 * @property {(fresh: boolean) => void} resync
 * @property {() => void} maybeLoadReplay
 * @property {() => void} stop the game does not exist: stop connecting
 * @property {HTMLElement} status
 */

/**
 * The players' score and rank in this game's variant (a standard game shows the
 * standard ladder, never the flip score).
 * @param {boolean} again after the end: the standings have changed
 * @param {() => void} render
 */
export function loadPlayers(again, render) {
  for (const seat of SEATS) {
    const p = player(seat);
    if (!p || !p.username) continue;
    const key = p.username.toLowerCase();
    if (store.players[key] && !again) continue;
    fetchPlayer(p.username, key, render);
    if (again) setTimeout(function () { fetchPlayer(p.username, key, render); }, 2000);
  }
}

/**
 * @param {string} name
 * @param {string} key
 * @param {() => void} render
 */
function fetchPlayer(name, key, render) {
  api('GET', '/api/players/' + encodeURIComponent(name) + '?variant=' + variant()).then(function (info) {
    if (info && info.username && (!info.variant || info.variant === variant())) {
      store.players[key] = info;
      render();
    }
  }).catch(function () { /* the card shows the name alone */ });
}

/** @param {Page} page */
export async function refreshSummary(page) {
  try {
    const g = await api('GET', '/api/games/' + encodeURIComponent(store.gameId));
    if (!g) return;
    const before = status();
    if (store.S) {
      // The live copy wins, except while the game is open (a join starts it) or when the
      // summary knows of a cancellation.
      if (before === 'open' || g.status === 'cancelled') {
        store.S.game = Object.assign({}, store.S.game, g);
        if (before === 'open' && g.status === 'running') {
          if (amCreator()) announceJoin();
          page.resync(true); // the game started: a new socket gets this seat's view
        }
      }
    } else {
      store.summary = g;
    }
    if (g.status === 'open' && !store.openCreator) {
      try {
        const open = await api('GET', '/api/games/open');
        /** @type {any} */
        const mine = Array.isArray(open) ? open.find(function (x) { return x && x.id === store.gameId; }) : null;
        if (mine && mine.creator) store.openCreator = mine.creator;
      } catch (e) { /* the page then offers to join; the server refuses one's own game */ }
    }
    page.maybeLoadReplay();
    page.render();
  } catch (e) {
    if (/** @type {any} */ (e).status === 404) {
      store.leaving = true;
      page.status.textContent = t('找不到这局对局', 'No such game');
      page.stop();
    }
  }
}

/** @param {HTMLElement} statusEl */
export async function loadBoard(statusEl) {
  let wait = 500;
  for (;;) {
    try {
      return await api('GET', '/api/board');
    } catch (e) {
      statusEl.textContent = t('棋盘加载失败，正在重试…', 'Could not load the board; retrying…');
      await new Promise(function (r) { setTimeout(r, wait); });
      wait = Math.min(wait * 2, 10000);
    }
  }
}

