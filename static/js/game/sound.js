// @ts-check
// Short sounds made with WebAudio (no files to download): a flip, a move, a capture,
// your turn, a low clock, and an opponent sitting down. A mute switch, remembered in localStorage. Browsers allow
// sound only after the page was touched; until then play() is silent.
import { remembered } from '../dom.js';

const muted = remembered('junqi.muted', false);
/** @type {AudioContext|null} */
let ctx = null;

function context() {
  if (ctx) return ctx;
  const AC = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
  if (!AC) return null;
  try {
    ctx = new AC();
  } catch (e) {
    return null;
  }
  return ctx;
}

// The first touch of the page may start sound (the autoplay policy).
function unlock() {
  const c = context();
  if (c && c.state === 'suspended') c.resume().catch(function () {});
  document.removeEventListener('pointerdown', unlock);
  document.removeEventListener('keydown', unlock);
}
document.addEventListener('pointerdown', unlock);
document.addEventListener('keydown', unlock);

/**
 * One tone: a frequency gliding to another, with a quick attack and decay.
 * @param {AudioContext} c
 * @param {number} at seconds from now
 * @param {number} f0
 * @param {number} f1
 * @param {number} dur seconds
 * @param {OscillatorType} type
 * @param {number} gain
 */
function tone(c, at, f0, f1, dur, type, gain) {
  const t0 = c.currentTime + at;
  const o = c.createOscillator();
  const g = c.createGain();
  o.type = type;
  o.frequency.setValueAtTime(f0, t0);
  o.frequency.exponentialRampToValueAtTime(f1, t0 + dur);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  o.connect(g).connect(c.destination);
  o.start(t0);
  o.stop(t0 + dur + 0.02);
}

/** @type {Record<string, (c: AudioContext) => void>} */
const SOUNDS = {
  flip: function (c) { tone(c, 0, 900, 500, 0.08, 'triangle', 0.25); },
  move: function (c) { tone(c, 0, 320, 260, 0.09, 'sine', 0.3); },
  capture: function (c) {
    tone(c, 0, 220, 90, 0.18, 'square', 0.18);
    tone(c, 0.05, 600, 200, 0.12, 'triangle', 0.15);
  },
  turn: function (c) {
    tone(c, 0, 660, 660, 0.09, 'sine', 0.2);
    tone(c, 0.11, 880, 880, 0.12, 'sine', 0.2);
  },
  low: function (c) { tone(c, 0, 1000, 1000, 0.05, 'square', 0.08); },
  // Someone sat down at this player's table: three rising notes, unlike "your turn".
  joined: function (c) {
    tone(c, 0, 523, 523, 0.12, 'sine', 0.22);
    tone(c, 0.13, 659, 659, 0.12, 'sine', 0.22);
    tone(c, 0.26, 784, 784, 0.22, 'sine', 0.22);
  },
};

/** @param {'flip'|'move'|'capture'|'turn'|'low'|'joined'} name */
export function play(name) {
  if (muted.get()) return;
  const c = context();
  if (!c || c.state !== 'running') return;
  const s = SOUNDS[name];
  if (s) s(c);
}

export function isMuted() {
  return muted.get();
}

/** @param {boolean} value */
export function setMuted(value) {
  muted.set(value);
}
