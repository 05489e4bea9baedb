// @ts-check
// The two small menus of the action bar under the board, 💬 (快捷语, wired by
// phrases.js) and ⋯ (hide phrases, the log, the rules, the lobby). They open upward over
// the board rather than below it, so opening one never scrolls the board away; one is
// open at a time, and a tap anywhere else closes it.
import { byId } from '../dom.js';

const bar = byId('action-bar');
const menus = [
  { button: byId('phrase-button'), menu: byId('phrase-menu') },
  { button: byId('more-button'), menu: byId('more-menu') },
];

/** @param {HTMLElement|null} keep */
function closeAll(keep) {
  for (const m of menus) {
    if (m.menu === keep) continue;
    m.menu.hidden = true;
    m.button.setAttribute('aria-expanded', 'false');
  }
}

export function wireMenus() {
  const more = menus[1];
  more.button.addEventListener('click', function () {
    const open = more.menu.hidden;
    more.menu.hidden = !open;
    more.button.setAttribute('aria-expanded', open ? 'true' : 'false');
  });
  // The 💬 button's own handler (phrases.js) toggles its menu; this closes the other.
  menus[0].button.addEventListener('click', function () { closeAll(menus[0].menu); });
  more.button.addEventListener('click', function () { closeAll(more.menu); });
  for (const a of more.menu.querySelectorAll('a')) a.addEventListener('click', function () { closeAll(null); });
  document.addEventListener('click', function (ev) {
    const target = /** @type {Node|null} */ (ev.target);
    if (target && bar.contains(target)) return;
    closeAll(null);
  });
  document.addEventListener('keydown', function (ev) {
    if (ev.key === 'Escape') closeAll(null);
  });
}
