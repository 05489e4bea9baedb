// @ts-check
// The table's log: each step's caption as it arrives, and each change of a seat the
// server reports (托管 taken up or ended, offline and back, out of the game), newest
// last. It is told from what two table messages differ in; a page opened mid-game says
// how many steps came before it.
import { byId, el } from '../dom.js';
import { t } from '../i18n.js';
import { defeatWord, seatWord, stepCaption, tuoguanWord } from './words.js';

/** @typedef {import('../table_messages.js').Table} Table */

const list = byId('table-log');
const box = byId('table-log-box');
/** The log keeps this many lines; older ones go. */
const KEEP = 200;

/**
 * @param {string} text
 * @param {string} kind step, tuoguan, presence or defeat
 * @param {string} [seat]
 */
function line(text, kind, seat) {
  list.appendChild(el('li', { class: 'log-' + kind, dataset: { kind: kind, seat: seat || '' }, text: text }));
  while (list.children.length > KEEP) list.removeChild(/** @type {ChildNode} */ (list.firstChild));
  list.scrollTop = list.scrollHeight;
}

/**
 * Logs what changed between two table messages.
 * @param {Table|null} before
 * @param {Table} now
 */
export function logChanges(before, now) {
  box.hidden = now.phase !== 'playing' && now.phase !== 'over';
  if (!before || (before.phase !== 'playing' && before.phase !== 'over')) {
    if (now.phase === 'playing' && now.steps > 0) {
      line(t('本页打开前已走 ' + now.steps + ' 步', now.steps + ' steps were played before this page opened'), 'note');
    }
    return;
  }
  if (now.steps > before.steps && now.last) line(t('第 ' + now.steps + ' 步：', 'Step ' + now.steps + ': ') + stepCaption(now.last), 'step', now.last.seat);
  now.seats.forEach(function (c, i) {
    const b = before.seats[i];
    if (!b || !c.player) return;
    const who = seatWord(c.seat);
    if (c.state === 'defeated' && b.state !== 'defeated') {
      line(who + t('出局：', ' is out: ') + defeatWord(c.defeat), 'defeat', c.seat);
    } else if (c.tuoguan !== b.tuoguan) {
      if (c.tuoguan) line(who + t('进入', ' is now in ') + tuoguanWord(c.tuoguan) + t('（第 ' + c.tuoguan_count + ' 次）', ' (' + c.tuoguan_count + ')'), 'tuoguan', c.seat);
      else line(who + t('取消托管', ' took back control'), 'tuoguan', c.seat);
    }
    if (c.connected !== b.connected && c.state !== 'defeated') {
      line(who + (c.connected ? t('已重新连接', ' is back online') : t('掉线了', ' went offline')), 'presence', c.seat);
    }
  });
}
