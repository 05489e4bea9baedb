// @ts-check
// Small DOM helpers shared by every page module: element builders that put text in
// through textContent (never as HTML), the toast, and copying to the clipboard.

/**
 * @typedef {Object} ElAttrs
 * @property {string} [class]
 * @property {string|number|null} [text]
 * @property {Record<string, string|number>} [dataset]
 * @property {string|number|boolean|null|undefined} [key]
 */

/**
 * Builds an element: el('div', {class: 'x', dataset: {id: '1'}, text: '…'}, [children]).
 * @param {string} tag
 * @param {Record<string, any>|null} [attrs]
 * @param {Array<Node|string|null|undefined|false>} [children]
 * @returns {HTMLElement}
 */
export function el(tag, attrs, children) {
  const node = document.createElement(tag);
  if (attrs) {
    for (const key of Object.keys(attrs)) {
      const value = attrs[key];
      if (value === undefined || value === null || value === false) continue;
      if (key === 'text') node.textContent = String(value);
      else if (key === 'class') node.className = value;
      else if (key === 'dataset') {
        for (const k of Object.keys(value)) node.dataset[k] = String(value[k]);
      } else if (value === true) node.setAttribute(key, '');
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

export const SVGNS = 'http://www.w3.org/2000/svg';

/**
 * An SVG element with attributes, appended to `parent` when given.
 * @param {string} name
 * @param {Record<string, string|number|null|undefined>|null} [attrs]
 * @param {Element} [parent]
 * @returns {SVGElement}
 */
export function svgEl(name, attrs, parent) {
  const node = /** @type {SVGElement} */ (document.createElementNS(SVGNS, name));
  if (attrs) {
    for (const key of Object.keys(attrs)) {
      const value = attrs[key];
      if (value === undefined || value === null) continue;
      node.setAttribute(key, String(value));
    }
  }
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * The element with this id; the templates guarantee it exists, so a missing one is a
 * template bug worth a loud error rather than a silent null.
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error('missing #' + id);
  return node;
}

/** @type {ReturnType<typeof setTimeout>|null} */
let toastTimer = null;

/**
 * Shows a short message at the bottom of the screen.
 * @param {string} message
 * @param {string} [kind] 'error' for a refusal
 */
export function toast(message, kind) {
  let box = document.getElementById('toast');
  if (!box) {
    box = el('div', { id: 'toast', class: 'toast', role: 'status', 'aria-live': 'polite' });
    document.body.appendChild(box);
  }
  const b = box;
  b.textContent = String(message);
  b.className = 'toast show' + (kind ? ' toast-' + kind : '');
  b.hidden = false;
  if (toastTimer) clearTimeout(toastTimer);
  toastTimer = setTimeout(function () {
    b.className = 'toast';
    toastTimer = setTimeout(function () { b.hidden = true; }, 250);
  }, 4000);
}

/**
 * Copies text to the clipboard; resolves true on success.
 * @param {string} text
 * @returns {Promise<boolean>}
 */
export async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch (e) {
      // fall through to the old way
    }
  }
  const area = /** @type {HTMLTextAreaElement} */ (el('textarea', { readonly: true, class: 'offscreen' }));
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

/**
 * A remembered on/off switch in localStorage (private windows may refuse storage: then
 * the choice lasts for the page only).
 * @param {string} key
 * @param {boolean} fallback
 * @returns {{get: () => boolean, set: (v: boolean) => void}}
 */
export function remembered(key, fallback) {
  let value = fallback;
  try {
    const raw = window.localStorage.getItem(key);
    if (raw === '1') value = true;
    else if (raw === '0') value = false;
  } catch (e) { /* storage refused */ }
  return {
    get: function () { return value; },
    set: function (v) {
      value = v;
      try { window.localStorage.setItem(key, v ? '1' : '0'); } catch (e) { /* storage refused */ }
    },
  };
}
