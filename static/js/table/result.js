// @ts-check
// The end: who won (the viewer's side first), why, and each seat's result and score.
import { byId, el } from '../dom.js';
import { signed, t } from '../i18n.js';
import { SEATS } from './geometry.js';
import { mySeat, seatCard, store } from './state.js';
import { defeatWord, endReason, scoreRowWord, seatLetter, seatWord } from './words.js';

const els = {
  panel: byId('result'),
  word: byId('result-word'),
  reason: byId('result-reason'),
  scores: byId('result-scores'),
};

/** The headline of the end, from the viewer's side when they sat at the table. */
function headline() {
  const tb = store.table;
  if (!tb) return '';
  if (tb.result === 'draw') return t('和棋', 'A draw');
  if (tb.result === 'unscored') return t('对局结束，不计分', 'Game over, not scored');
  const me = mySeat();
  const mine = me ? seatCard(me) : null;
  if (mine && mine.won !== null) return mine.won ? t('你方获胜！', 'Your side wins!') : t('你方落败', 'Your side lost');
  const winners = SEATS.filter(function (s) { const c = seatCard(s); return !!c && c.won; });
  return winners.length ? t(winners.map(seatWord).join('、') + '获胜', winners.map(seatWord).join(' and ') + ' won') : t('对局结束', 'Game over');
}

/** Whether the end has been shown (it is scrolled into view once). */
let shown = false;

export function renderResult() {
  const tb = store.table;
  const over = !!tb && tb.phase === 'over';
  els.panel.hidden = !over;
  if (!over || !tb) return;
  if (!shown) {
    shown = true;
    els.panel.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }
  els.panel.dataset.result = tb.result || '';
  els.word.textContent = headline();
  els.reason.textContent = endReason(tb.reason);
  els.scores.replaceChildren(...tb.seats.filter(function (c) { return !!c.player; }).map(function (c) {
    const p = c.player;
    const name = p ? p.display_name || p.username : '';
    const won = c.won === null ? '' : c.won ? t('胜', 'won') : t('负', 'lost');
    const why = c.defeat ? t('（' + defeatWord(c.defeat) + '）', ' (' + defeatWord(c.defeat) + ')') : '';
    return el('li', { class: 'tp-score', dataset: { seat: c.seat, won: String(c.won) } }, [
      el('span', { class: 'sc-seat army-' + c.seat, text: seatLetter(c.seat) }),
      el('span', { class: 'tp-score-name', text: name }),
      el('span', { class: 'tp-score-won', text: won + why }),
      el('span', { class: 'tp-score-num', text: typeof c.score === 'number' ? signed(c.score) : '—' }),
      el('span', { class: 'tp-score-row', dataset: { row: c.score_row || '' }, text: scoreRowWord(c.score_row) }),
    ]);
  }));
}
