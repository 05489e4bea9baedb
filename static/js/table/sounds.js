// @ts-check
// The table's sounds, from the messages the server sends (the two-player page's tones,
// game/sound.js): a move or an attack when a step arrives, the viewer's turn, someone
// sitting down at an open table, and a seat's defeat. The mute switch is shared with
// two-player games.
import { byId } from '../dom.js';
import { t } from '../i18n.js';
import { isMuted, play, setMuted } from '../game/sound.js';

/** @typedef {import('../table_messages.js').Table} Table */

const mute = /** @type {HTMLButtonElement} */ (byId('mute'));

/**
 * Plays what changed between two table messages.
 * @param {Table|null} before
 * @param {Table} now
 */
export function soundFor(before, now) {
  if (!before) return;
  const newlyDefeated = now.seats.some(function (c, i) { return c.state === 'defeated' && before.seats[i].state !== 'defeated'; });
  if (now.steps > before.steps && now.last) play(now.last.combat || newlyDefeated ? 'capture' : 'move');
  else if (newlyDefeated) play('capture');
  const myTurn = function (/** @type {Table} */ tb) { return !!tb.you && tb.to_move === tb.you && tb.legal.length > 0; };
  if (myTurn(now) && !myTurn(before)) play('turn');
  if (now.phase === 'open') {
    const seated = function (/** @type {Table} */ tb) { return tb.seats.filter(function (c) { return !!c.player; }).length; };
    if (seated(now) > seated(before)) play('joined');
  }
}

function showMute() {
  mute.setAttribute('aria-pressed', isMuted() ? 'true' : 'false');
  mute.textContent = isMuted() ? '🔇' : '🔊';
  mute.title = isMuted() ? t('声音已关闭', 'Sound off') : t('声音已打开', 'Sound on');
}

export function wireMute() {
  mute.addEventListener('click', function () {
    setMuted(!isMuted());
    showMute();
  });
  showMute();
}
