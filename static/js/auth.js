// @ts-check
// Login and registration: one form, JSON to /api/login or /api/register, then back to the
// page the visitor came from (`?next=`, same site only).
import { api } from './api.js';
import { byId } from './dom.js';
import { t } from './i18n.js';

/**
 * A same-site path from `?next=`, or '/' when it is missing or points elsewhere.
 * @param {string|null} raw
 */
function safeNext(raw) {
  if (typeof raw !== 'string' || raw === '') return '/';
  if (raw.charAt(0) !== '/' || raw.charAt(1) === '/' || raw.charAt(1) === '\\') return '/';
  if (/[\u0000-\u001f]/.test(raw)) return '/';
  return raw;
}

const form = /** @type {HTMLFormElement} */ (byId('auth-form'));
const mode = form.dataset.mode === 'register' ? 'register' : 'login';
const errorBox = byId('auth-error');
const submit = /** @type {HTMLButtonElement} */ (byId('submit'));
const username = /** @type {HTMLInputElement} */ (byId('username'));
const password = /** @type {HTMLInputElement} */ (byId('password'));
const params = new URLSearchParams(window.location.search);
const next = safeNext(params.get('next'));

// Keep ?next= when switching between login and register.
const switchLink = /** @type {HTMLAnchorElement|null} */ (document.getElementById('switch-link'));
if (switchLink && params.get('next')) {
  switchLink.href = switchLink.getAttribute('href') + '?next=' + encodeURIComponent(next);
}

/** @param {string} message */
function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = false;
}

form.addEventListener('submit', async function (ev) {
  ev.preventDefault();
  errorBox.hidden = true;
  const name = username.value.trim();
  if (!name || !password.value) {
    showError(t('请填写用户名和密码', 'Enter a username and a password'));
    return;
  }
  submit.disabled = true;
  try {
    await api('POST', mode === 'register' ? '/api/register' : '/api/login', { username: name, password: password.value });
    window.location.assign(next);
  } catch (e) {
    const err = /** @type {import('./api.js').ApiError} */ (e);
    showError(err.message);
    submit.disabled = false;
    if (err.code === 'bad_credentials') password.select();
  }
});
