// @ts-check
// Every page: the header's logout button, and on one's own profile "log out everywhere".
// Reloading afterwards shows whatever state the session is really in, whether the call
// worked or not.
import { api } from './api.js';

const btn = /** @type {HTMLButtonElement|null} */ (document.getElementById('logout'));
if (btn) {
  btn.addEventListener('click', function () {
    btn.disabled = true;
    api('POST', '/api/logout')
      .catch(function () {})
      .then(function () { window.location.reload(); });
  });
}

const all = /** @type {HTMLButtonElement|null} */ (document.getElementById('logout-all'));
if (all) {
  all.addEventListener('click', function () {
    all.disabled = true;
    api('POST', '/api/logout-all')
      .catch(function () {})
      .then(function () { window.location.reload(); });
  });
}
