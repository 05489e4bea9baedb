// Login and registration: one form, JSON to /api/login or /api/register.
(function () {
  'use strict';
  const J = window.Junqi;
  const form = document.getElementById('auth-form');
  if (!form) return;
  const mode = form.dataset.mode === 'register' ? 'register' : 'login';
  const errorBox = document.getElementById('auth-error');
  const submit = document.getElementById('submit');
  const params = new URLSearchParams(window.location.search);
  const next = J.safeNext(params.get('next'));

  // Keep ?next= when switching between login and register.
  const switchLink = document.getElementById('switch-link');
  if (switchLink && params.get('next')) {
    switchLink.href = switchLink.getAttribute('href') + '?next=' + encodeURIComponent(next);
  }

  function showError(message) {
    errorBox.textContent = message;
    errorBox.hidden = false;
  }

  form.addEventListener('submit', async function (ev) {
    ev.preventDefault();
    errorBox.hidden = true;
    const username = form.elements.username.value.trim();
    const password = form.elements.password.value;
    if (!username || !password) {
      showError(J.t('请填写用户名和密码', 'Enter a username and a password'));
      return;
    }
    submit.disabled = true;
    try {
      await J.api('POST', mode === 'register' ? '/api/register' : '/api/login', {
        username: username,
        password: password,
      });
      window.location.assign(next);
    } catch (e) {
      showError(e.message);
      submit.disabled = false;
      if (e.code === 'bad_credentials') {
        form.elements.password.select();
      }
    }
  });
})();
