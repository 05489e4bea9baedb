// @ts-check
// The end of a game: who won and why, each player's score change explained from the
// server's `result.rule` and `base` ("底分 2 × 2（对方有子但无法移动）= +4"), the ranks
// as the game's own variant counts them, and the rematch. On a phone the card is a sheet
// over the board, so that it is seen without scrolling.
import { byId, el } from '../dom.js';
import { rankName, reasonText, signed, t } from '../i18n.js';
import { SEATS, game, isStandard, limits, mySeat, other, player, playerName, result, store } from './state.js';

/** @typedef {import('../messages.js').Result} Result */
/** @typedef {import('../messages.js').Seat} Seat */

const els = {
  box: byId('result'),
  word: byId('result-word'),
  reason: byId('result-reason'),
  scores: byId('result-scores'),
  rank: byId('result-rank'),
  rematch: /** @type {HTMLButtonElement} */ (byId('rematch')),
  rematchText: byId('rematch-text'),
  close: byId('result-close'),
  reopen: byId('result-open'),
};

/**
 * The words for a score-table row, from the winner's side and from the loser's.
 * @param {string} code
 * @param {number|undefined} lost
 * @param {string} reason
 * @returns {[string, string]}
 */
function ruleWords(code, lost, reason) {
  const lostZh = typeof lost === 'number' ? '，对方失子 ' + lost + ' 枚' : '';
  const lostEn = typeof lost === 'number' ? ', opponent lost ' + lost + ' pieces' : '';
  const ownZh = typeof lost === 'number' ? '，失子 ' + lost + ' 枚' : '';
  const ownEn = typeof lost === 'number' ? ', lost ' + lost + ' pieces' : '';
  switch (code) {
    case 'flag': return [t('扛旗' + lostZh, 'flag captured' + lostEn), t('军旗被扛' + ownZh, 'flag lost' + ownEn)];
    case 'no_moves': return [t('对方有子但无法移动', 'the opponent had pieces but no move'), t('有子但无法移动', 'pieces left but no move')];
    case 'only_flag': return [t('对方只剩军旗', 'the opponent had only the flag left'), t('只剩军旗', 'only the flag left')];
    case 'resign': return [t('对方认输' + lostZh, 'the opponent resigned' + lostEn), t('认输' + ownZh, 'resigned' + ownEn)];
    case 'timeouts': return [t('对方超时' + lostZh, 'the opponent timed out' + lostEn), t('超时' + ownZh, 'timed out' + ownEn)];
    case 'repetition': return [t('对方重复走棋' + lostZh, 'the opponent repeated moves' + lostEn), t('重复走棋' + ownZh, 'repeated moves' + ownEn)];
    case 'escape': return [t('对方逃跑' + lostZh, 'the opponent escaped' + lostEn), t('逃跑', 'escaped')];
    case 'draw': return [t('和棋', 'a draw'), t('和棋', 'a draw')];
    case 'standard_win': return [t('胜', 'won'), t('负', 'lost')];
    case 'standard_quick_win': return [t('30 步内结束，赢方不得分', 'over within 30 steps: no points for the winner'), t('负', 'lost')];
    case 'standard_escape': return [t('对方逃跑', 'the opponent escaped'), t('逃跑', 'escaped')];
    case 'standard_quick_escape': return [t('30 步内对方逃跑，赢方不得分', 'the opponent escaped within 30 steps: no points for the winner'), t('逃跑', 'escaped')];
    default: {
      const why = reasonText(reason, limits());
      return [why, why];
    }
  }
}

/**
 * "，失子 0–5 枚为 0 倍底分": the band of the loser's lost pieces and what it is worth.
 * @param {{from: number, to?: number}} band
 * @param {number} times
 */
function bandWords(band, times) {
  const range = typeof band.to === 'number' ? band.from + '–' + band.to : '≥ ' + band.from;
  return t('，失子 ' + range + ' 枚为 ' + times + ' 倍底分', '; ' + range + ' pieces lost is ' + times + '× the base');
}

/**
 * One seat's score change in words, from the row of the score table the server says
 * applied: "底分 2 × 2（…）= +4". The winner's side of the row is `times`/`bonus`, the
 * loser's `loser_times`/`loser_bonus` (escape and standard rows are not symmetric).
 * @param {import("./state.js").Ending} res
 * @param {Seat} seat
 * @returns {string|null}
 */
export function explain(res, seat) {
  const n = res.score ? res.score[seat] : null;
  if (typeof n !== 'number' || !res.rule) return null;
  if (!res.winner) return t('和棋不计分', 'a draw: no change');
  const won = res.winner === seat;
  const words = ruleWords(res.rule.code, res.rule.lost, res.reason)[won ? 0 : 1];
  const times = won ? res.rule.times : res.rule.loser_times;
  const bonus = won ? res.rule.bonus : res.rule.loser_bonus;
  // The row's rule in words: which band of lost pieces gave the multiplier (an escaper
  // pays a fixed 10 whatever was lost).
  const band = res.rule.band && (won || res.rule.code !== 'escape') ? bandWords(res.rule.band, times) : '';
  if (!times || !res.base || isStandard()) return words + band + ' = ' + signed(n);
  let text = t('底分 ', 'base ') + res.base + ' × ' + times + t('（', ' (') + words + band + t('）', ')');
  if (bonus) {
    text += won
      ? t(' + ' + bonus + '（全部翻开）', ' + ' + bonus + ' (all face up)')
      : t(' + ' + bonus, ' + ' + bonus);
  }
  return text + t('= ', ' = ') + signed(n);
}

/**
 * @param {Seat} seat
 */
function rankBlock(seat) {
  const p = player(seat);
  if (!p || !p.username) return null;
  const info = store.players[p.username.toLowerCase()];
  if (!info || !info.rank || typeof info.score !== 'number') return null;
  const rank = info.rank;
  const next = rank.next || null;
  let progress = typeof rank.progress === 'number' ? rank.progress : (next ? 0 : 1);
  progress = Math.max(0, Math.min(1, progress));
  const pct = Math.round(progress * 100);
  const nextText = next && typeof next.from_score === 'number'
    ? t('还差 ' + Math.max(0, next.from_score - info.score) + ' 分升' + next.chinese + '（需 ' + next.from_score + ' 分）',
      Math.max(0, next.from_score - info.score) + ' points to ' + (next.english || next.chinese) + ' (' + next.from_score + ')')
    : t('已是最高等级', 'Highest rank reached');
  // Sized through the CSSOM: a style attribute would be refused by the page's
  // Content-Security-Policy (style-src 'self').
  const fill = el('span', { class: 'rank-bar-fill' });
  fill.style.width = pct + '%';
  return el('div', { class: 'rank-block', dataset: { seat: seat, variant: isStandard() ? 'standard' : 'flip' } }, [
    el('div', { class: 'rank-head' }, [
      el('span', { class: 'rank-user', text: playerName(seat) }),
      el('span', { class: 'rank-name', text: rankName(rank) }),
      el('span', { class: 'rank-score', text: t(info.score + ' 分', info.score + ' pts') }),
    ]),
    el('div', {
      class: 'rank-bar', role: 'progressbar', 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': pct,
      'aria-label': t('升级进度', 'Progress to the next rank'),
    }, [fill]),
    el('div', { class: 'rank-next', text: nextText }),
  ]);
}

let dismissed = false;
/** The game ended while this page was open: the result comes up over the board. */
let endedHere = false;

export function endedNow() {
  endedHere = true;
  dismissed = false;
}

export function wireResult() {
  els.close.addEventListener('click', function () {
    dismissed = true;
    renderResult();
  });
  els.reopen.addEventListener('click', function () {
    dismissed = false;
    renderResult();
  });
}

export function renderResult() {
  const res = result();
  const g = game();
  els.box.hidden = !res || dismissed;
  els.reopen.hidden = !res || !dismissed;
  // A page opened on a finished game shows the board (and its replay) first: the result
  // is a card there, not a sheet over the board.
  els.box.classList.toggle('sheet', endedHere);
  if (!res) return;
  const seat = mySeat();
  let word;
  let cls;
  if (!res.winner) {
    word = t('和棋', 'Draw');
    cls = 'draw';
  } else if (seat) {
    word = res.winner === seat ? t('胜', 'You won') : t('负', 'You lost');
    cls = res.winner === seat ? 'win' : 'loss';
  } else {
    word = t(playerName(res.winner) + ' 胜', playerName(res.winner) + ' wins');
    cls = 'win';
  }
  els.word.textContent = word;
  els.word.dataset.result = cls;
  els.box.dataset.result = cls;
  els.reason.textContent = t('原因：', 'Reason: ') + reasonText(res.reason, limits());
  els.reason.dataset.reason = res.reason || '';
  const score = res.score || (g && g.score) || null;
  const items = [];
  // The result names the score table's row even in a casual game; nobody's score moved.
  if (g && g.rated === false) {
    items.push(el('li', { class: 'muted', text: t('友谊赛，不计积分', 'Casual game: scores unchanged') }));
  } else if (score) {
    const full = Object.assign({}, res, { score: score });
    for (const s of SEATS) {
      if (typeof score[s] !== 'number') continue;
      const n = score[s];
      const why = explain(full, s);
      items.push(el('li', { dataset: { seat: s } }, [
        el('span', { class: 'rs-name', text: playerName(s) }),
        el('span', { class: 'rs-delta ' + (n > 0 ? 'up' : n < 0 ? 'down' : 'zero'), text: signed(n) }),
        why ? el('span', { class: 'rs-why', text: why }) : null,
      ]));
    }
  }
  els.scores.replaceChildren.apply(els.scores, items);
  const blocks = (seat ? [seat] : SEATS.slice()).map(rankBlock).filter(Boolean);
  els.rank.replaceChildren.apply(els.rank, /** @type {HTMLElement[]} */ (blocks));
  els.rank.hidden = blocks.length === 0;

  const rm = store.S ? store.S.rematch : null;
  els.rematch.hidden = !seat || !!(rm && rm.next);
  if (rm && rm.next) {
    // The series went on without this page following (an earlier game): a link to the next.
    els.rematchText.hidden = false;
    els.rematchText.replaceChildren(el('a', { href: '/game/' + encodeURIComponent(rm.next), id: 'next-game', text: t('下一局 →', 'Next game →') }));
  } else if (seat) {
    const asked = store.rematchAsked || !!(rm && rm[seat]);
    els.rematch.disabled = asked;
    els.rematch.textContent = asked ? t('已请求，等待对手…', 'Asked; waiting for your opponent…') : t('再来一局', 'Rematch');
    const theyAsked = !!(rm && rm[other(seat)]);
    els.rematchText.hidden = !theyAsked;
    els.rematchText.textContent = theyAsked ? t(playerName(other(seat)) + ' 想再来一局', playerName(other(seat)) + ' wants a rematch') : '';
  } else {
    els.rematchText.hidden = true;
  }
}
