// @ts-check
// "游客试玩 / Play as a guest" (templates/guest_block.html): makes a guest account
// (POST /api/guest, src/web/guest.rs) and, once logged in as it, goes on.
import { api } from './api.js';

/**
 * Binds the guest button, if the page has one; `then` runs once the visitor is a guest.
 * @param {() => void} then
 */
export function bindGuestButton(then) {
  const button = /** @type {HTMLButtonElement|null} */ (document.getElementById('guest-play'));
  const errorBox = document.getElementById('guest-error');
  if (!button) return;
  button.addEventListener('click', async function () {
    button.disabled = true;
    if (errorBox) errorBox.hidden = true;
    try {
      await api('POST', '/api/guest');
      then();
    } catch (e) {
      const err = /** @type {import('./api.js').ApiError} */ (e);
      if (errorBox) {
        errorBox.textContent = err.message;
        errorBox.hidden = false;
      }
      button.disabled = false;
    }
  });
}
