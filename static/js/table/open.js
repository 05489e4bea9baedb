// @ts-check
// Before the start: how many have sat down, the invite link to one empty seat
// (`/game/{id}?seat=east`), and that link's other end: a page opened with `?seat=` on
// an open table sits its logged-in visitor there, once, when that seat is empty and
// they have no seat at this table yet.
import { byId, copyText, el, toast } from '../dom.js';
import { t } from '../i18n.js';
import { SEATS } from './geometry.js';
import { mySeat, seatCard, store } from './state.js';
import { seatWord } from './words.js';

/** @typedef {import('../table_messages.js').Seat4} Seat4 */

const els = {
  panel: byId('open-panel'),
  text: byId('open-text'),
  seat: /** @type {HTMLSelectElement} */ (byId('invite-seat')),
  link: /** @type {HTMLInputElement} */ (byId('invite-link')),
  copy: byId('copy-invite'),
  invite: byId('invite'),
};

const asked = new URLSearchParams(window.location.search).get('seat');
/** The seat the invite link named, if it names one. */
const invited = /** @type {Seat4|null} */ (SEATS.indexOf(/** @type {Seat4} */ (asked)) >= 0 ? asked : null);
let triedInvite = false;

/** @param {Seat4} seat */
function linkTo(seat) {
  return window.location.origin + '/game/' + encodeURIComponent(store.gameId) + '?seat=' + seat;
}

export function wireOpen() {
  els.seat.addEventListener('change', function () {
    els.link.value = linkTo(/** @type {Seat4} */ (els.seat.value));
  });
  els.copy.addEventListener('click', function () {
    copyText(els.link.value).then(function (ok) {
      toast(ok ? t('邀请链接已复制', 'Invite link copied') : t('复制失败，请手动复制', 'Could not copy: copy it by hand'));
    });
  });
  els.link.addEventListener('focus', function () { els.link.select(); });
}

/**
 * The open table's panel; answers the seat the invite link asks to sit in, when the
 * page should send that now.
 * @returns {Seat4|null}
 */
export function renderOpen() {
  const tb = store.table;
  const open = !!tb && tb.phase === 'open';
  els.panel.hidden = !open;
  if (!open || !tb) return null;
  const empty = SEATS.filter(function (s) {
    const c = seatCard(s);
    return !!c && !c.player;
  });
  const seated = 4 - empty.length;
  els.text.textContent = empty.length
    ? t('等待入座：' + seated + '/4 人。' + (mySeat() ? '坐满并全部准备后开始布阵。' : '点空位上的“坐下”加入。'),
      seated + ' of 4 seated. ' + (mySeat() ? 'Deployment starts when every seat is filled and ready.' : 'Press “Sit here” on an empty seat to join.'))
    : t('四个座位已坐满，全部准备后开始布阵。', 'Every seat is taken: deployment starts when all are ready.');
  els.invite.hidden = !empty.length;
  const keep = els.seat.value;
  els.seat.replaceChildren(...empty.map(function (s) { return el('option', { value: s, text: seatWord(s) }); }));
  if (empty.length) {
    els.seat.value = empty.indexOf(/** @type {Seat4} */ (keep)) >= 0 ? keep : empty[0];
    els.link.value = linkTo(/** @type {Seat4} */ (els.seat.value));
  }
  if (triedInvite || !invited || !store.me) return null;
  const c = seatCard(invited);
  triedInvite = true;
  // Only a visitor without a seat here: one seated already stays where they are.
  if (!c || c.player || mySeat() || !tb.can.sit) return null;
  return invited;
}
