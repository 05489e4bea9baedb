// @ts-check
// Standard 军棋's deployment (布阵): your own half from your layout, two taps swap two
// pieces, random / saved layouts, the rules a layout breaks (the server's `violations`,
// framed on the board), 出征. On phones the controls are a sticky bar at the bottom.
import { api } from '../api.js';
import { byId, el, toast } from '../dom.js';
import { errorText, t } from '../i18n.js';
import { SEATS, deploying, layoutPieces, mySeat, other, playerName, rootEl, store } from './state.js';

/** @typedef {import('../board.js').BoardView} BoardView */
/** @typedef {import('../messages.js').Violation} Violation */
/** @typedef {(type: string, data?: unknown) => Promise<{a: number, v?: number}>} Send */

const els = {
  panel: byId('deploy-panel'),
  clockBox: byId('deploy-clock'),
  clockNum: byId('deploy-clock-num'),
  text: byId('deploy-text'),
  ready: byId('deploy-ready'),
  tools: byId('deploy-tools'),
  random: /** @type {HTMLButtonElement} */ (byId('deploy-random')),
  load: /** @type {HTMLButtonElement} */ (byId('deploy-load')),
  save: /** @type {HTMLButtonElement} */ (byId('deploy-save')),
  chooser: byId('deploy-chooser'),
  chooserNote: byId('deploy-chooser-note'),
  saved: byId('deploy-saved'),
  saveForm: /** @type {HTMLFormElement} */ (byId('deploy-save-form')),
  saveName: /** @type {HTMLInputElement} */ (byId('deploy-save-name')),
  problems: byId('deploy-problems'),
  violations: byId('deploy-violations'),
  go: /** @type {HTMLButtonElement} */ (byId('deploy-go')),
  more: /** @type {HTMLButtonElement} */ (byId('deploy-more')),
  hint: byId('deploy-hint'),
};

/** @type {Record<string, [string, string]>} */
const VIOLATIONS = {
  flag_outside_headquarters: ['军旗必须放在大本营', 'The flag must stand in one of your headquarters'],
  mine_forward: ['地雷只能放在最后两排', 'Mines may only stand on your last two ranks'],
  bomb_on_front_rank: ['炸弹不能放在第一排', 'Bombs may not stand on your front rank'],
  in_camp: ['行营开局必须空着', 'Camps start empty'],
  outside_own_half: ['棋子只能放在己方半场', 'Pieces go on your own half only'],
  empty_station: ['除行营外每个站位都要放一枚棋子', 'Every station of your half but the camps holds a piece'],
  wrong_count: ['棋子数目与整副棋不符', 'The pieces do not match the set'],
};

/** @type {Record<string, [string, string]>} */
const REFUSALS = {
  already_ready: ['你已出征，布阵不能再改', 'You are ready: your layout is locked'],
  not_your_piece: ['只能交换自己的棋子', 'Only your own pieces can be swapped'],
  invalid_layout: ['布阵不合规则', 'The layout breaks the rules'],
  no_such_layout: ['找不到这个已存布阵', 'That saved layout was not found'],
  layouts_full: ['已存满 50 个布阵，请先删除一个', 'You already keep 50 layouts; delete one first'],
  deployment_over: ['布阵已经结束', 'Deployment is over'],
};

/** @param {Violation} x */
export function violationText(x) {
  const w = VIOLATIONS[x.code] ? t(VIOLATIONS[x.code][0], VIOLATIONS[x.code][1]) : x.message || String(x.code || '');
  return x.square ? x.square + t('：', ': ') + w : w;
}

/**
 * Why the server refused a command, from its `reason` and `violations`.
 * @param {{code: string, message?: string, reason?: string, violations?: Violation[]}} d
 */
export function refusalText(d) {
  const words = d.reason && REFUSALS[d.reason] ? t(REFUSALS[d.reason][0], REFUSALS[d.reason][1]) : errorText(d.code, d.message);
  const why = Array.isArray(d.violations) ? d.violations.map(violationText) : [];
  return why.length ? words + t('：', ': ') + why.join(t('；', '; ')) : words;
}

/** @type {string|null} */
let sel = null;
let busy = false;
/** @type {Send} */
let send = function () { return Promise.reject(new Error('not wired')); };
/** @type {() => void} */
let rerender = function () {};

function canRearrange() {
  const seat = mySeat();
  const dep = store.S && store.S.deploy;
  return !!(seat && dep && dep.layout && deploying() && !(dep.ready && dep.ready[seat]));
}

/**
 * Sends a deployment command, blocking the controls until the server answers.
 * @param {string} kind
 * @param {unknown} [data]
 */
function command(kind, data) {
  if (busy) return Promise.resolve(false);
  busy = true;
  rerender();
  return send(kind, data).then(function () {
    if (kind === 'save_layout') {
      toast(t('布阵已保存', 'Layout saved'));
      els.saveForm.hidden = true;
      els.save.setAttribute('aria-expanded', 'false');
    }
    return true;
  }, function (e) {
    if (e && e.code !== 'disconnected') toast(e.code === 'timeout' ? t('服务器没有回应', 'No answer from the server') : refusalText(Object.assign({ code: e.code, message: e.message }, e.data)), 'error');
    return false;
  }).finally(function () {
    busy = false;
    rerender();
  });
}

/**
 * Draws your half while deploying.
 * @param {BoardView} board
 */
export function renderDeployBoard(board) {
  const S = store.S;
  const dep = S && S.deploy;
  const seat = mySeat();
  /** @type {Record<string, import('../messages.js').Cell>} */
  const cells = {};
  if (seat && dep) {
    const pieces = layoutPieces(dep.layout);
    const colour = dep.colour;
    for (const sq of Object.keys(pieces)) cells[sq] = colour ? { piece: pieces[sq], colour: colour, face: 'up' } : { piece: pieces[sq], face: 'up' };
  }
  const movable = canRearrange() && !busy;
  if (!movable || (sel && !cells[sel])) sel = null;
  /** @type {string[]} */
  const bad = [];
  for (const x of (seat && dep && Array.isArray(dep.violations) ? dep.violations : [])) {
    if (x && typeof x.square === 'string' && bad.indexOf(x.square) < 0) bad.push(x.square);
  }
  board.render(cells, { selected: sel, actionable: movable ? Object.keys(cells) : [], bad: bad });
}

/** @param {string} sq */
export function onDeploySquare(sq) {
  const dep = store.S && store.S.deploy;
  if (!dep) return;
  if (!canRearrange()) {
    const seat = mySeat();
    if (seat && dep.ready && dep.ready[seat]) toast(t('已出征，不能再调整布阵', 'You are ready; the layout is locked'));
    return;
  }
  if (busy) return;
  const pieces = layoutPieces(dep.layout);
  if (!pieces[sq]) sel = null;
  else if (!sel) sel = sq;
  else if (sel === sq) sel = null;
  else {
    const a = sel;
    sel = null;
    if (pieces[a] !== pieces[sq]) command('swap', { a: a, b: sq });
  }
  rerender();
}

/** The deployment's countdown (every tick). */
export function renderDeployClock() {
  let text = '--';
  let low = false;
  if (deploying() && store.deployDeadline !== null) {
    const left = Math.max(0, store.deployDeadline - performance.now());
    text = String(Math.ceil(left / 1000));
    low = left <= 10000;
  }
  if (els.clockNum.textContent !== text) els.clockNum.textContent = text;
  els.clockBox.classList.toggle('low', low);
}

export function renderDeploy() {
  const on = deploying();
  els.panel.hidden = !on;
  rootEl.classList.toggle('is-deploying', on);
  if (!on || !store.S || !store.S.deploy) return;
  const dep = store.S.deploy;
  const seat = mySeat();
  const playing = !!(seat && dep.layout);
  const ready = !!(seat && dep.ready && dep.ready[seat]);
  const problems = playing && Array.isArray(dep.violations) ? dep.violations : [];
  els.text.textContent = !playing ? t('双方正在布阵，双方出征后开始对局。', 'Both sides are deploying; play starts once both are ready.')
    : ready ? t('已出征，等待对手布阵…', 'You are ready; waiting for your opponent…')
      : t('摆好你的 25 枚棋子，然后出征。先出征的一方先走。', 'Arrange your 25 pieces, then press Ready. Whoever is ready first moves first.');
  const order = seat ? [seat, other(seat)] : SEATS.slice();
  els.ready.replaceChildren.apply(els.ready, order.map(function (s) {
    const r = !!(dep.ready && dep.ready[s]);
    const mine = s === seat;
    return el('li', { dataset: { seat: s, ready: r ? 'yes' : 'no' } }, [
      el('span', { class: 'dr-name', text: mine ? t('你', 'You') : playerName(s) }),
      el('span', { class: 'dr-flag', text: mine ? (r ? t('已出征', 'ready') : t('布阵中', 'deploying')) : r ? t('已就绪', 'ready') : t('未就绪', 'not ready') }),
    ]);
  }));
  const tools = playing && !ready;
  els.tools.hidden = !tools;
  els.random.disabled = busy;
  els.load.disabled = busy;
  els.save.disabled = busy || problems.length > 0;
  els.save.title = problems.length ? t('布阵合规后才能保存', 'Fix the layout before saving it') : '';
  if (!tools || problems.length) {
    els.saveForm.hidden = true;
    els.save.setAttribute('aria-expanded', 'false');
  }
  if (!tools) closeChooser();
  els.problems.hidden = !problems.length;
  els.violations.replaceChildren.apply(els.violations, problems.map(function (x) {
    return el('li', { dataset: { code: x.code || '', square: x.square || '' }, text: violationText(x) });
  }));
  els.go.hidden = !playing;
  els.go.disabled = ready || problems.length > 0 || busy;
  els.go.textContent = ready ? t('已出征', 'Ready ✓') : t('出征', 'Ready');
  els.go.title = problems.length ? t('先按提示调整布阵', 'Fix the layout first') : '';
  els.hint.hidden = !tools;
  renderDeployClock();
}

async function openChooser() {
  els.chooser.hidden = false;
  els.load.setAttribute('aria-expanded', 'true');
  els.saveForm.hidden = true;
  els.save.setAttribute('aria-expanded', 'false');
  els.chooserNote.textContent = t('正在读取…', 'Loading…');
  els.saved.replaceChildren();
  /** @type {{id: number, name: string}[]} */
  let list;
  try {
    list = await api('GET', '/api/layouts');
  } catch (e) {
    els.chooserNote.textContent = /** @type {Error} */ (e).message;
    return;
  }
  if (els.chooser.hidden) return;
  list = Array.isArray(list) ? list : [];
  els.chooserNote.replaceChildren(
    list.length ? t('选择一个已保存的布阵：', 'Choose a saved layout:') : t('还没有保存的布阵。摆好后点「保存布阵」。', 'No saved layouts yet. Arrange your pieces and press Save.'),
    ' ',
    // Opens beside the game: leaving this page for long would count as escaping.
    el('a', { href: '/layouts', target: '_blank', rel: 'noopener', text: t('管理布阵', 'Manage layouts') }));
  els.saved.replaceChildren.apply(els.saved, list.map(function (x) {
    const b = el('button', { type: 'button', class: 'btn btn-ghost btn-small deploy-saved-pick', dataset: { id: String(x.id) }, text: x.name || '#' + x.id });
    b.addEventListener('click', function () {
      closeChooser();
      command('load_layout', { id: x.id });
    });
    return el('li', null, [b]);
  }));
}

function closeChooser() {
  els.chooser.hidden = true;
  els.load.setAttribute('aria-expanded', 'false');
}

/**
 * @param {Send} sendFn
 * @param {() => void} renderFn
 */
export function wireDeploy(sendFn, renderFn) {
  send = sendFn;
  rerender = renderFn;
  // On a phone the sheet is one line (clock, 随机, 出征) over the board's back rows; the
  // rest opens on request (standard.css).
  els.more.addEventListener('click', function () {
    const open = !els.panel.classList.contains('is-expanded');
    els.panel.classList.toggle('is-expanded', open);
    els.more.setAttribute('aria-expanded', open ? 'true' : 'false');
    els.more.textContent = open ? t('收起', 'Less') : t('更多', 'More');
  });
  els.random.addEventListener('click', function () {
    closeChooser();
    command('random_layout');
  });
  els.load.addEventListener('click', function () {
    if (els.chooser.hidden) openChooser();
    else closeChooser();
  });
  els.save.addEventListener('click', function () {
    const open = els.saveForm.hidden;
    closeChooser();
    els.saveForm.hidden = !open;
    els.save.setAttribute('aria-expanded', open ? 'true' : 'false');
    if (open) els.saveName.focus();
  });
  els.saveForm.addEventListener('submit', function (ev) {
    ev.preventDefault();
    const name = els.saveName.value.trim();
    if (!name) {
      toast(t('请输入布阵名称', 'Please name the layout'), 'error');
      return;
    }
    command('save_layout', { name: name });
  });
  els.go.addEventListener('click', function () {
    closeChooser();
    command('ready');
  });
}
