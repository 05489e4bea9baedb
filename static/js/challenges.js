// @ts-check
// Challenges (挑战) as a player's lobby socket hears them (src/live/challenges.rs): the
// ones waiting for this player's answer, with 接受 / 拒绝, and the ones they sent, with
// 取消; the tab's title counts those waiting ("(1) 挑战 · …"). When a sent challenge is
// answered the page says so ("对方拒绝了挑战") or goes to the game it started. The lobby
// draws both lists (lobby.js); the profile and friends pages only follow what they sent
// (social.js). The server decides every status: the page only draws them.
import { api } from './api.js';
import { el, toast } from './dom.js';
import { t } from './i18n.js';

/** @typedef {import('./messages.js').Challenge} Challenge */
/** @typedef {import('./messages.js').Person} Person */

const baseTitle = document.title;
/** The status each sent challenge was last seen with, by id. */
const seen = new Map();

/** @param {Person} p */
function who(p) {
  return p.display_name || p.username;
}

/** @param {Challenge} c */
export function terms(c) {
  const variant = c.variant === 'flip' ? t('翻翻棋', 'Flip chess') : t('标准军棋', 'Standard 军棋');
  const kind = c.rated ? t('积分赛', 'rated') : t('友谊赛', 'casual');
  return variant + ' · ' + t(c.seconds_per_action + ' 秒/步', c.seconds_per_action + ' s a move') + ' · ' + kind;
}

/** @param {string} id */
function gotoGame(id) {
  window.location.assign('/game/' + encodeURIComponent(id));
}

/**
 * @param {HTMLButtonElement} btn
 * @param {string} path
 * @param {(res: any) => void} [then]
 */
async function post(btn, path, then) {
  btn.disabled = true;
  try {
    const res = await api('POST', path);
    if (then) then(res);
  } catch (e) {
    toast(/** @type {Error} */ (e).message, 'error');
    btn.disabled = false;
  }
}

/** @param {Challenge} c */
function incomingRow(c) {
  const accept = el('button', { type: 'button', class: 'btn btn-primary btn-small challenge-accept', text: t('接受', 'Accept') });
  const decline = el('button', { type: 'button', class: 'btn btn-ghost btn-small challenge-decline', text: t('拒绝', 'Decline') });
  const base = '/api/challenges/' + encodeURIComponent(c.id);
  accept.addEventListener('click', function () {
    post(/** @type {HTMLButtonElement} */ (accept), base + '/accept', function (res) { gotoGame(res.game); });
  });
  decline.addEventListener('click', function () {
    post(/** @type {HTMLButtonElement} */ (decline), base + '/decline');
  });
  return el('li', { class: 'challenge', dataset: { challengeId: c.id } }, [
    el('img', { class: 'avatar avatar-row', src: c.from.avatar_url, alt: '' }),
    el('span', { class: 'challenge-text' }, [
      el('bdi', { text: who(c.from) }),
      t(' 向你挑战：', ' challenges you: ') + terms(c),
    ]),
    el('span', { class: 'challenge-actions' }, [accept, decline]),
  ]);
}

/** @param {Challenge} c */
function outgoingRow(c) {
  /** @type {Record<string, string>} */
  const words = {
    pending: t('等待回应', 'waiting'),
    accepted: t('已接受', 'accepted'),
    declined: t('已拒绝', 'declined'),
    cancelled: t('已取消', 'cancelled'),
    expired: t('已过期', 'expired'),
  };
  const parts = [
    el('span', { class: 'challenge-text' }, [
      t('挑战 ', 'To '), el('bdi', { text: who(c.to) }), '：' + terms(c),
    ]),
    el('span', { class: 'challenge-status', dataset: { status: c.status }, text: words[c.status] || c.status }),
  ];
  if (c.status === 'pending') {
    const cancel = el('button', { type: 'button', class: 'btn btn-ghost btn-small challenge-cancel', text: t('取消', 'Cancel') });
    cancel.addEventListener('click', function () {
      post(/** @type {HTMLButtonElement} */ (cancel), '/api/challenges/' + encodeURIComponent(c.id) + '/cancel');
    });
    parts.push(cancel);
  } else if (c.status === 'accepted' && c.game) {
    parts.push(el('a', { class: 'btn btn-small', href: '/game/' + encodeURIComponent(c.game), text: t('进入对局', 'Go to the game') }));
  }
  return el('li', { class: 'challenge challenge-out', dataset: { challengeId: c.id } }, parts);
}

/**
 * A challenge this page just sent: its answer is to be told even if the first list the
 * socket brings already has it.
 * @param {string} id
 */
export function expectAnswer(id) {
  seen.set(id, 'pending');
}

/**
 * What the player hears of their sent challenges' answers: a decline or a lapse as a
 * toast, an acceptance by going to the game. Only answers to challenges this page saw
 * waiting count, so that reloading the lobby does not tell old answers again.
 * @param {Challenge[]} outgoing
 */
function answers(outgoing) {
  for (const c of outgoing) {
    const before = seen.get(c.id);
    seen.set(c.id, c.status);
    if (before !== 'pending' || c.status === 'pending') continue;
    if (c.status === 'declined') toast(t(who(c.to) + ' 拒绝了挑战', who(c.to) + ' declined the challenge'), 'error');
    else if (c.status === 'expired') toast(t('挑战无人回应，已过期', 'The challenge was not answered in time'));
    else if (c.status === 'accepted' && c.game) gotoGame(c.game);
  }
}

/**
 * Draws the lists where the page has room for them (`#challenges-card` with
 * `#challenges-in` and `#challenges-out`), and sets the tab's title.
 * @param {{incoming: Challenge[], outgoing: Challenge[]}} d
 */
export function showChallenges(d) {
  const now = Date.now();
  // A waiting challenge lapses on the server at its time; the page stops offering it.
  const incoming = d.incoming.filter(function (c) { return c.expires_at > now; });
  answers(d.outgoing);
  document.title = incoming.length ? '(' + incoming.length + ') ' + t('挑战', 'Challenge') + ' · ' + baseTitle : baseTitle;
  const card = document.getElementById('challenges-card');
  const inList = document.getElementById('challenges-in');
  const outList = document.getElementById('challenges-out');
  if (!card || !inList || !outList) return;
  inList.replaceChildren(...incoming.map(incomingRow));
  outList.replaceChildren(...d.outgoing.map(outgoingRow));
  inList.hidden = incoming.length === 0;
  outList.hidden = d.outgoing.length === 0;
  card.hidden = incoming.length === 0 && d.outgoing.length === 0;
}
