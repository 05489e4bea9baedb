// Every page: the header's logout button. A classic script, so that pages without a
// module of their own need nothing more (the modules share js/api.js and js/dom.js).
(function () {
  'use strict';
  const btn = document.getElementById('logout');
  if (!btn) return;
  btn.addEventListener('click', function () {
    btn.disabled = true;
    // Reloading shows whatever state the session is really in, whether the call worked
    // or not.
    fetch('/api/logout', { method: 'POST', credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .catch(function () {})
      .then(function () { window.location.reload(); });
  });
})();
