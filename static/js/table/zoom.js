// @ts-check
// On a narrow screen the 17 × 17 board leaves a station's tap target smaller than a
// finger (about 20 px at 360 px): a toggle then draws the board twice as large in a
// scrollable frame, scrolled to the viewer's own area at the bottom, and the player
// pans with a finger to see the rest. Wider screens never see the button.
import { byId, remembered } from '../dom.js';
import { t } from '../i18n.js';
import { UNIT } from './geometry.js';

/** Below this many CSS px per station a finger needs the zoom. */
export const MIN_TARGET_PX = 28;

const els = {
  button: /** @type {HTMLButtonElement} */ (byId('zoom')),
  frame: byId('board-scroll'),
  svg: byId('board'),
};

const wanted = remembered('junqi.table.zoom', false);
let boardWidth = 0;

/** The on-screen size of one grid step (a station's tap target), unzoomed. */
function cellPx() {
  const w = els.frame.clientWidth;
  return boardWidth ? (w / boardWidth) * UNIT : 0;
}

function apply() {
  const needed = cellPx() > 0 && cellPx() < MIN_TARGET_PX;
  els.button.hidden = !needed;
  const on = needed && wanted.get();
  const was = els.frame.classList.contains('is-zoomed');
  els.frame.classList.toggle('is-zoomed', on);
  els.button.setAttribute('aria-pressed', on ? 'true' : 'false');
  els.button.textContent = on ? t('缩小棋盘', 'Whole board') : t('放大己方', 'Zoom in');
  if (on && !was) toBottom();
}

/** Scrolls the zoomed frame to the bottom area's middle: the viewer's own army. */
export function toBottom() {
  const f = els.frame;
  f.scrollTop = f.scrollHeight - f.clientHeight;
  f.scrollLeft = (f.scrollWidth - f.clientWidth) / 2;
}

/** @param {number} width the board's viewBox width */
export function wireZoom(width) {
  boardWidth = width;
  els.button.addEventListener('click', function () {
    wanted.set(!els.frame.classList.contains('is-zoomed'));
    apply();
  });
  window.addEventListener('resize', apply);
  apply();
}
