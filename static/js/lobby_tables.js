// @ts-check
// 四国 tables in the lobby (src/live/lobby_tables.rs): the list of tables waiting for
// players, each with its mode, switches, clock and its four seats (who sits where, the
// empty ones too), a link to the table's page; and the lobby form's 四国 section, which
// opens a table (人机四国 when the computer takes the other seats) or quick-pairs into
// one, then goes to the table's page.
import { ApiError, api } from './api.js';
import { byId, el, toast } from './dom.js';
import { rankName, t } from './i18n.js';
import { kindBadge } from './badge.js';
import { avatarImg } from './avatar.js';

/** @typedef {import('./messages.js').OpenTable} OpenTable */
/** @typedef {import('./messages.js').OpenTableSeat} OpenTableSeat */

const list = byId('open-tables');
const empty = byId('tables-empty');
const root = byId('lobby');
const me = root.dataset.user || null;

/** @type {Record<string, [string, string]>} */
const SEAT_NAMES = { south: ['南', 'S'], east: ['东', 'E'], north: ['北', 'N'], west: ['西', 'W'] };
/** @type {Record<string, [string, string]>} */
const MODES = { opposite: ['对家', 'Opposite'], adjacent: ['并肩', 'Adjacent'], none: ['混战', 'Free-for-all'] };

/**
 * @param {string|null|undefined} a
 * @param {string|null|undefined} b
 */
function sameUser(a, b) {
  return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
}

/** @param {string} id */
function gotoTable(id) {
  window.location.assign('/game/' + encodeURIComponent(id));
}

/** @param {OpenTableSeat} s */
function seatCard(s) {
  const [zh, en] = SEAT_NAMES[s.seat] || [s.seat, s.seat];
  const p = s.player;
  return el('li', { class: 'ot-seat', dataset: { seat: s.seat, filled: String(!!p), ready: String(!!s.ready) } }, [
    el('span', { class: 'ot-seat-name', text: t(zh, en) }),
    p ? avatarImg(p, 'ot-avatar') : null,
    p
      ? el('bdi', { class: 'ot-player', title: p.rank ? rankName(p.rank) : null, text: p.display_name || p.username })
      : el('span', { class: 'ot-empty', text: t('空位', 'empty') }),
    p ? kindBadge(p.kind) : null,
    p && s.ready ? el('span', { class: 'ot-ready', title: t('已举手', 'ready'), text: '✓' }) : null,
  ]);
}

/** @param {OpenTable} table */
function row(table) {
  const o = table.options;
  const mine = !!me && sameUser(table.creator && table.creator.username, me);
  const [zh, en] = MODES[o.alliance] || [o.alliance, o.alliance];
  const seated = table.seats.filter(function (s) { return s.player; }).length;
  const tags = [
    el('span', { class: 'tag tag-siguo', text: t('四国', '4 players') }),
    el('span', { class: 'tag ot-mode', dataset: { mode: o.alliance }, text: t(zh, en) }),
    o.random_pieces ? el('span', { class: 'tag ot-switch', dataset: { option: 'random_pieces' }, text: t('乱战', 'dealt pieces') }) : null,
    o.allies_visible ? el('span', { class: 'tag ot-switch', dataset: { option: 'allies_visible' }, text: t('友明', 'allies visible') }) : null,
    o.bombs_on_front_row ? el('span', { class: 'tag ot-switch', dataset: { option: 'bombs_on_front_row' }, text: t('炸弹满天飞', 'bombs in front') }) : null,
    el('span', { class: 'tag og-clock', text: t(table.seconds_per_action + ' 秒/步', table.seconds_per_action + ' s/step') }),
    el('span', { class: 'tag ' + (table.rated ? 'tag-rated' : 'tag-casual'), text: table.rated ? t('积分赛', 'Rated') : t('友谊赛', 'Casual') }),
    el('span', { class: 'ot-count', text: t(seated + '/4 人' + (table.to_start === 3 ? '，3 人可开局' : ''), seated + '/4 seated' + (table.to_start === 3 ? ', 3 can start' : '')) }),
  ];
  const cancel = mine
    ? el('button', { type: 'button', class: 'btn btn-danger btn-small cancel-table', dataset: { id: table.id }, text: t('取消', 'Cancel') })
    : null;
  return el('li', { class: 'open-table' + (mine ? ' mine' : ''), dataset: { tableId: table.id } }, [
    el('a', { class: 'ot-link', href: '/game/' + encodeURIComponent(table.id) }, [
      el('div', { class: 'ot-meta' }, tags),
      el('ol', { class: 'ot-seats' }, table.seats.map(seatCard)),
    ]),
    cancel,
  ]);
}

/** @param {OpenTable[]|undefined} tables */
export function renderTables(tables) {
  const next = Array.isArray(tables) ? tables : [];
  list.replaceChildren.apply(list, next.map(row));
  empty.hidden = next.length > 0;
}

list.addEventListener('click', async function (ev) {
  const btn = /** @type {HTMLButtonElement|null} */ (/** @type {HTMLElement} */ (ev.target).closest('button.cancel-table'));
  if (!btn) return;
  btn.disabled = true;
  try {
    await api('POST', '/api/games/' + encodeURIComponent(btn.dataset.id || '') + '/cancel');
    const item = btn.closest('li');
    if (item) item.remove();
    empty.hidden = list.children.length > 0;
  } catch (e) {
    toast(/** @type {Error} */ (e).message, 'error');
    btn.disabled = false;
  }
});

// The form's 四国 section.
const form = /** @type {HTMLFormElement|null} */ (document.getElementById('table-form'));
if (form) {
  const f = form;
  const createBtn = /** @type {HTMLButtonElement} */ (byId('table-create'));
  const quickBtn = /** @type {HTMLButtonElement} */ (byId('table-quick'));
  const errorBox = byId('table-error');
  /** @param {string} name */
  const checked = function (name) {
    const input = /** @type {HTMLInputElement|null} */ (f.querySelector('input[name="' + name + '"]:checked'));
    return input ? input.value : '';
  };
  /** @param {string} name */
  const on = function (name) {
    const input = /** @type {HTMLInputElement|null} */ (f.querySelector('input[name="' + name + '"]'));
    return !!input && input.checked;
  };
  const rated = /** @type {HTMLInputElement|null} */ (f.querySelector('input[name="rated"][value="true"]'));
  const casual = /** @type {HTMLInputElement|null} */ (f.querySelector('input[name="rated"][value="false"]'));
  // A guest plays casual games only, and so does the computer: the form says so.
  const guest = !!document.getElementById('guest-note');
  if (casual && guest) casual.checked = true;
  const sync = function () {
    const computer = checked('computer') !== '';
    if (computer && casual) casual.checked = true;
    if (rated) rated.disabled = computer || guest;
    quickBtn.disabled = computer;
  };
  f.addEventListener('change', sync);
  sync();
  const settings = function () {
    /** @type {Record<string, unknown>} */
    const body = {
      seconds_per_action: Number(checked('seconds_per_action') || 30),
      rated: checked('rated') === 'true',
      options: {
        alliance: checked('alliance') || 'opposite',
        random_pieces: on('random_pieces'),
        allies_visible: on('allies_visible'),
        bombs_on_front_row: on('bombs_on_front_row'),
      },
    };
    const grace = checked('grace_seconds');
    if (grace) body.grace_seconds = Number(grace);
    return body;
  };
  /**
   * @param {string} path
   * @param {HTMLButtonElement} btn the button pressed
   * @param {boolean} withComputer
   */
  const submit = async function (path, btn, withComputer) {
    errorBox.hidden = true;
    createBtn.disabled = true;
    quickBtn.disabled = true;
    const label = btn.textContent;
    btn.textContent = btn === createBtn ? t('开桌中…', 'Opening…') : t('配对中…', 'Matching…');
    try {
      const body = settings();
      if (withComputer && checked('computer')) body.computer = checked('computer');
      const res = await api('POST', path, body);
      if (!res || !res.id) throw new ApiError(0, 'bad_answer', t('服务器没有返回桌号', 'The server gave no table id'));
      gotoTable(res.id);
    } catch (e) {
      errorBox.textContent = /** @type {Error} */ (e).message;
      errorBox.hidden = false;
      btn.textContent = label;
      createBtn.disabled = false;
      sync();
    }
  };
  f.addEventListener('submit', function (ev) {
    ev.preventDefault();
    submit('/api/tables', createBtn, true);
  });
  quickBtn.addEventListener('click', function () { submit('/api/tables/quick', quickBtn, false); });
}
