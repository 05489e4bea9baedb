// @ts-check
// What the page says over the board as events arrive: the caption of a capture ("旅长
// 吃掉 排长") for long enough to read, and the opponent's answers to this player as toasts
// (a declined draw used to show only in the log below the board).
import { byId, toast } from '../dom.js';
import { t } from '../i18n.js';
import { mySeat, playerName } from './state.js';

/** @typedef {import('../messages.js').GameEvent} GameEvent */

const caption = byId('board-caption');

/** How long a caption stays up before the next event may replace it (shortened when more wait). */
const CAPTION_MS = 900;
const QUICK_CAPTION_MS = 300;
/** A little past a slide's end, so that it has arrived before the next event is drawn. */
export const SLIDE_MARGIN_MS = 60;

/** @type {ReturnType<typeof setTimeout>|null} */
let captionTimer = null;

/**
 * Shows a caption over the board; answers how long it must stay before the next.
 * @param {string} text
 * @param {boolean} quick
 */
export function showCaption(text, quick) {
  caption.textContent = text;
  caption.hidden = false;
  if (captionTimer) clearTimeout(captionTimer);
  captionTimer = setTimeout(function () { caption.hidden = true; }, 1800);
  return quick ? QUICK_CAPTION_MS : CAPTION_MS;
}

/**
 * The opponent's answer to something this player asked, said where it is seen.
 * @param {GameEvent} d
 */
export function answerToast(d) {
  const seat = mySeat();
  if (!seat || !d.seat || d.seat === seat) return;
  if (d.kind === 'decline_draw') toast(t(playerName(d.seat) + ' 拒绝和棋', playerName(d.seat) + ' declines the draw'));
  else if (d.kind === 'offer_draw') toast(t(playerName(d.seat) + ' 提出和棋', playerName(d.seat) + ' offers a draw'));
}
