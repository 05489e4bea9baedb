// @ts-check
// Events in words: the game log (newest first), the replay's move list and the caption
// over the board ("旅长 吃掉 排长"). Only what the event says is told: an opponent's
// hidden piece stays "暗子".
import { el } from '../dom.js';
import { EN, PIECE_ZH, colourName, pieceName, reasonText, t } from '../i18n.js';

/** @typedef {import('../messages.js').GameEvent} GameEvent */
/** @typedef {import('../messages.js').Cell} Cell */
/** @typedef {(seat: import('../messages.js').Seat) => string} NameOf */

/**
 * A piece name for running text, in the page language (the Chinese name as the
 * tooltip of an English page).
 * @param {string} piece
 * @param {string|undefined} colour
 */
export function pieceEl(piece, colour) {
  return el('span', {
    class: 'pc-name-inline' + (colour ? ' pc-' + colour : ''),
    text: pieceName(piece),
    title: EN ? PIECE_ZH[piece] : null,
    dataset: { piece: piece },
  });
}

/** @param {Cell|undefined} c */
function pieceOrHidden(c) {
  if (c && c.piece) return pieceEl(c.piece, c.colour);
  return el('span', { class: 'pc-hidden', text: t('暗子', 'a hidden piece') });
}

/**
 * An event in words, as DOM nodes; null for kinds the log does not show.
 * @param {GameEvent} d
 * @param {NameOf} nameOf
 * @returns {Array<Node|string>|null}
 */
export function describe(d, nameOf) {
  const who = d.seat ? nameOf(d.seat) : '';
  /** @type {Array<Node|string>} */
  const out = [];
  switch (d.kind) {
    case 'flip':
      out.push(who + t(' 翻开 ', ' flips ') + (d.at || ''));
      if (d.piece) out.push(t('：', ': ') + colourName(d.colour) + ' ', pieceEl(d.piece, d.colour));
      break;
    case 'move': {
      const route = d.from + '→' + d.to;
      if (d.mover && d.mover.piece) out.push(who + ' ', pieceOrHidden(d.mover), ' ' + route);
      else out.push(who + ' ' + route);
      const tp = d.target && d.target.piece;
      if (d.combat === 'attacker_wins') {
        if (tp === 'mine') out.push(t('，挖掉', ', clears '), pieceOrHidden(d.target));
        else if (tp === 'flag') out.push(t('，扛走', ', captures '), pieceOrHidden(d.target));
        else out.push(t('，吃掉', ', takes '), pieceOrHidden(d.target));
      } else if (d.combat === 'defender_wins') {
        if (tp === 'mine') out.push(t('，触雷阵亡（', ', hits a '), pieceOrHidden(d.target), t('）', ' and is removed'));
        else out.push(t('，撞上', ', loses to '), pieceOrHidden(d.target), t('阵亡', ''));
      } else if (d.combat === 'both_removed') {
        out.push(t('，与', ', trades with '), pieceOrHidden(d.target), t('同归于尽', ' (both removed)'));
      }
      break;
    }
    case 'timeout': out.push(who + t(' 超时', ' timed out')); break;
    case 'pass': out.push(who + t(' 不行动', ' passes')); break;
    case 'time_limit': out.push(t('对局时间到', 'The game ran out of time')); break;
    case 'offer_draw': out.push(who + t(' 提出和棋', ' offers a draw')); break;
    case 'decline_draw': out.push(who + t(' 拒绝和棋', ' declines the draw')); break;
    case 'accept_draw': out.push(who + t(' 同意和棋', ' accepts the draw')); break;
    case 'resign': out.push(who + t(' 认输', ' resigns')); break;
    case 'escape': out.push(who + t(' 逃跑', ' left the game')); break;
    case 'start': out.push(t('双方布阵完毕，对局开始', 'Both sides are deployed: play begins')); break;
    case 'rematch_offer': out.push(who + t(' 想再来一局', ' wants a rematch')); break;
    case 'rematch': out.push(t('新的一局开始了', 'A new game has started')); break;
    default: return null;
  }
  if (Array.isArray(d.flags_revealed) && d.flags_revealed.length) {
    out.push(t('；司令阵亡，军旗亮出：', '; a marshal fell, so its flag is shown: ') + d.flags_revealed.join(t('、', ', ')));
  }
  if (d.colours_assigned) {
    const ca = d.colours_assigned;
    out.push(t('；', '; ') + nameOf('south') + t(' 执', ' plays ') + colourName(ca.south) +
      t('，', ', ') + nameOf('north') + t(' 执', ' plays ') + colourName(ca.north));
  }
  return out;
}

/**
 * The short caption over the board for an attack: "旅长 吃掉 排长", or null.
 * @param {GameEvent} d
 */
export function caption(d) {
  if (d.kind !== 'move' || !d.combat) return null;
  const a = d.mover && d.mover.piece ? pieceName(d.mover.piece) : t('暗子', 'Hidden piece');
  const b = d.target && d.target.piece ? pieceName(d.target.piece) : t('暗子', 'a hidden piece');
  if (d.combat === 'attacker_wins') {
    if (d.target && d.target.piece === 'flag') return a + t(' 扛旗', ' captures the flag');
    return a + t(' 吃掉 ', ' takes ') + b;
  }
  if (d.combat === 'defender_wins') return a + t(' 撞上 ', ' loses to ') + b;
  return a + t(' 与 ', ' and ') + b + t(' 同归于尽', ': both removed');
}

/**
 * "对局结束：小明 胜（扛旗）".
 * @param {{winner: import('../messages.js').Seat|null, reason: string}} out
 * @param {NameOf} nameOf
 * @param {import('../i18n.js').Limits|null} limits
 */
export function outcomeText(out, nameOf, limits) {
  const res = out.winner ? nameOf(out.winner) + t(' 胜', ' wins') : t('和棋', 'a draw');
  return t('对局结束：', 'Game over: ') + res + t('（', ' (') + reasonText(out.reason, limits) + t('）', ')');
}

const MAX_LINES = 400;

/**
 * Adds a line to the log (newest first).
 * @param {HTMLElement} list
 * @param {GameEvent} d
 * @param {number|null} stepNo
 * @param {NameOf} nameOf
 * @param {string} [cls]
 */
export function logLine(list, d, stepNo, nameOf, cls) {
  const parts = describe(d, nameOf);
  if (!parts) return;
  list.insertBefore(el('li', { class: 'log-' + d.kind + (d.seat ? ' log-' + d.seat : '') + (d.tuoguan ? ' log-tuoguan' : '') + (cls ? ' ' + cls : '') }, [
    stepNo ? el('span', { class: 'log-step', text: String(stepNo) }) : null,
    el('span', { class: 'log-text' }, parts),
    // Played by the computer standing in for the seat.
    d.tuoguan ? el('span', { class: 'log-by-tuoguan', text: t('托管', 'auto') }) : null,
  ]), list.firstChild);
  while (list.childNodes.length > MAX_LINES) list.removeChild(/** @type {Node} */ (list.lastChild));
}

/**
 * Adds a plain line of words to the log.
 * @param {HTMLElement} list
 * @param {string} cls
 * @param {Array<Node|string>} parts
 */
export function logNote(list, cls, parts) {
  list.insertBefore(el('li', { class: cls }, [el('span', { class: 'log-text' }, parts)]), list.firstChild);
}
