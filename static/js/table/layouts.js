// @ts-check
// Saved layouts while a 四国 table deploys: 载入布阵 lists the player's saved layouts
// (GET /api/layouts, the same ones the two-player deploy page and /layouts keep) and
// loads one into the player's own area; 保存布阵 saves the current arrangement under a
// name. Both go over the socket (`load_layout`, `save_layout`) so that the server turns
// a seat-relative layout onto the seat's area, refuses one of another 乱战 hand
// (`not_your_hand`), and keeps the arrangement to itself. Shown only as `can` says.
import { api } from '../api.js';
import { byId, el, toast } from '../dom.js';
import { t } from '../i18n.js';
import { store } from './state.js';

/** @typedef {(type: string, data?: unknown) => Promise<unknown>} Command */

const els = {
  load: /** @type {HTMLButtonElement} */ (byId('act-load')),
  save: /** @type {HTMLButtonElement} */ (byId('act-save')),
  chooser: byId('layout-chooser'),
  note: byId('layout-note'),
  list: byId('layout-list'),
  form: /** @type {HTMLFormElement} */ (byId('layout-save')),
  name: /** @type {HTMLInputElement} */ (byId('layout-name')),
};

/** @type {Command|null} */
let send = null;

function closeChooser() {
  els.chooser.hidden = true;
  els.load.setAttribute('aria-expanded', 'false');
}

function closeSave() {
  els.form.hidden = true;
  els.save.setAttribute('aria-expanded', 'false');
}

async function openChooser() {
  closeSave();
  els.chooser.hidden = false;
  els.load.setAttribute('aria-expanded', 'true');
  els.note.textContent = t('正在读取…', 'Loading…');
  els.list.replaceChildren();
  /** @type {{id: number, name: string}[]} */
  let list;
  try {
    list = await api('GET', '/api/layouts');
  } catch (e) {
    els.note.textContent = /** @type {Error} */ (e).message;
    return;
  }
  if (els.chooser.hidden) return;
  list = Array.isArray(list) ? list : [];
  els.note.replaceChildren(
    list.length ? t('选择一个已保存的布阵：', 'Choose a saved layout:') : t('还没有保存的布阵。摆好后点「保存布阵」。', 'No saved layouts yet. Arrange your pieces and press Save layout.'),
    ' ',
    // Opens beside the table: leaving this page for long would be leaving the seat.
    el('a', { href: '/layouts', target: '_blank', rel: 'noopener', text: t('管理布阵', 'Manage layouts') }));
  els.list.replaceChildren(...list.map(function (x) {
    const b = el('button', { type: 'button', class: 'btn btn-ghost btn-small tp-layout-pick', dataset: { id: String(x.id) }, text: x.name || '#' + x.id });
    b.addEventListener('click', function () {
      closeChooser();
      store.selected = null;
      if (send) send('load_layout', { id: x.id }).catch(function () {});
    });
    return el('li', null, [b]);
  }));
}

/** @param {Command} cmd */
export function wireLayouts(cmd) {
  send = cmd;
  els.load.addEventListener('click', function () {
    if (els.chooser.hidden) openChooser();
    else closeChooser();
  });
  els.save.addEventListener('click', function () {
    const open = els.form.hidden;
    closeChooser();
    els.form.hidden = !open;
    els.save.setAttribute('aria-expanded', open ? 'true' : 'false');
    if (open) els.name.focus();
  });
  els.form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    const name = els.name.value.trim();
    if (!name) {
      toast(t('请输入布阵名称', 'Please name the layout'), 'error');
      return;
    }
    if (!send) return;
    send('save_layout', { name: name }).then(function () {
      closeSave();
      toast(t('布阵已保存：' + name, 'Layout saved: ' + name));
    }, function () {});
  });
}

/** Shows the two buttons while the server would take them, and closes what is moot. */
export function renderLayouts() {
  const tb = store.table;
  const can = tb && tb.phase === 'deploying' ? tb.can : null;
  els.load.hidden = !(can && can.load_layout);
  // Saving waits for a layout that breaks no rule; the button says so rather than hides.
  els.save.hidden = !(can && can.deploy);
  els.save.disabled = !(can && can.save_layout);
  els.save.title = can && can.deploy && !can.save_layout ? t('布阵合规后才能保存', 'Fix the layout before saving it') : '';
  if (els.load.hidden) closeChooser();
  if (els.save.hidden || els.save.disabled) closeSave();
}
