// @ts-check
// The table's controls, each shown only while the server's `can` says it would take it:
// ready and stand before the start; random layout and ready while deploying; pass (with
// a question first when it would be the defeating 5th), draw offers and their answers,
// resignation, 托管 on and off and 托管退出 in play; and the ally's "play on?".
import { byId, el } from '../dom.js';
import { t } from '../i18n.js';
import { ask } from '../game/confirm.js';
import { deployingNow, movesFrom, mySeat, store } from './state.js';
import { seatWord } from './words.js';

/** @typedef {(type: string, data?: unknown) => Promise<unknown>} Command */

const els = {
  bar: byId('action-bar'),
  ready: byId('act-ready'),
  stand: byId('act-stand'),
  random: byId('act-random'),
  deployed: byId('act-deployed'),
  pass: byId('act-pass'),
  draw: byId('act-draw'),
  resign: byId('act-resign'),
  tuoguan: byId('act-tuoguan'),
  untuoguan: byId('act-untuoguan'),
  leave: byId('act-leave'),
  hint: byId('hint'),
  drawSheet: byId('draw-sheet'),
  drawText: byId('draw-text'),
  drawAgreed: byId('draw-agreed'),
  drawAnswer: byId('draw-answer'),
  accept: byId('accept-draw'),
  decline: byId('decline-draw'),
  playOn: byId('play-on-sheet'),
  playOnYes: byId('play-on-yes'),
  playOnNo: byId('play-on-no'),
};

/**
 * A button that sends one command, and stays pressed until the server answers.
 * @param {HTMLElement} btn
 * @param {() => Promise<unknown>|void} run
 */
function bind(btn, run) {
  const b = /** @type {HTMLButtonElement} */ (btn);
  b.addEventListener('click', function () {
    if (b.disabled) return;
    const p = run();
    if (!p) return;
    b.disabled = true;
    p.catch(function () {}).then(function () { b.disabled = false; });
  });
}

/** @param {Command} cmd */
export function wireActions(cmd) {
  bind(els.ready, function () { return cmd('ready'); });
  bind(els.stand, function () { return cmd('stand'); });
  bind(els.random, function () { store.selected = null; return cmd('random_layout'); });
  bind(els.deployed, function () { store.selected = null; return cmd('ready'); });
  bind(els.draw, function () { return cmd('offer_draw'); });
  bind(els.tuoguan, function () { return cmd('tuoguan', { on: true }); });
  bind(els.untuoguan, function () { return cmd('tuoguan', { on: false }); });
  bind(els.accept, function () { return cmd('accept_draw'); });
  bind(els.decline, function () { return cmd('decline_draw'); });
  bind(els.playOnYes, function () { return cmd('play_on', { yes: true }); });
  bind(els.playOnNo, function () { return cmd('play_on', { yes: false }); });
  bind(els.pass, function () {
    const tb = store.table;
    if (!tb) return;
    if (!tb.can.pass_defeats) return cmd('pass');
    return ask(t('这是你第 5 次超时或不行动，不行动就会判负出局。确定吗？', 'This is your 5th timeout or pass: passing now defeats you. Pass anyway?'),
      t('不行动并出局', 'Pass and lose')).then(function (yes) {
      if (yes) return cmd('pass', { confirm: true });
    });
  });
  bind(els.resign, function () {
    return ask(t('确定认输吗？你的棋子将全部撤下。', 'Resign? Your pieces leave the board.'), t('认输', 'Resign')).then(function (yes) {
      if (yes) return cmd('resign');
    });
  });
  bind(els.leave, function () {
    return ask(t('托管退出：离开这局，不能再回来。确定吗？', 'Leave this game for good? You cannot come back.'), t('退出', 'Leave')).then(function (yes) {
      if (yes) return cmd('leave');
    });
  });
}

/** Shows the controls the table message allows, and the sheets it asks for. */
export function renderActions() {
  const tb = store.table;
  const can = tb ? tb.can : null;
  const open = !!tb && tb.phase === 'open';
  const playing = !!tb && tb.phase === 'playing';
  els.ready.hidden = !(open && can && can.ready);
  els.stand.hidden = !(open && can && can.stand);
  const dep = deployingNow();
  els.random.hidden = !dep;
  els.deployed.hidden = !dep;
  els.pass.hidden = !(playing && can && can.pass);
  els.draw.hidden = !(playing && can && can.offer_draw);
  els.resign.hidden = !(playing && can && can.resign);
  els.tuoguan.hidden = !(playing && can && can.tuoguan);
  els.untuoguan.hidden = !(playing && can && can.end_tuoguan);
  els.leave.hidden = !(playing && can && can.leave);
  const any = Array.from(els.bar.children).some(function (b) { return !(/** @type {HTMLElement} */ (b)).hidden; });
  els.bar.hidden = !any;
  els.bar.classList.toggle('is-deploying', dep);
  renderHint();
  renderDraw();
  els.playOn.hidden = !(playing && can && can.play_on);
}

function renderHint() {
  const tb = store.table;
  let text = '';
  if (deployingNow()) {
    text = store.selected ? t('再点一枚己方棋子，与它交换位置', 'Tap another of your pieces to swap the two')
      : t('点击己方两枚棋子交换位置，或随机布阵；布好后点“出征”', 'Tap two of your pieces to swap them, or take a random layout; then press Ready');
  } else if (tb && tb.phase === 'playing' && tb.to_move === mySeat() && tb.legal.length) {
    text = store.selected && movesFrom()[store.selected] ? t('点亮起的位置走棋，或点另一枚棋子', 'Tap a lit station to move there, or another piece')
      : t('点一枚亮起的己方棋子', 'Tap one of your lit pieces');
  }
  els.hint.hidden = !text;
  els.hint.textContent = text;
}

/** The open draw offer: who made it, who agreed, and the answer buttons when asked. */
function renderDraw() {
  const tb = store.table;
  const d = tb && tb.phase === 'playing' ? tb.draw : undefined;
  els.drawSheet.hidden = !d;
  if (!d || !tb) return;
  els.drawText.textContent = d.by === mySeat() ? t('你提出了和棋，等待其他棋手回应', 'You offered a draw; waiting for the others')
    : t(seatWord(d.by) + '提出和棋', seatWord(d.by) + ' offers a draw');
  els.drawAgreed.replaceChildren(...d.agreed.map(function (s) {
    return el('li', { text: t(seatWord(s) + '已同意', seatWord(s) + ' agreed'), dataset: { seat: s } });
  }));
  els.drawAnswer.hidden = !tb.can.answer_draw;
}
