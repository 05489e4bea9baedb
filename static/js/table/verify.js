// @ts-check
// A finished table checked in the browser: the record (GET /api/games/{id}/record)
// reveals every layout, under 乱战 the dealt hands, and the salts; their SHA-256 must be
// the commitments the table message published before anyone moved (docs/protocol.md,
// 四国 tables). The texts hashed are the record format's, not rules: station order is
// each area's squares a1 … e6 for S, E, N, W in turn, and a hand lists its pieces in
// strength order.
import { api } from '../api.js';
import { byId } from '../dom.js';
import { PIECE_ORDER, t } from '../i18n.js';
import { SEATS } from './geometry.js';

/** @typedef {'ok'|'mismatch'|'unavailable'} Check */

const line = byId('replay-verified');
const LETTER = { south: 'S', east: 'E', north: 'N', west: 'W' };

/** @type {{layouts: Check, hands: Check|null}|null} */
let result = null;
let started = false;

/** @param {string} sq `a1` … `e6` @returns {number} its place in an area's order */
function squareIndex(sq) {
  return (parseInt(sq.slice(1), 10) - 1) * 5 + 'abcde'.indexOf(sq.charAt(0));
}

/**
 * The text the layouts' commitment hashes: every piece at the start, station order.
 * @param {Record<string, Record<string, string>>} layouts seat → square → piece
 * @param {string} salt
 */
export function layoutsText(layouts, salt) {
  /** @type {string[]} */
  const parts = [];
  for (const seat of SEATS) {
    const l = layouts[seat];
    if (!l) continue;
    const squares = Object.keys(l).sort(function (a, b) { return squareIndex(a) - squareIndex(b); });
    for (const sq of squares) parts.push(LETTER[seat] + sq + ':' + l[sq] + ':' + seat);
  }
  return parts.join(';') + '|' + salt;
}

/**
 * The text the 乱战 hands' commitment hashes.
 * @param {Record<string, Record<string, number>>} hands seat → piece → count
 * @param {string} salt
 */
export function handsText(hands, salt) {
  /** @type {string[]} */
  const parts = [];
  for (const seat of SEATS) {
    const h = hands[seat];
    if (!h) continue;
    for (const p of PIECE_ORDER) if (h[p] > 0) parts.push(seat + ':' + p + ':' + h[p]);
  }
  return parts.join(';') + '|' + salt;
}

/** @param {string} text */
async function sha256Hex(text) {
  const digest = await window.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest)).map(function (b) { return b.toString(16).padStart(2, '0'); }).join('');
}

/**
 * One commitment: the hash of what the record reveals against what was published live
 * (and what the record says was published).
 * @param {string} text
 * @param {string|null|undefined} published
 * @param {unknown} recorded
 * @returns {Promise<Check>}
 */
async function check(text, published, recorded) {
  if (!window.crypto || !window.crypto.subtle) return 'unavailable';
  const hash = await sha256Hex(text);
  if (published && hash !== published.toLowerCase()) return 'mismatch';
  return hash === String(recorded || '').toLowerCase() ? 'ok' : 'mismatch';
}

/**
 * Checks the finished table once.
 * @param {string} gameId
 * @param {{commitment: string|null, hands_commitment: string|null}} published what the table message said
 */
export function verifyOnce(gameId, published) {
  if (started) return;
  started = true;
  api('GET', '/api/games/' + encodeURIComponent(gameId) + '/record').then(async function (rec) {
    const layouts = rec.layouts && rec.salt
      ? await check(layoutsText(rec.layouts, rec.salt), published.commitment, rec.commitment)
      : 'unavailable';
    const hands = rec.hands
      ? rec.hands_salt ? await check(handsText(rec.hands, rec.hands_salt), published.hands_commitment, rec.hands_commitment) : 'unavailable'
      : null;
    result = { layouts: /** @type {Check} */ (layouts), hands: hands };
    render(rec.verified === true);
  }, function () {
    started = false;
  });
}

/** @param {Check} c */
function word(c) {
  return c === 'ok' ? t('已核对', 'checked') : c === 'mismatch' ? t('与开局承诺不符', 'does not match the commitment') : t('无法核对', 'could not be checked');
}

/** @param {boolean} serverVerified */
function render(serverVerified) {
  if (!result) return;
  line.hidden = false;
  line.dataset.layouts = result.layouts;
  line.dataset.hands = result.hands || '';
  line.dataset.server = serverVerified ? 'ok' : 'no';
  const good = result.layouts === 'ok' && result.hands !== 'mismatch' && serverVerified;
  line.classList.toggle('is-bad', !good);
  let text = t('浏览器核对 SHA-256 承诺：布阵', 'SHA-256 commitments checked in this browser: layouts ') + word(result.layouts);
  if (result.hands) text += t('，乱战发牌', ', 乱战 hands ') + word(result.hands);
  line.textContent = (good ? '✓ ' : '✗ ') + text;
}
