// The saved-layouts page: rename in place, delete, and import a junqi-layout/1 file.
// The list and its previews are rendered by the server; export is a plain download link.
(function () {
  'use strict';
  const J = window.Junqi;
  const T = J.t;
  const root = document.getElementById('layouts');
  if (!root) return;
  const list = document.getElementById('layout-list');
  const empty = document.getElementById('layouts-empty');
  const count = document.getElementById('layout-count');
  const errorBox = document.getElementById('layouts-error');
  const importForm = document.getElementById('import-form');
  const fileInput = document.getElementById('import-file');
  const importBtn = document.getElementById('import-submit');
  const MAX = Number(root.dataset.max) || 50;
  // The server's limit on a request body; a layout file is well under 1 KiB.
  const MAX_FILE = 16 * 1024;

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
  function explain(lead, err) {
    if (err.code === 'not_logged_in') return J.errorText('not_logged_in');
    if (err.code === 'network') return err.message;
    const reason = err.serverMessage || err.message;
    return lead + reason;
  }

  /** POSTs raw text and resolves with the JSON answer, or rejects with an ApiError. */
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
      throw new J.ApiError(0, 'network', J.errorText('network', 'Network error, please try again'));
    }
    let data = null;
    try {
      data = await res.json();
    } catch (e) {
      data = null;
    }
    if (!res.ok) {
      const err = (data && data.error) || {};
      const e = new J.ApiError(res.status, err.code || 'http_' + res.status, J.errorText(err.code, err.message));
      e.serverMessage = typeof err.message === 'string' ? err.message : '';
      throw e;
    }
    return data;
  }

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
      if (e instanceof J.ApiError) showError(explain(T('无法导入：', 'Cannot import: '), e));
      else showError(T('无法读取这个文件', 'Cannot read that file'));
      importBtn.disabled = false;
    }
  });

  // ---- rename in place, delete ---------------------------------------------------

  function startRename(item) {
    if (item.querySelector('.rename-form')) return;
    const title = item.querySelector('.layout-name');
    const input = J.el('input', {
      type: 'text', maxlength: 40, required: true, class: 'rename-input',
      'aria-label': T('新名称', 'New name'),
    });
    input.value = item.dataset.name || title.textContent;
    const form = J.el('form', { class: 'rename-form', autocomplete: 'off' }, [
      input,
      J.el('button', { type: 'submit', class: 'btn btn-primary btn-small', text: T('保存', 'Save') }),
      J.el('button', { type: 'button', class: 'btn btn-ghost btn-small rename-cancel', text: T('取消', 'Cancel') }),
    ]);
    title.hidden = true;
    title.after(form);
    input.focus();
    input.select();

    const finish = function () {
      form.remove();
      title.hidden = false;
    };
    form.querySelector('.rename-cancel').addEventListener('click', finish);
    input.addEventListener('keydown', function (e) {
      if (e.key === 'Escape') finish();
    });
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
      form.querySelectorAll('button, input').forEach(function (x) { x.disabled = true; });
      try {
        const saved = await J.api('PATCH', '/api/layouts/' + encodeURIComponent(item.dataset.layoutId), { name: name });
        item.dataset.name = saved.name;
        title.textContent = saved.name;
        finish();
        J.toast(T('已重命名', 'Renamed'));
      } catch (err) {
        if (err.status === 409) showError(T('已有同名的布阵：', 'You already have a layout named ') + name);
        else if (err.status === 404) showError(T('这个布阵已不存在，请刷新页面', 'That layout no longer exists; reload the page'));
        else showError(explain(T('无法重命名：', 'Cannot rename: '), err));
        form.querySelectorAll('button, input').forEach(function (x) { x.disabled = false; });
        input.focus();
      }
    });
  }

  async function remove(item, btn) {
    const name = item.dataset.name || '';
    if (!window.confirm(T('删除布阵“' + name + '”？', 'Delete the layout "' + name + '"?'))) return;
    clearError();
    btn.disabled = true;
    try {
      await J.api('DELETE', '/api/layouts/' + encodeURIComponent(item.dataset.layoutId));
      item.remove();
      refreshCount();
      J.toast(T('已删除', 'Deleted'));
    } catch (err) {
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
    const btn = ev.target.closest('button');
    if (!btn || !list.contains(btn)) return;
    const item = btn.closest('.layout-item');
    if (!item) return;
    if (btn.classList.contains('rename-layout')) startRename(item);
    else if (btn.classList.contains('delete-layout')) remove(item, btn);
  });
})();
