// @ts-check
// The JSON API over fetch (docs/protocol.md): one call shape, errors as ApiError with the
// server's code so each page can say why in its own language.
import { errorText, t } from './i18n.js';

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * Calls the JSON API. Resolves with the parsed body (null for 204), rejects with an
 * ApiError whose message is the page-language text for the server's error.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json' };
  /** @type {RequestInit} */
  const init = { method: method, credentials: 'same-origin', headers: headers };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
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
    const serverMessage = err && typeof err.message === 'string' && err.message ? err.message : '';
    const message = errorText(code, serverMessage) ||
      t('请求失败（' + res.status + '）', 'Request failed (' + res.status + ')');
    throw new ApiError(res.status, code, message);
  }
  return data;
}

/**
 * The ws:// or wss:// URL of a path on this host.
 * @param {string} path
 */
export function socketUrl(path) {
  const proto = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return proto + '//' + window.location.host + path;
}
