// @ts-check
// Login and registration: one form, JSON to /api/login or /api/register, then back to the
// page the visitor came from (`?next=`, same site only).
import { api } from './api.js';
import { byId } from './dom.js';
import { t } from './i18n.js';
import { bindGuestButton } from './guest.js';

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
// The optional 昵称, on the registration form only.
const displayName = /** @type {HTMLInputElement|null} */ (document.getElementById('display_name'));
const params = new URLSearchParams(window.location.search);
const next = safeNext(params.get('next'));

// Keep ?next= when switching between login and register.
const switchLink = /** @type {HTMLAnchorElement|null} */ (document.getElementById('switch-link'));
if (switchLink && params.get('next')) {
  switchLink.href = switchLink.getAttribute('href') + '?next=' + encodeURIComponent(next);
}

bindGuestButton(function () { window.location.assign(next); });

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
  /** @type {{username: string, password: string, display_name?: string}} */
  const body = { username: name, password: password.value };
  // An empty box is no 昵称, as on the profile's form; anything else the server checks.
  if (displayName && displayName.value.trim()) body.display_name = displayName.value;
  try {
    await api('POST', mode === 'register' ? '/api/register' : '/api/login', body);
    window.location.assign(next);
  } catch (e) {
    const err = /** @type {import('./api.js').ApiError} */ (e);
    submit.disabled = false;
    // A login name in Chinese (or any non-ASCII script) is refused: say it can be the
    // 昵称, and put it there, so that only a login name is left to choose.
    if (err.code === 'invalid_username' && /[^\x00-\x7f]/.test(name)) {
      if (displayName && !displayName.value.trim()) displayName.value = name;
      showError(t(
        '用户名只能用字母 A–Z、a–z、数字、_ 和 -。“' + name + '”可以作为昵称' +
          (displayName ? '（已填入下面的昵称栏）' : '（注册时填在昵称栏）') + '，请另取一个用户名。',
        'A username may use only letters A–Z and a–z, digits, _ and -. "' + name + '" can be your display name (昵称)' +
          (displayName ? ' (put in the 昵称 box below)' : ' (in the 昵称 box when you register)') + ': choose another username.'
      ));
      username.select();
      return;
    }
    showError(err.message);
    if (err.code === 'bad_credentials') password.select();
  }
});
