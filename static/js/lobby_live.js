// @ts-check
// The lobby's 观战 list (src/live/watch_list.rs): running games, rated first and by the
// players' standing, each a link to its page with how many watch it; and how many
// people are on the site. Drawn from the lobby socket's frames (lobby.js).
import { byId, el } from './dom.js';
import { rankName, t } from './i18n.js';
import { kindBadge } from './badge.js';

/** @typedef {import('./messages.js').LiveGame} LiveGame */
/** @typedef {import('./messages.js').PlayerRef} PlayerRef */

const list = byId('live-games');
const empty = byId('live-empty');
const online = byId('online-count');

/** @param {string} v */
function variantName(v) {
  return v === 'flip' ? t('翻翻棋', 'Flip chess') : v === 'standard' ? t('标准军棋', 'Standard 军棋') : String(v || '');
}

/** @param {PlayerRef|null} p */
function player(p) {
  if (!p) return [el('bdi', { text: '?' })];
  return [
    el('bdi', { text: p.display_name || p.username }),
    kindBadge(p.kind),
    p.rank ? el('span', { class: 'lg-rank', text: rankName(p.rank) }) : null,
  ];
}

/** @param {LiveGame} g */
function row(g) {
  const watching = g.watchers > 0
    ? t(g.watchers + ' 人观战', g.watchers + ' watching')
    : t('观战', 'Watch');
  return el('li', { class: 'live-game', dataset: { gameId: g.id } }, [
    el('a', { href: '/game/' + encodeURIComponent(g.id) }, [
      el('div', { class: 'lg-who' }, [
        ...player(g.players.south),
        el('span', { class: 'lg-vs', text: 'vs' }),
        ...player(g.players.north),
      ]),
      el('div', { class: 'lg-meta' }, [
        el('span', { class: 'tag', text: variantName(g.variant) }),
        el('span', { class: 'tag', text: t(g.seconds_per_action + ' 秒/步', g.seconds_per_action + ' s/step') }),
        el('span', { class: 'tag ' + (g.rated ? 'tag-rated' : 'tag-casual'), text: g.rated ? t('积分赛', 'Rated') : t('友谊赛', 'Casual') }),
      ]),
      el('span', { class: 'lg-watch', dataset: { watchers: String(g.watchers) }, text: '👁 ' + watching }),
    ]),
  ]);
}

/**
 * @param {LiveGame[]|undefined} live
 * @param {number|undefined} people on the site now, when the server says
 */
export function renderLive(live, people) {
  const games = Array.isArray(live) ? live : [];
  list.replaceChildren.apply(list, games.map(row));
  empty.hidden = games.length > 0;
  if (typeof people === 'number') {
    online.hidden = false;
    online.textContent = t(people + ' 人在线', people + ' online');
  }
}
