// @ts-check
// Every page: the header's logout button. Reloading afterwards shows whatever state the
// session is really in, whether the call worked or not.
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
