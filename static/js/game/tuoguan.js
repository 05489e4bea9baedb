// @ts-check
// 托管 on the game page (docs/protocol.md, "托管"): the 托管 and 取消托管 buttons, shown
// as the server's `presence.can` says (never guessed here), a confirmation before the
// 4th, which is for the rest of the game, the 托管 mark on each seat card, and a log
// line whenever a seat's 托管 begins or ends. The computer's own steps carry
// `tuoguan: true` and log.js marks them.
import { byId } from '../dom.js';
import { t } from '../i18n.js';
import { ask } from './confirm.js';
import { cardOf } from './cards.js';
import { logNote } from './log.js';
import { SEATS, deploying, isRunning, mySeat, playerName, store } from './state.js';

/** @typedef {import('../messages.js').SeatTuoguan} SeatTuoguan */
/** @typedef {(type: string, data?: unknown) => Promise<{a: number, v?: number}>} Command */

const els = {
  on: /** @type {HTMLButtonElement} */ (byId('tuoguan')),
  off: /** @type {HTMLButtonElement} */ (byId('untuoguan')),
  log: byId('log'),
};

/**
 * Each seat's 托管 as last drawn, to tell a change (logged) from a redraw; unset until
 * the first state, which is shown without a log line.
 * @type {Partial<Record<'south'|'north', string>>}
 */
const drawn = {};

/** @param {SeatTuoguan|undefined} s */
function key(s) {
  return s && s.on ? s.on + (s.permanent ? '!' : '') : '';
}

/** @param {'south'|'north'} seat */
function seatTuoguan(seat) {
  const p = store.S && store.S.presence;
  return p && p.tuoguan ? p.tuoguan[seat] : undefined;
}

/**
 * Whether the computer holds the viewer's own seat now: the board then offers no
 * step, as the server refuses the player's own until 托管 ends.
 */
export function handedOver() {
  const seat = mySeat();
  const s = seat ? seatTuoguan(seat) : undefined;
  return !!(s && s.on);
}

/** @param {Command} command */
export function wireTuoguan(command) {
  els.on.addEventListener('click', function () {
    const can = store.S && store.S.presence && store.S.presence.can;
    if (!can || !can.tuoguan) return;
    const go = function () {
      els.on.disabled = true;
      command('tuoguan', { on: true }).catch(function () {}).finally(function () { els.on.disabled = false; });
    };
    if (!can.tuoguan_permanent) return go();
    // The limit of three: the 4th cannot be ended, so the player says so first.
    ask(t('已托管 3 次。再次托管将由电脑下完本局，不能取消。确定托管吗？',
      'You have used 托管 three times. This time the computer plays the rest of the game and it cannot be cancelled. Hand over?'),
    t('托管到底', 'Hand over for good')).then(function (yes) {
      if (yes && isRunning()) go();
    });
  });
  els.off.addEventListener('click', function () {
    els.off.disabled = true;
    command('tuoguan', { on: false }).catch(function () {}).finally(function () { els.off.disabled = false; });
  });
}

/** The words of a seat's 托管 on its card. @param {SeatTuoguan} s */
function markText(s) {
  if (s.permanent) return t('托管（到底）', 'auto-play (for good)');
  return s.on === 'disconnect' ? t('断线托管', 'auto-play (offline)') : t('托管', 'auto-play');
}

/** Draws the buttons, the card marks and the log lines of changes. */
export function renderTuoguan() {
  const can = store.S && store.S.presence ? store.S.presence.can : undefined;
  const playing = isRunning() && !deploying() && !!mySeat();
  els.on.hidden = !(playing && can && can.tuoguan);
  els.off.hidden = !(playing && can && can.end_tuoguan);
  els.on.textContent = can && can.tuoguan_permanent ? t('托管（不可取消）', 'Auto-play (for good)') : t('托管', 'Auto-play');
  for (const seat of SEATS) {
    const s = seatTuoguan(seat);
    const card = cardOf(seat);
    const mark = card ? /** @type {HTMLElement|null} */ (card.querySelector('.pc-tuoguan')) : null;
    if (mark) {
      mark.hidden = !(s && s.on);
      mark.textContent = s && s.on ? markText(s) : '';
      mark.dataset.kind = s && s.on ? s.on : '';
    }
    const now = key(s);
    const before = drawn[seat];
    drawn[seat] = now;
    if (before === undefined || before === now || !s) continue;
    const who = playerName(seat);
    logNote(els.log, 'log-tuoguan-' + (s.on ? 'on' : 'off'), [s.on
      ? t(who + (s.on === 'disconnect' ? ' 断线，电脑托管' : ' 开始托管') + (s.permanent ? '（到底）' : ''),
        who + (s.on === 'disconnect' ? ' is offline: the computer plays for them' : ' handed over to the computer') + (s.permanent ? ' (for good)' : ''))
      : t(who + ' 取消托管', who + ' took back the game')]);
  }
}
