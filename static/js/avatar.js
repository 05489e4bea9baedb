// @ts-check
// The figure (角色秀) beside a player's name, from the avatar_url the server sends in
// every player shape. Decorative: the name beside it says who it is, so screen readers
// skip it (alt ""). An <img> of our own origin, as the Content-Security-Policy allows.
import { el } from './dom.js';

/** @typedef {import('./messages.js').PlayerRef} PlayerRef */

/**
 * A new image for `p`, or null when the shape carries none (an empty seat).
 * @param {PlayerRef|null|undefined} p
 * @param {string} cls extra classes (the size)
 * @returns {HTMLImageElement|null}
 */
export function avatarImg(p, cls) {
  if (!p || !p.avatar_url) return null;
  const img = /** @type {HTMLImageElement} */ (el('img', { class: 'avatar ' + cls, alt: '', width: 40, height: 40 }));
  setAvatar(img, p);
  return img;
}

/**
 * Points `img` at `p`'s figure (hidden without one); the image is fetched again only
 * when the figure changed.
 * @param {HTMLImageElement} img
 * @param {PlayerRef|null|undefined} p
 */
export function setAvatar(img, p) {
  const url = p && p.avatar_url ? p.avatar_url : '';
  img.hidden = !url;
  img.dataset.avatar = (p && p.avatar) || '';
  if (url && img.getAttribute('src') !== url) img.src = url;
  if (!url) img.removeAttribute('src');
}
