// @ts-check
// Every page: the header's menu marks the page one is on, and the way back to a running
// game (base.html's banner) is left out at the player's own running games.

/** The menu link of the page one is on: the lobby by its exact path, others by prefix. */
function markCurrent() {
  const path = window.location.pathname;
  const links = /** @type {NodeListOf<HTMLAnchorElement>} */ (document.querySelectorAll('#main-nav a[href]'));
  for (const a of links) {
    const href = a.getAttribute('href') || '';
    const here = href === '/' ? path === '/' : path === href || path.startsWith(href + '/');
    if (here) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

/**
 * On the page of one of the player's own running games the banner goes: they are at the
 * table already, and on a phone every line above the board counts. On any other game's
 * page (watching) it stays.
 */
function trimBanner() {
  const banner = document.getElementById('back-banner');
  if (!banner) return;
  const m = /^\/game\/([^/]+)$/.exec(window.location.pathname);
  if (!m) return;
  const here = decodeURIComponent(m[1]);
  if ((banner.dataset.games || '').split(' ').includes(here)) banner.remove();
}

markCurrent();
trimBanner();
