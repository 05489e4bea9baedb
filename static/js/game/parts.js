// @ts-check
// Parts of the game page that only some games need, loaded when a game needs them, so
// that what a phone downloads before it can draw a game stays small: the deployment (and
// standard.css) while a standard game deploys, piece marks once it is played, the result
// once a game has ended, the replay of a finished game. The phrase picker is not needed to
// draw either: it loads just after the first drawing, or when a phrase arrives.
import { byId } from '../dom.js';
import { deploying, isStandard, mySeat, result, status, view } from './state.js';
import { wireTuoguan } from './tuoguan.js';

/** @typedef {(type: string, data?: unknown) => Promise<{a: number, v?: number}>} Send */
/**
 * What the parts may call on the page.
 * @typedef {{render: () => void, renderBoard: () => void, send: Send, command: Send}} Page
 */

export const parts = {
  /** @type {typeof import('./deploy.js')|null} */
  deploy: null,
  /** @type {typeof import('./marks.js')|null} */
  marks: null,
  /** @type {typeof import('./result.js')|null} */
  ending: null,
  /** @type {typeof import('./replay.js')|null} */
  replay: null,
  /** @type {typeof import('./phrases.js')|null} */
  phrases: null,
};

/** @type {Page} */
let page = {
  render: function () {},
  renderBoard: function () {},
  send: function () { return Promise.reject(new Error('not wired')); },
  command: function () { return Promise.reject(new Error('not wired')); },
};
/** The game ended while this page was open, before result.js had arrived. */
let endedBeforeLoad = false;
/** @type {Map<string, Promise<unknown>>} */
const asked = new Map();

/** @param {Page} p */
export function wireParts(p) {
  page = p;
  wireTuoguan(p.command);
}

/**
 * Loads a part once (a failed load may be asked again), then draws the page again.
 * @template M
 * @param {string} name
 * @param {() => Promise<M>} load
 * @param {(m: M) => void} ready
 * @returns {Promise<unknown>}
 */
function once(name, load, ready) {
  let p = asked.get(name);
  if (!p) {
    p = load().then(function (m) {
      ready(m);
      page.render();
    }, function () { asked.delete(name); });
    asked.set(name, p);
  }
  return p;
}

/** @type {Promise<void>|null} */
let standardCss = null;

/** Links standard.css (its hashed URL is in the page); resolves once it applies. */
function standardStyles() {
  if (!standardCss) {
    standardCss = new Promise(function (resolve) {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = byId('game').dataset.standardCss || '';
      link.onload = link.onerror = function () { resolve(); };
      document.head.appendChild(link);
    });
  }
  return standardCss;
}

/** Asks for whatever the game now needs (at every drawing; each part loads once). */
export function loadParts() {
  if (deploying()) {
    once('deploy', function () {
      return Promise.all([import('./deploy.js'), standardStyles()]).then(function (r) { return r[0]; });
    }, function (m) {
      parts.deploy = m;
      m.wireDeploy(page.send, page.render);
    });
  }
  if (isStandard() && mySeat() && view()) {
    once('marks', function () {
      return Promise.all([import('./marks.js'), standardStyles()]).then(function (r) { return r[0]; });
    }, function (m) {
      parts.marks = m;
      m.wireMarks(page.command, page.renderBoard, replaying);
    });
  }
  if (result()) {
    once('result', function () { return import('./result.js'); }, function (m) {
      parts.ending = m;
      m.wireResult();
      if (endedBeforeLoad) m.endedNow();
    });
  }
  if (!asked.has('phrases') && mySeat() && view()) setTimeout(loadPhrases, 0);
}

export function loadPhrases() {
  return once('phrases', function () { return import('./phrases.js'); }, function (m) {
    parts.phrases = m;
    m.wirePhrases({
      button: /** @type {HTMLButtonElement} */ (byId('phrase-button')),
      menu: byId('phrase-menu'),
      hide: /** @type {HTMLInputElement} */ (byId('phrase-hide')),
      send: function (id) { return page.send('phrase', { id: id }); },
    });
  });
}

/** The game ended while this page was open: the result comes up over the board. */
export function endedNow() {
  if (parts.ending) parts.ending.endedNow();
  else endedBeforeLoad = true;
}

export function maybeLoadReplay() {
  if (parts.replay) {
    parts.replay.maybeLoadReplay();
    return;
  }
  if (status() !== 'finished') return;
  once('replay', function () { return import('./replay.js'); }, function (m) {
    parts.replay = m;
    m.wireReplay(page.render);
    m.maybeLoadReplay();
  });
}

export function replaying() {
  return !!parts.replay && parts.replay.replaying();
}

export function replayEvent() {
  return parts.replay ? parts.replay.replayEvent() : null;
}

/** The review's best action on the replay board, if one is shown. */
export function replayBest() {
  return parts.replay ? parts.replay.replayBest() : null;
}

export function closeMarkMenu() {
  if (parts.marks) parts.marks.closeMarkMenu();
}
