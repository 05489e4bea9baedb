// @ts-check
// 再来一局 on a finished table's result panel: who agreed and who declined, the two
// answers while the server's `can` allows them, and, once every seat agreed, the move
// to the new table (`rematch.next`) for the players; a spectator gets a link instead.
import { byId, el } from '../dom.js';
import { t } from '../i18n.js';
import { store } from './state.js';
import { seatWord } from './words.js';

/** @typedef {(type: string, data?: unknown) => Promise<unknown>} Command */

const els = {
  box: byId('rematch-box'),
  text: byId('rematch-text'),
  who: byId('rematch-who'),
  ask: /** @type {HTMLButtonElement} */ (byId('act-rematch')),
  decline: /** @type {HTMLButtonElement} */ (byId('act-decline-rematch')),
  next: /** @type {HTMLAnchorElement} */ (byId('rematch-next')),
};

/** The new table the page went to, so that it goes once. */
let moved = '';

/**
 * @param {HTMLButtonElement} b
 * @param {() => Promise<unknown>} run
 */
function bind(b, run) {
  b.addEventListener('click', function () {
    if (b.disabled) return;
    b.disabled = true;
    run().catch(function () {}).then(function () { b.disabled = false; });
  });
}

/** @param {Command} cmd */
export function wireRematch(cmd) {
  bind(els.ask, function () { return cmd('rematch'); });
  bind(els.decline, function () { return cmd('decline_rematch'); });
}

export function renderRematch() {
  const tb = store.table;
  const r = tb && tb.phase === 'over' ? tb.rematch : null;
  els.box.hidden = !r;
  if (!r || !tb) return;
  const me = tb.you;
  els.ask.hidden = !tb.can.rematch;
  els.decline.hidden = !tb.can.decline_rematch;
  els.next.hidden = !r.next;
  if (r.next) els.next.href = '/game/' + encodeURIComponent(r.next);
  els.box.dataset.state = r.next ? 'agreed' : r.declined.length ? 'declined' : r.by.length ? 'offered' : 'none';
  els.text.textContent = r.next ? t('大家都同意了，新的一局开始。', 'Everyone agreed: the next game starts.')
    : r.declined.length ? t(r.declined.map(seatWord).join('、') + '不再来，这次没有下一局。', r.declined.map(seatWord).join(' and ') + ' declined: no next game this time.')
      : r.by.length ? (me && r.by.indexOf(me) >= 0 ? t('你想再来一局，等待其他棋手…', 'You asked to play again; waiting for the others…') : t('有人想再来一局。', 'Someone asks to play again.'))
        : t('同样的座位、同样的设置，再来一局？', 'The same seats and settings: play again?');
  els.who.replaceChildren(...r.by.map(function (s) {
    return el('li', { dataset: { seat: s, answer: 'yes' }, text: t(seatWord(s) + '同意', seatWord(s) + ' agreed') });
  }), ...r.declined.map(function (s) {
    return el('li', { dataset: { seat: s, answer: 'no' }, text: t(seatWord(s) + '不再来', seatWord(s) + ' declined') });
  }));
  // The players go to their seats at the new table; it deploys at once.
  if (r.next && me && moved !== r.next) {
    moved = r.next;
    window.location.assign('/game/' + encodeURIComponent(r.next));
  }
}
