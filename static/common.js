// Shared helpers for every page: JSON API calls, small DOM builders, toasts,
// Chinese names, and the header's logout button. Plain ES2017, no build step.
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

  const COLOUR_NAMES = { red: '红方', blue: '蓝方' };
  const SEAT_NAMES = { south: '南', north: '北' };

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
      throw new ApiError(0, 'network', '网络连接失败，请稍后再试');
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
      const message = err && typeof err.message === 'string' && err.message
        ? err.message
        : '请求失败（' + res.status + '）';
      throw new ApiError(res.status, (err && err.code) || 'http_' + res.status, message);
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
    PIECE_NAMES: PIECE_NAMES,
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
