// @ts-check
// The 四国 table's words in Chinese and English: seats (南 东 北 西), what a seat card
// says (托管, 离线, 出局 and why), the end's reasons, the refusals only a table gives,
// and the caption of the last step. Nothing here decides anything: every word names
// something the server's table message says.
import { EN, errorText, pieceName, t } from '../i18n.js';

/** @typedef {import('../table_messages.js').Seat4} Seat4 */
/** @typedef {import('../table_messages.js').TableStep} TableStep */
/** @typedef {import('../table_messages.js').TablePiece} TablePiece */

/**
 * 南方 / South.
 * @param {string|null|undefined} seat
 */
export function seatWord(seat) {
  switch (seat) {
    case 'south': return t('南方', 'South');
    case 'east': return t('东方', 'East');
    case 'north': return t('北方', 'North');
    case 'west': return t('西方', 'West');
    default: return '';
  }
}

/**
 * One character for a seat chip: 南 / S.
 * @param {string} seat
 */
export function seatLetter(seat) {
  return t({ south: '南', east: '东', north: '北', west: '西' }[seat] || '?', seat.charAt(0).toUpperCase());
}

/**
 * How the server plays a seat in 托管.
 * @param {string|null|undefined} kind
 */
export function tuoguanWord(kind) {
  switch (kind) {
    case 'manual': return t('手动托管', 'auto-play (chosen)');
    case 'disconnect': return t('断线托管', 'auto-play (disconnected)');
    case 'exit': return t('托管退出', 'auto-play (left)');
    default: return t('托管', 'auto-play');
  }
}

/**
 * Why a seat is out of the game.
 * @param {string|null|undefined} defeat
 */
export function defeatWord(defeat) {
  switch (defeat) {
    case 'flag_taken': return t('军旗被扛', 'flag captured');
    case 'no_moves': return t('无棋可走', 'no moves left');
    case 'timeouts': return t('超时或不行动满 5 次', 'five timeouts or passes');
    case 'resigned': return t('认输', 'resigned');
    case 'escaped': return t('逃跑', 'left the game');
    default: return String(defeat || '');
  }
}

/**
 * The row of the score table (RULES §5.7) that gave a seat its score, as the server
 * names it; u is the unit (2 points).
 * @param {string|null|undefined} row
 */
export function scoreRowWord(row) {
  switch (row) {
    case 'win': return t('胜方 +u', 'winning side +u');
    case 'free_win': return t('混战最后一方：每个对手 +u', 'last seat standing: +u per opponent');
    case 'short_win': return t('40 步内结束，胜方不得分', 'over within 40 steps: no gain');
    case 'loss': return t('负方 −u', 'losing side −u');
    case 'escaped': return t('逃跑或托管至终局 −2u', 'left or in auto-play at the end −2u');
    case 'ally_left': return t('对家托管退出，不扣分', 'ally left the game: no loss');
    case 'declined_play_on': return t('对家断线后不续玩，不扣分', 'chose not to play on: no loss');
    case 'draw': return t('和棋 0', 'draw 0');
    case 'draw_defeated': return t('混战和棋，已出局 −u', 'draw, already out −u');
    default: return '';
  }
}

/**
 * Why the game ended.
 * @param {string|null|undefined} reason
 */
export function endReason(reason) {
  switch (reason) {
    case 'one_alliance_left': return t('只剩一方', 'one side is left');
    case 'quiet_steps': return t('长时间未吃子，和棋', 'too long without an attack: a draw');
    case 'agreed': return t('议和', 'draw agreed');
    case 'only_tuoguan_left': return t('只剩托管的棋手，和棋', 'only auto-played seats left: a draw');
    case 'all_in_tuoguan': return t('全部托管，不计分', 'every seat auto-played: not scored');
    case 'play_on_declined': return t('盟友掉线后不再继续', 'the ally would not play on alone');
    default: return String(reason || '');
  }
}

/**
 * The alliance the table plays.
 * @param {string} alliance
 */
export function allianceWord(alliance) {
  switch (alliance) {
    case 'opposite': return t('对家联盟', 'partners opposite');
    case 'adjacent': return t('并肩联盟', 'partners side by side');
    case 'none': return t('混战（各自为战）', 'every seat for itself');
    default: return alliance;
  }
}

/** @type {Record<string, string>} */
const TABLE_ERRORS_ZH = {
  seat_taken: '这个座位已经有人了',
  not_creator: '只有开桌的人能让电脑入座',
  confirm_needed: '这是你第 5 次超时或不行动，确认后才会判负',
  not_logged_in: '请先登录再入座',
  bad_layout: '这个布阵读不出来',
  not_your_hand: '这个布阵的棋子和你这局发到的不一样（乱战）',
  not_found: '找不到这个已存布阵',
  not_over: '对局结束后才能再来一局',
  already_agreed: '你已经同意再来一局了',
  rematch_declined: '有人不再来，这次没有下一局',
  no_rematch_offer: '还没有人提出再来一局',
  rematch_started: '新的一局已经开始了',
};

/**
 * A refusal in the page language.
 * @param {string} code
 * @param {string} [message]
 */
export function refusalText(code, message) {
  if (!EN && TABLE_ERRORS_ZH[code]) return TABLE_ERRORS_ZH[code];
  // The server says in English why a move or a swap was refused: better than nothing.
  if (code === 'illegal' && message) return t('不行：', 'Refused: ') + message;
  return errorText(code, message);
}

/**
 * "南方的司令" / "South's marshal", or "南方的棋子" when the piece is not known here.
 * @param {TablePiece|undefined} cell
 */
function pieceOf(cell) {
  if (!cell) return '';
  const who = seatWord(cell.seat);
  return cell.piece ? t(who + '的' + pieceName(cell.piece), who + "'s " + pieceName(cell.piece))
    : t(who + '的棋子', who + "'s piece");
}

/**
 * The caption of the last step: who did what, how an attack ended, flags shown and
 * seats defeated by it.
 * @param {TableStep} last
 * @returns {string}
 */
export function stepCaption(last) {
  const who = seatWord(last.seat);
  /** @type {string[]} */
  const parts = [];
  switch (last.kind) {
    case 'move': parts.push(t(who + '走了一步', who + ' moved')); break;
    case 'attack': {
      const a = pieceOf(last.mover);
      const d = pieceOf(last.target);
      if (last.combat === 'attacker_wins') parts.push(t(a + '吃掉了' + d, a + ' took ' + d));
      else if (last.combat === 'defender_wins') parts.push(t(a + '撞上' + d + '，被吃', a + ' attacked ' + d + ' and fell'));
      else parts.push(t(a + '与' + d + '同归于尽', a + ' and ' + d + ' took each other'));
      break;
    }
    case 'pass': parts.push(t(who + '不行动', who + ' passed')); break;
    case 'timeout': parts.push(t(who + '超时', who + ' ran out of time')); break;
    case 'resign': parts.push(t(who + '认输', who + ' resigned')); break;
    case 'escape': parts.push(t(who + '离开了对局', who + ' left the game')); break;
    case 'offer_draw': parts.push(t(who + '提出和棋', who + ' offers a draw')); break;
    case 'accept_draw': parts.push(t(who + '同意和棋', who + ' agrees to a draw')); break;
    case 'decline_draw': parts.push(t(who + '拒绝和棋', who + ' declines the draw')); break;
    default: parts.push(who + ' ' + last.kind);
  }
  if (last.flags_shown.length) parts.push(t('司令阵亡，亮出军旗', 'a marshal fell: its flag is shown'));
  for (const d of last.defeated) parts.push(t(seatWord(d[0]) + '出局', seatWord(d[0]) + ' is out'));
  return parts.join(t('；', '; '));
}
