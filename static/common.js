// Shared helpers for every page: JSON API calls, small DOM builders, toasts, the page
// language (Chinese by default, English when <html lang="en">), piece names and reasons,
// and the header's logout button. Plain ES2017, no build step.
(function (global) {
  'use strict';

  const PIECE_NAMES = {
    marshal: '司令',
    general: '军长',
    major_general: '师长',
    brigadier: '旅长',
    colonel: '团长',
    major: '营长',
    captain: '连长',
    lieutenant: '排长',
    engineer: '工兵',
    bomb: '炸弹',
    mine: '地雷',
    flag: '军旗',
  };

  const PIECE_ORDER = [
    'marshal', 'general', 'major_general', 'brigadier', 'colonel', 'major',
    'captain', 'lieutenant', 'engineer', 'bomb', 'mine', 'flag',
  ];

  // The page language: the server writes <html lang="en"> or lang="zh-CN".
  const EN = (document.documentElement.getAttribute('lang') || '').toLowerCase().indexOf('en') === 0;

  /** The text for the page language: t('中文', 'English'). */
  function t(zh, en) {
    return EN ? en : zh;
  }

  // English names of the pieces, shown as tooltips in English mode; the board and the
  // text keep the Chinese names in both languages.
  const PIECE_EN = {
    marshal: 'marshal',
    general: 'general',
    major_general: 'major general',
    brigadier: 'brigadier',
    colonel: 'colonel',
    major: 'major',
    captain: 'captain',
    lieutenant: 'lieutenant',
    engineer: 'engineer',
    bomb: 'bomb',
    mine: 'mine',
    flag: 'flag',
  };

  const REASONS = {
    flag: '扛旗',
    no_moves: '无棋可走',
    timeouts: '超时三次',
    repetition: '重复走棋',
    resign: '认输',
    escape: '逃跑',
    agreed: '议和',
    no_capture_limit: '80步未吃子',
    step_limit: '300步',
    time_limit: '3小时',
  };

  const REASONS_EN = {
    flag: 'flag captured',
    no_moves: 'no legal moves',
    timeouts: 'three timeouts',
    repetition: 'repetition',
    resign: 'resignation',
    escape: 'escape',
    agreed: 'draw agreed',
    no_capture_limit: '80 steps without an attack',
    step_limit: '300 steps',
    time_limit: '3 hours',
  };

  const COLOUR_NAMES = { red: '红方', blue: '蓝方' };
  const COLOUR_NAMES_EN = { red: 'Red', blue: 'Blue' };
  const SEAT_NAMES = { south: '南', north: '北' };
  const SEAT_NAMES_EN = { south: 'South', north: 'North' };

  // Standard 军棋 counts differently (RULES §4.6–4.7).
  const REASONS_STANDARD = { timeouts: '超时或不行动五次', no_capture_limit: '70步未吃子' };
  const REASONS_STANDARD_EN = { timeouts: 'five timeouts or passes', no_capture_limit: '70 steps without an attack' };

  /** Why a game ended, in words; `variant` ("flip" by default) picks the counts. */
  function reasonText(reason, variant) {
    if (variant === 'standard') {
      const std = EN ? REASONS_STANDARD_EN : REASONS_STANDARD;
      if (std[reason]) return std[reason];
    }
    const table = EN ? REASONS_EN : REASONS;
    return table[reason] || String(reason || '');
  }

  function colourName(colour) {
    return (EN ? COLOUR_NAMES_EN : COLOUR_NAMES)[colour] || '';
  }

  /** "南方" / "South": a seat named when no player sits there. */
  function seatName(seat) {
    return EN ? SEAT_NAMES_EN[seat] || '' : (SEAT_NAMES[seat] || '') + '方';
  }

  /** The Chinese name of a piece, whatever the language. */
  function pieceName(piece) {
    return PIECE_NAMES[piece] || String(piece || '');
  }

  /**
   * A piece name for running text: the Chinese name in a span, with the English name as
   * its tooltip in English mode.
   */
  function pieceEl(piece, colour) {
    const attrs = { class: 'pc-name-inline' + (colour ? ' pc-' + colour : ''), text: pieceName(piece) };
    if (EN && PIECE_EN[piece]) attrs.title = PIECE_EN[piece];
    attrs.dataset = { piece: piece };
    return el('span', attrs);
  }

  // Server error codes in Chinese; English pages show the server's own message.
  const ERRORS_ZH = {
    network: '网络连接失败，请稍后再试',
    bad_request: '请求有误',
    invalid_username: '用户名需为 3–20 个字符：字母、数字、_ 或 -',
    invalid_password: '密码需为 8–200 个字符',
    bad_option: '对局设置无效',
    not_logged_in: '请先登录',
    bad_credentials: '用户名或密码错误',
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
  };

  /** The message to show for an error code and the server's message. */
  function errorText(code, message) {
    if (!EN && ERRORS_ZH[code]) return ERRORS_ZH[code];
    if (message) return message;
    return EN ? 'Something went wrong' : '出错了';
  }

  /** An Error carrying the server's error code and HTTP status. */
  class ApiError extends Error {
    constructor(status, code, message) {
      super(message);
      this.status = status;
      this.code = code;
    }
  }

  /**
   * Calls the JSON API. Resolves with the parsed body (null for 204), rejects with an
   * ApiError whose message is the server's `error.message` when there is one.
   */
  async function api(method, path, body) {
    const init = {
      method: method,
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(path, init);
    } catch (e) {
      throw new ApiError(0, 'network', errorText('network', 'Network error, please try again'));
    }
    let data = null;
    const text = await res.text();
    if (text) {
      try {
        data = JSON.parse(text);
      } catch (e) {
        data = null;
      }
    }
    if (!res.ok) {
      const err = data && data.error;
      const code = (err && err.code) || 'http_' + res.status;
      const serverMessage = err && typeof err.message === 'string' && err.message ? err.message : null;
      const message = errorText(code, serverMessage) ||
        t('请求失败（' + res.status + '）', 'Request failed (' + res.status + ')');
      throw new ApiError(res.status, code, message);
    }
    return data;
  }

  /**
   * Builds an element: el('div', {class: 'x', dataset: {id: '1'}, text: '…'}, [children]).
   * Text always goes in through textContent.
   */
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    if (attrs) {
      for (const key of Object.keys(attrs)) {
        const value = attrs[key];
        if (value === undefined || value === null || value === false) continue;
        if (key === 'text') node.textContent = String(value);
        else if (key === 'class') node.className = value;
        else if (key === 'dataset') Object.assign(node.dataset, value);
        else if (value === true) node.setAttribute(key, '');
        else node.setAttribute(key, String(value));
      }
    }
    if (children) {
      for (const child of children) {
        if (child === null || child === undefined || child === false) continue;
        node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
      }
    }
    return node;
  }

  let toastTimer = null;
  /** Shows a short message at the bottom of the screen. */
  function toast(message, kind) {
    let box = document.getElementById('toast');
    if (!box) {
      box = el('div', { id: 'toast', class: 'toast', role: 'status', 'aria-live': 'polite' });
      document.body.appendChild(box);
    }
    box.textContent = String(message);
    box.className = 'toast show' + (kind ? ' toast-' + kind : '');
    box.hidden = false;
    if (toastTimer) clearTimeout(toastTimer);
    toastTimer = setTimeout(function () {
      box.className = 'toast';
      toastTimer = setTimeout(function () { box.hidden = true; }, 250);
    }, 4000);
  }

  /** Copies text to the clipboard; resolves true on success. */
  async function copyText(text) {
    if (navigator.clipboard && global.isSecureContext) {
      try {
        await navigator.clipboard.writeText(text);
        return true;
      } catch (e) {
        // fall through to the old way
      }
    }
    const area = el('textarea', { readonly: true, class: 'offscreen' });
    area.value = text;
    document.body.appendChild(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch (e) {
      ok = false;
    }
    area.remove();
    return ok;
  }

  /** A same-site path from `?next=`, or '/' when it is missing or points elsewhere. */
  function safeNext(raw) {
    if (typeof raw !== 'string' || raw === '') return '/';
    if (raw.charAt(0) !== '/' || raw.charAt(1) === '/' || raw.charAt(1) === '\\') return '/';
    if (/[\u0000-\u001f]/.test(raw)) return '/';
    return raw;
  }

  /** Opens a WebSocket to a path on this host. */
  function socketUrl(path) {
    const proto = global.location.protocol === 'https:' ? 'wss:' : 'ws:';
    return proto + '//' + global.location.host + path;
  }

  function signed(n) {
    if (typeof n !== 'number') return '';
    if (n > 0) return '+' + n;
    if (n < 0) return '−' + Math.abs(n);
    return '±0';
  }

  function setupLogout() {
    const btn = document.getElementById('logout');
    if (!btn) return;
    btn.addEventListener('click', async function () {
      btn.disabled = true;
      try {
        await api('POST', '/api/logout');
      } catch (e) {
        // Reloading shows whatever state the session is really in.
      }
      global.location.reload();
    });
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', setupLogout);
  } else {
    setupLogout();
  }

  global.Junqi = {
    EN: EN,
    t: t,
    PIECE_NAMES: PIECE_NAMES,
    PIECE_EN: PIECE_EN,
    REASONS_EN: REASONS_EN,
    COLOUR_NAMES_EN: COLOUR_NAMES_EN,
    reasonText: reasonText,
    colourName: colourName,
    seatName: seatName,
    pieceName: pieceName,
    pieceEl: pieceEl,
    errorText: errorText,
    PIECE_ORDER: PIECE_ORDER,
    REASONS: REASONS,
    COLOUR_NAMES: COLOUR_NAMES,
    SEAT_NAMES: SEAT_NAMES,
    ApiError: ApiError,
    api: api,
    el: el,
    toast: toast,
    copyText: copyText,
    safeNext: safeNext,
    socketUrl: socketUrl,
    signed: signed,
  };
})(window);
