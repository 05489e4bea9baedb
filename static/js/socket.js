// @ts-check
// The one WebSocket client of the site, for the lobby (/ws/lobby) and a game
// (/ws/game/{id}): connect, back off on failure, keep alive with pings, reconnect with
// whatever path the page asks for (a game asks for ?v=N to catch up), and ONE registry of
// pending commands: every command carries an ack id "a" and its promise settles on the
// server's `ack` (or `error` with that id), on a timeout, or when the socket drops.
import { socketUrl } from './api.js';

/** A command the server refused, or one that got no answer. */
export class CommandError extends Error {
  /**
   * @param {string} code the server's error code, or 'timeout' / 'disconnected'
   * @param {string} message
   * @param {Record<string, any>} [data] the whole error `d` (reason, violations, …)
   */
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data || {};
  }
}

/**
 * @typedef {Object} SocketOptions
 * @property {() => string} path the path to connect to (asked anew at every connect)
 * @property {(msg: any) => void} onMessage every parsed message, acks and errors included
 * @property {(open: boolean) => void} [onStatus] the socket opened or dropped
 */

/** @typedef {{resolve: (v: {a: number, v?: number}) => void, reject: (e: CommandError) => void, timer: ReturnType<typeof setTimeout>}} Pending */

const ACK_TIMEOUT_MS = 8000;
const PING_MS = 25000;

export class Socket {
  /** @param {SocketOptions} opts */
  constructor(opts) {
    this.opts = opts;
    /** @type {WebSocket|null} */
    this.ws = null;
    this.open = false;
    this.delay = 500;
    this.stopped = false;
    this.seq = 0;
    /** @type {Map<number, Pending>} */
    this.pending = new Map();
    /** @type {ReturnType<typeof setTimeout>|null} */
    this.retryTimer = null;
    /** @type {ReturnType<typeof setInterval>|null} */
    this.pingTimer = null;
    this.lastForced = 0;
    const self = this;
    document.addEventListener('visibilitychange', function () {
      // A phone that slept may have lost the socket without telling: try at once.
      if (!document.hidden && !self.ws && !self.stopped) self.schedule(true);
    });
    window.addEventListener('pagehide', function () { self.stopped = true; });
    window.addEventListener('pageshow', function (ev) {
      if (ev.persisted) {
        self.stopped = false;
        self.reconnect();
      }
    });
  }

  start() {
    this.connect();
  }

  stop() {
    this.stopped = true;
    if (this.ws) this.ws.close();
  }

  connect() {
    this.retryTimer = null;
    if (this.stopped) return;
    let sock;
    try {
      sock = new WebSocket(socketUrl(this.opts.path()));
    } catch (e) {
      this.schedule(false);
      return;
    }
    this.ws = sock;
    const self = this;
    sock.addEventListener('open', function () {
      if (self.ws !== sock) return;
      self.open = true;
      if (self.opts.onStatus) self.opts.onStatus(true);
      self.pingTimer = setInterval(function () {
        if (sock.readyState === WebSocket.OPEN) sock.send(JSON.stringify({ t: 'ping' }));
      }, PING_MS);
    });
    sock.addEventListener('message', function (ev) {
      if (self.ws !== sock) return;
      let msg;
      try {
        msg = JSON.parse(String(ev.data));
      } catch (e) {
        return;
      }
      if (!msg || typeof msg !== 'object') return;
      self.delay = 500; // the server answers: the next drop starts backing off afresh
      self.settle(msg);
      self.opts.onMessage(msg);
    });
    sock.addEventListener('close', function () {
      if (self.pingTimer) clearInterval(self.pingTimer);
      self.pingTimer = null;
      if (self.ws !== sock) return;
      self.ws = null;
      self.open = false;
      self.failAll();
      if (self.opts.onStatus) self.opts.onStatus(false);
      self.schedule(false);
    });
  }

  /**
   * Settles the pending command an ack or an error answers.
   * @param {any} msg
   */
  settle(msg) {
    if (typeof msg.a !== 'number') return;
    const p = this.pending.get(msg.a);
    if (!p) return;
    if (msg.t === 'ack') {
      this.pending.delete(msg.a);
      clearTimeout(p.timer);
      p.resolve({ a: msg.a, v: msg.v });
    } else if (msg.t === 'error') {
      this.pending.delete(msg.a);
      clearTimeout(p.timer);
      const d = msg.d || {};
      p.reject(new CommandError(String(d.code || 'error'), String(d.message || ''), d));
    }
  }

  failAll() {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(new CommandError('disconnected', 'the connection dropped'));
    }
    this.pending.clear();
  }

  /** @param {boolean} now */
  schedule(now) {
    if (this.stopped || this.retryTimer) return;
    const wait = now ? 0 : this.delay + Math.floor(Math.random() * 400);
    if (!now) this.delay = Math.min(this.delay * 2, 15000);
    const self = this;
    this.retryTimer = setTimeout(function () { self.connect(); }, wait);
  }

  /** Drops the socket and connects again (at once, unless this keeps happening). */
  reconnect() {
    const sock = this.ws;
    this.ws = null;
    this.open = false;
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
    if (sock) {
      try { sock.close(); } catch (e) { /* already closed */ }
    }
    this.failAll();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const now = Date.now();
    const soon = now - this.lastForced < 2000;
    this.lastForced = now;
    this.schedule(!soon);
  }

  /**
   * Sends a command; resolves on its ack, rejects with a CommandError.
   * @param {string} type
   * @param {unknown} [data]
   * @returns {Promise<{a: number, v?: number}>}
   */
  send(type, data) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      return Promise.reject(new CommandError('disconnected', 'not connected'));
    }
    const a = ++this.seq;
    /** @type {{t: string, a: number, d?: unknown}} */
    const msg = { t: type, a: a };
    if (data !== undefined) msg.d = data;
    const self = this;
    return new Promise(function (resolve, reject) {
      const timer = setTimeout(function () {
        self.pending.delete(a);
        reject(new CommandError('timeout', 'no answer'));
      }, ACK_TIMEOUT_MS);
      self.pending.set(a, { resolve: resolve, reject: reject, timer: timer });
      ws.send(JSON.stringify(msg));
    });
  }
}
