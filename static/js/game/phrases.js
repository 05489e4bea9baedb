// @ts-check
// Preset phrases and emotes (快捷语): a small picker for the players, the sender's words
// by their card for a few seconds and in the log. No free text, so nothing to moderate;
// the server limits how often (its refusal is shown gently). A remembered switch hides
// them all.
import { el, remembered, toast } from '../dom.js';
import { t } from '../i18n.js';

/** The ids the server accepts (docs/protocol.md), with their words. */
export const PHRASES = [
  { id: 'hello', zh: '你好', en: 'Hello' },
  { id: 'hurry', zh: '快点吧', en: 'Hurry up, please' },
  { id: 'good_move', zh: '好棋', en: 'Good move' },
  { id: 'again', zh: '再来一局', en: 'One more game?' },
  { id: 'thanks', zh: '谢谢', en: 'Thanks' },
  { id: 'sorry', zh: '不好意思', en: 'Sorry' },
];
export const EMOTES = [
  { id: 'smile', text: '😊' }, { id: 'laugh', text: '😄' }, { id: 'cry', text: '😢' },
  { id: 'angry', text: '😠' }, { id: 'thumbs_up', text: '👍' }, { id: 'flower', text: '🌹' },
];

const hidden = remembered('junqi.phrases.hidden', false);

/**
 * The words of a phrase or emote id, or null for one this page does not know.
 * @param {string} id
 */
export function phraseText(id) {
  const p = PHRASES.find(function (x) { return x.id === id; });
  if (p) return t(p.zh, p.en);
  const e = EMOTES.find(function (x) { return x.id === id; });
  return e ? e.text : null;
}

export function phrasesHidden() {
  return hidden.get();
}

/**
 * Wires the picker: the button opens a small grid; a choice is sent with `send`.
 * @param {{button: HTMLButtonElement, menu: HTMLElement, hide: HTMLInputElement, send: (id: string) => Promise<unknown>}} parts
 */
export function wirePhrases(parts) {
  const items = PHRASES.map(function (p) {
    return el('button', { type: 'button', class: 'phrase', dataset: { phrase: p.id }, text: t(p.zh, p.en) });
  }).concat(EMOTES.map(function (e) {
    return el('button', { type: 'button', class: 'phrase phrase-emote', dataset: { phrase: e.id }, text: e.text, 'aria-label': e.id.replace('_', ' ') });
  }));
  const grid = /** @type {HTMLElement} */ (parts.menu.querySelector('.phrase-grid'));
  grid.replaceChildren.apply(grid, items);
  parts.hide.checked = hidden.get();
  const close = function () {
    parts.menu.hidden = true;
    parts.button.setAttribute('aria-expanded', 'false');
  };
  parts.button.addEventListener('click', function () {
    const open = parts.menu.hidden;
    parts.menu.hidden = !open;
    parts.button.setAttribute('aria-expanded', open ? 'true' : 'false');
  });
  grid.addEventListener('click', function (ev) {
    const b = /** @type {HTMLElement|null} */ (/** @type {HTMLElement} */ (ev.target).closest('button[data-phrase]'));
    if (!b) return;
    close();
    parts.send(b.dataset.phrase || '').catch(function (e) {
      if (e && e.code === 'rate_limited') toast(t('说得太快了，稍等几秒再发', 'Too quick: wait a few seconds before the next one'));
      else if (e && e.code !== 'disconnected') toast(t('没能发出', 'Could not send it'));
    });
  });
  parts.hide.addEventListener('change', function () {
    hidden.set(parts.hide.checked);
    toast(parts.hide.checked ? t('已隐藏快捷语', 'Phrases hidden') : t('已显示快捷语', 'Phrases shown'));
  });
  document.addEventListener('keydown', function (ev) {
    if (ev.key === 'Escape') close();
  });
}
