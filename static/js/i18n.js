// @ts-check
// Words of the pages in Chinese and English: the page language (the server writes
// <html lang="en"> or lang="zh-CN"), piece names (full for text, short for the board),
// colours, seats, end reasons and error codes. Numbers that belong to the rules (how many
// timeouts lose, how many quiet steps draw) are never written here: they come from the
// server's view and are passed in.

/** English page. */
export const EN = (document.documentElement.getAttribute('lang') || '').toLowerCase().indexOf('en') === 0;

/**
 * The text for the page language.
 * @param {string} zh
 * @param {string} en
 */
export function t(zh, en) {
  return EN ? en : zh;
}

export const PIECE_ORDER = [
  'marshal', 'general', 'major_general', 'brigadier', 'colonel', 'major',
  'captain', 'lieutenant', 'engineer', 'bomb', 'mine', 'flag',
];

/** @type {Record<string, string>} */
export const PIECE_ZH = {
  marshal: '司令', general: '军长', major_general: '师长', brigadier: '旅长',
  colonel: '团长', major: '营长', captain: '连长', lieutenant: '排长',
  engineer: '工兵', bomb: '炸弹', mine: '地雷', flag: '军旗',
};

/** @type {Record<string, string>} */
export const PIECE_EN = {
  marshal: 'marshal', general: 'general', major_general: 'major general', brigadier: 'brigadier',
  colonel: 'colonel', major: 'major', captain: 'captain', lieutenant: 'lieutenant',
  engineer: 'engineer', bomb: 'bomb', mine: 'mine', flag: 'flag',
};

// What fits on a tile: a tile holds two Chinese characters or about eight Latin letters.
/** @type {Record<string, string>} */
const PIECE_EN_SHORT = {
  marshal: 'Marshal', general: 'General', major_general: 'Maj Gen', brigadier: 'Brigadier',
  colonel: 'Colonel', major: 'Major', captain: 'Captain', lieutenant: 'Lieut',
  engineer: 'Engineer', bomb: 'Bomb', mine: 'Mine', flag: 'Flag',
};

/**
 * A piece's name in the page language, for running text and counts.
 * @param {string|undefined|null} piece
 */
export function pieceName(piece) {
  if (!piece) return '';
  return (EN ? PIECE_EN[piece] : PIECE_ZH[piece]) || String(piece);
}

/**
 * A piece's label on a board tile, in the page language.
 * @param {string} piece
 */
export function pieceLabel(piece) {
  return (EN ? PIECE_EN_SHORT[piece] : PIECE_ZH[piece]) || piece;
}

/**
 * The colour's side name: 红方 / Red.
 * @param {string|null|undefined} colour
 */
export function colourName(colour) {
  if (colour === 'red') return t('红方', 'Red');
  if (colour === 'blue') return t('蓝方', 'Blue');
  return '';
}

/**
 * "南方" / "South": a seat named when no player sits there.
 * @param {string|null|undefined} seat
 */
export function seatName(seat) {
  if (seat === 'south') return t('南方', 'South');
  if (seat === 'north') return t('北方', 'North');
  return '';
}

/**
 * @typedef {Object} Limits
 * @property {number} [timeouts_to_lose]
 * @property {number} [quiet_steps_to_draw]
 * @property {number|null} [steps_to_draw]
 */

/**
 * Why a game ended, in words. The counts come from the game's own view when the page has
 * one (flip and standard differ), otherwise the words go without them.
 * @param {string|null|undefined} reason
 * @param {Limits|null} [limits]
 */
export function reasonText(reason, limits) {
  const l = limits || {};
  switch (reason) {
    case 'flag': return t('扛旗', 'flag captured');
    case 'no_moves': return t('无棋可走', 'no legal moves');
    case 'timeouts':
      return l.timeouts_to_lose ? t('超时' + l.timeouts_to_lose + '次', l.timeouts_to_lose + ' timeouts') : t('超时判负', 'timeouts');
    case 'repetition': return t('重复走棋', 'repetition');
    case 'resign': return t('认输', 'resignation');
    case 'escape': return t('逃跑', 'escape');
    case 'agreed': return t('议和', 'draw agreed');
    case 'no_capture_limit':
      return l.quiet_steps_to_draw ? t(l.quiet_steps_to_draw + '步未吃子', l.quiet_steps_to_draw + ' steps without an attack')
        : t('长时间未吃子', 'too long without an attack');
    case 'step_limit':
      return l.steps_to_draw ? t(l.steps_to_draw + '步', l.steps_to_draw + ' steps') : t('步数已满', 'step limit');
    case 'time_limit': return t('3小时', '3 hours');
    default: return String(reason || '');
  }
}

/** @type {Record<string, string>} */
const ERRORS_ZH = {
  network: '网络连接失败，请稍后再试',
  bad_request: '请求有误',
  invalid_username: '用户名需为 3–20 个字符：字母、数字、_ 或 -',
  invalid_password: '密码需为 8–200 个字符',
  bad_option: '对局设置无效',
  not_logged_in: '请先登录',
  bad_credentials: '用户名或密码错误',
  bad_token: 'API 令牌无效或已被吊销',
  not_rated_together: '机器人与真人之间只能下友谊赛，排位赛互不相混',
  too_many_tokens: '令牌数量已达上限，请先吊销一个',
  forbidden: '这不是你的对局或座位',
  bad_origin: '只接受本站的连接',
  not_found: '找不到该对局或玩家',
  username_taken: '用户名已被占用',
  conflict: '操作未完成：对局状态已改变',
  too_large: '请求太大',
  internal: '服务器出错了，请稍后再试',
  bad_message: '消息格式有误',
  rate_limited: '操作太频繁，请稍后再试',
  not_a_player: '你不是这局的玩家',
  illegal: '这步不合规则',
  game_over: '对局已经结束',
  too_many_open_games: '你的待加入对局已达上限，请先取消一局或等对手加入',
  too_many_rated_games: '你进行中和待加入的积分赛已达上限，请先下完或取消一局（友谊赛不受限）',
  too_many_computer_games: '你同时进行的人机对局已达上限，请先下完或认输一局再开新局',
  guest_casual_only: '游客只能下友谊赛：注册后（对局都会保留）即可参加积分赛',
  blocked: '对方不接受你的挑战',
  you_blocked: '你已屏蔽该玩家，取消屏蔽后才能向其挑战',
  guest_no_friends: '游客不能关注、屏蔽或挑战玩家：注册后即可',
  challenge_waiting: '你向该玩家发出的挑战还在等待回应',
  challenge_answered: '这条挑战已被回应、取消或已过期',
  too_many_challenges: '你等待回应的挑战已达上限（5 条），请先取消一条或等待回应',
  too_many_follows: '关注人数已达上限（500），请先取消关注一些人',
  too_many_blocks: '屏蔽人数已达上限（500），请先取消屏蔽一些人',
  review_in_progress: '你还有一局复盘正在分析，请等它完成后再试',
  game_not_finished: '对局结束后才能复盘分析',
};

/**
 * The message to show for an error code and the server's message.
 * @param {string} code
 * @param {string} [message]
 */
export function errorText(code, message) {
  if (!EN && ERRORS_ZH[code]) return ERRORS_ZH[code];
  if (message) return message;
  return t('出错了', 'Something went wrong');
}

/**
 * A score change with its sign: +4, −4, ±0.
 * @param {number} n
 */
export function signed(n) {
  if (n > 0) return '+' + n;
  if (n < 0) return '−' + Math.abs(n);
  return '±0';
}

/**
 * A rank's name in the page language.
 * @param {{chinese?: string, english?: string}|null|undefined} rank
 */
export function rankName(rank) {
  if (!rank) return '';
  return EN ? rank.english || rank.chinese || '' : rank.chinese || rank.english || '';
}

/**
 * "12 步" / "12 steps".
 * @param {number} n
 */
export function stepsWord(n) {
  return t(n + ' 步', n + (n === 1 ? ' step' : ' steps'));
}

/**
 * A user as shown: the display name (昵称) beside the login name when there is one.
 * The display name is isolated (U+2068 FIRST STRONG ISOLATE … U+2069 POP DIRECTIONAL
 * ISOLATE, the text form of <bdi>), so that a right-to-left name cannot reorder the
 * sentence it is put in ("… wins", "轮到 …").
 * @param {{username?: string, display_name?: string|null}|null|undefined} p
 */
export function shownName(p) {
  if (!p || !p.username) return '';
  return p.display_name ? '\u2068' + p.display_name + '\u2069 (' + p.username + ')' : p.username;
}
