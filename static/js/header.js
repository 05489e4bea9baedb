// @ts-check
// Every page: the header's logout button, and on one's own profile "log out everywhere".
// Reloading afterwards shows whatever state the session is really in, whether the call
// worked or not.
import { api } from './api.js';
import { t } from './i18n.js';
import './nav.js';

// A guest's account lives in this browser's session alone (src/web/guest.rs): once
// logged out, nobody can log in to it again, so its games cannot be claimed any more.
const account = document.getElementById('account-name');
const guest = !!account && account.dataset.kind === 'guest';

const btn = /** @type {HTMLButtonElement|null} */ (document.getElementById('logout'));
if (btn) {
  btn.addEventListener('click', function () {
    if (guest && !window.confirm(t(
      '游客退出后就不能再回到这个账号，对局也无法再通过注册保留。仍要退出吗？',
      'Once a guest logs out, nobody can come back to this account, and registering can no longer keep its games. Log out anyway?'
    ))) return;
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
