// @ts-check
// The saved-layouts page: rename in place, delete, and import a junqi-layout/1 file.
// The list and its previews are rendered by the server; export is a plain download link.
import { ApiError, api } from './api.js';
import { byId, el, toast } from './dom.js';
import { errorText, t as T } from './i18n.js';

/** @typedef {ApiError & {serverMessage?: string}} LayoutError */

const root = byId('layouts');
const list = byId('layout-list');
const empty = byId('layouts-empty');
const count = byId('layout-count');
const errorBox = byId('layouts-error');
const importForm = byId('import-form');
const fileInput = /** @type {HTMLInputElement} */ (byId('import-file'));
const importBtn = /** @type {HTMLButtonElement} */ (byId('import-submit'));
const MAX = Number(root.dataset.max) || 50;
// The server's limit on a request body; a layout file is well under 1 KiB.
const MAX_FILE = 16 * 1024;

/** @param {string} message */
function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = false;
}

function clearError() {
  errorBox.hidden = true;
}

function refreshCount() {
  const n = list.querySelectorAll('.layout-item').length;
  count.textContent = n + ' / ' + MAX;
  empty.hidden = n > 0;
}

// The server explains a refused layout in English; Chinese pages keep that precise
// reason after a Chinese lead-in rather than replace it with a generic message.
/**
 * @param {string} lead
 * @param {LayoutError} err
 */
function explain(lead, err) {
  if (err.code === 'not_logged_in') return errorText('not_logged_in');
  if (err.code === 'network') return err.message;
  const reason = err.serverMessage || err.message;
  return lead + reason;
}

/**
 * POSTs raw text and resolves with the JSON answer, or rejects with an ApiError.
 * @param {string} path
 * @param {string} text
 * @returns {Promise<any>}
 */
async function postText(path, text) {
  let res;
  try {
    res = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'text/plain; charset=utf-8' },
      body: text,
    });
  } catch (e) {
    throw new ApiError(0, 'network', errorText('network', 'Network error, please try again'));
  }
  let data = null;
  try {
    data = await res.json();
  } catch (e) {
    data = null;
  }
  if (!res.ok) {
    const err = (data && data.error) || {};
    /** @type {LayoutError} */
    const e = new ApiError(res.status, err.code || 'http_' + res.status, errorText(err.code, err.message));
    e.serverMessage = typeof err.message === 'string' ? err.message : '';
    throw e;
  }
  return data;
}

/**
 * @param {File} file
 * @returns {Promise<string>}
 */
function readText(file) {
  return new Promise(function (resolve, reject) {
    const reader = new FileReader();
    reader.onload = function () { resolve(String(reader.result || '')); };
    reader.onerror = function () { reject(reader.error); };
    reader.readAsText(file, 'utf-8');
  });
}

importForm.addEventListener('submit', async function (ev) {
  ev.preventDefault();
  clearError();
  const file = fileInput.files && fileInput.files[0];
  if (!file) {
    showError(T('请先选择一个布阵文件', 'Choose a layout file first'));
    return;
  }
  if (file.size > MAX_FILE) {
    showError(T('文件太大，不是布阵文件', 'The file is too large to be a layout file'));
    return;
  }
  importBtn.disabled = true;
  try {
    const text = await readText(file);
    const saved = await postText('/api/layouts/import', text);
    // The server renders the new preview; come back to it, marked by the anchor.
    window.location.hash = 'layout-' + saved.id;
    window.location.reload();
  } catch (e) {
    if (e instanceof ApiError) showError(explain(T('无法导入：', 'Cannot import: '), e));
    else showError(T('无法读取这个文件', 'Cannot read that file'));
    importBtn.disabled = false;
  }
});

// ---- rename in place, delete ---------------------------------------------------

/** @param {HTMLElement} item */
function startRename(item) {
  if (item.querySelector('.rename-form')) return;
  const title = /** @type {HTMLElement} */ (item.querySelector('.layout-name'));
  const input = /** @type {HTMLInputElement} */ (el('input', {
    type: 'text', maxlength: 40, required: true, class: 'rename-input',
    'aria-label': T('新名称', 'New name'),
  }));
  input.value = item.dataset.name || title.textContent || '';
  const form = el('form', { class: 'rename-form', autocomplete: 'off' }, [
    input,
    el('button', { type: 'submit', class: 'btn btn-primary btn-small', text: T('保存', 'Save') }),
    el('button', { type: 'button', class: 'btn btn-ghost btn-small rename-cancel', text: T('取消', 'Cancel') }),
  ]);
  title.hidden = true;
  title.after(form);
  input.focus();
  input.select();

  const finish = function () {
    form.remove();
    title.hidden = false;
  };
  /** @type {HTMLElement} */ (form.querySelector('.rename-cancel')).addEventListener('click', finish);
  input.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') finish();
  });
  /** @param {boolean} on */
  const disable = function (on) {
    form.querySelectorAll('button, input').forEach(function (x) { /** @type {HTMLInputElement} */ (x).disabled = on; });
  };
  form.addEventListener('submit', async function (e) {
    e.preventDefault();
    clearError();
    const name = input.value.trim();
    if (!name) {
      showError(T('布阵需要一个名称', 'A layout needs a name'));
      return;
    }
    if (name === item.dataset.name) {
      finish();
      return;
    }
    disable(true);
    try {
      const saved = await api('PATCH', '/api/layouts/' + encodeURIComponent(item.dataset.layoutId || ''), { name: name });
      item.dataset.name = saved.name;
      title.textContent = saved.name;
      finish();
      toast(T('已重命名', 'Renamed'));
    } catch (e) {
      const err = /** @type {LayoutError} */ (e);
      if (err.status === 409) showError(T('已有同名的布阵：', 'You already have a layout named ') + name);
      else if (err.status === 404) showError(T('这个布阵已不存在，请刷新页面', 'That layout no longer exists; reload the page'));
      else showError(explain(T('无法重命名：', 'Cannot rename: '), err));
      disable(false);
      input.focus();
    }
  });
}

/**
 * @param {HTMLElement} item
 * @param {HTMLButtonElement} btn
 */
async function remove(item, btn) {
  const name = item.dataset.name || '';
  if (!window.confirm(T('删除布阵“' + name + '”？', 'Delete the layout "' + name + '"?'))) return;
  clearError();
  btn.disabled = true;
  try {
    await api('DELETE', '/api/layouts/' + encodeURIComponent(item.dataset.layoutId || ''));
    item.remove();
    refreshCount();
    toast(T('已删除', 'Deleted'));
  } catch (e) {
    const err = /** @type {LayoutError} */ (e);
    if (err.status === 404) {
      // Already gone (another tab): the page now agrees with the server.
      item.remove();
      refreshCount();
      return;
    }
    showError(explain(T('无法删除：', 'Cannot delete: '), err));
    btn.disabled = false;
  }
}

list.addEventListener('click', function (ev) {
  const btn = /** @type {Element} */ (ev.target).closest('button');
  if (!btn || !list.contains(btn)) return;
  const item = /** @type {HTMLElement|null} */ (btn.closest('.layout-item'));
  if (!item) return;
  if (btn.classList.contains('rename-layout')) startRename(item);
  else if (btn.classList.contains('delete-layout')) remove(item, btn);
});
