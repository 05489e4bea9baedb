// @ts-check
// Questions the page asks before an action it cannot take back (认输, a move the server
// says loses by repetition, a pass that would be the losing one): a sheet in the page,
// not the browser's confirm(), which a phone draws as a system box over everything,
// blocks the socket's messages meanwhile and cannot be styled or tested like the page.
// One question at a time; the game ending, or a new question, answers the old one "no".
import { byId } from '../dom.js';

const els = {
  sheet: byId('confirm-sheet'),
  text: byId('confirm-text'),
  ok: /** @type {HTMLButtonElement} */ (byId('confirm-ok')),
  cancel: /** @type {HTMLButtonElement} */ (byId('confirm-cancel')),
};

/** @type {((yes: boolean) => void)|null} */
let pending = null;

/** @param {boolean} yes */
function answer(yes) {
  const p = pending;
  pending = null;
  els.sheet.hidden = true;
  if (p) p(yes);
}

els.ok.addEventListener('click', function () { answer(true); });
els.cancel.addEventListener('click', function () { answer(false); });
document.addEventListener('keydown', function (ev) {
  if (ev.key === 'Escape' && pending) answer(false);
});

/**
 * Asks `text`; resolves true when the player presses `ok`.
 * @param {string} text
 * @param {string} ok
 * @returns {Promise<boolean>}
 */
export function ask(text, ok) {
  answer(false);
  els.text.textContent = text;
  els.ok.textContent = ok;
  els.sheet.hidden = false;
  els.ok.focus();
  return new Promise(function (resolve) { pending = resolve; });
}

/** Whatever was asked no longer applies (the game ended, the turn passed). */
export function withdraw() {
  if (pending) answer(false);
}
