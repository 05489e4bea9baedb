// @ts-check
// The bot account page (/bot): mark the account as a bot or a person again, create a
// token (shown this once), revoke one. The page is rendered by the server; after a
// change of kind or a revocation it is simply loaded again.
import { api } from './api.js';
import { byId, el } from './dom.js';
import { t } from './i18n.js';

const root = byId('bot');
const errorBox = byId('bot-error');
const MAX = Number(root.dataset.max) || 10;

/** @param {unknown} e */
function showError(e) {
  errorBox.textContent = e instanceof Error ? e.message : String(e);
  errorBox.hidden = false;
}

/**
 * @param {string} id
 * @param {string} kind
 */
function kindButton(id, kind) {
  const btn = /** @type {HTMLButtonElement|null} */ (document.getElementById(id));
  if (!btn) return;
  btn.addEventListener('click', function () {
    btn.disabled = true;
    api('POST', '/api/bot/kind', { kind: kind })
      .then(function () { window.location.reload(); })
      .catch(function (e) { btn.disabled = false; showError(e); });
  });
}

kindButton('make-bot', 'bot');
kindButton('make-person', 'person');

const list = document.getElementById('token-list');

function refreshCount() {
  const count = document.getElementById('token-count');
  if (count && list) count.textContent = list.querySelectorAll('.token-item').length + ' / ' + MAX;
}

if (list) {
  list.addEventListener('click', function (ev) {
    const target = /** @type {HTMLElement} */ (ev.target);
    if (!target.classList.contains('revoke-token')) return;
    const item = /** @type {HTMLElement|null} */ (target.closest('.token-item'));
    if (!item) return;
    const btn = /** @type {HTMLButtonElement} */ (target);
    btn.disabled = true;
    api('DELETE', '/api/bot/tokens/' + item.dataset.tokenId)
      .then(function () { item.remove(); refreshCount(); })
      .catch(function (e) { btn.disabled = false; showError(e); });
  });
}

const form = /** @type {HTMLFormElement|null} */ (document.getElementById('token-form'));
if (form && list) {
  const input = /** @type {HTMLInputElement} */ (byId('token-name'));
  const submit = /** @type {HTMLButtonElement} */ (byId('token-create'));
  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    errorBox.hidden = true;
    submit.disabled = true;
    api('POST', '/api/bot/tokens', { name: input.value })
      .then(function (made) {
        // The only time the token is ever shown.
        byId('token-value').textContent = made.token;
        byId('token-new').hidden = false;
        input.value = '';
        list.appendChild(el('li', { class: 'token-item', dataset: { tokenId: made.id } }, [
          el('span', { class: 'token-name', dir: 'auto', text: made.name }),
          el('span', { class: 'muted', text: t('刚刚创建 · 从未使用', 'made just now · never used') }),
          el('button', { type: 'button', class: 'btn btn-danger btn-small revoke-token', text: t('吊销', 'Revoke') }),
        ]));
        refreshCount();
      })
      .catch(showError)
      .then(function () { submit.disabled = false; });
  });
}
