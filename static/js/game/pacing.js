// @ts-check
// The order and pace in which the page shows what its game socket says. A state or event
// is applied only once the one before it has been seen: its slide has arrived and its
// caption has been up long enough to read. Before this the computer's answer (about
// 40 ms after a move) was drawn while the player's own slide was still under way: that
// slide lasted as little as 25 ms and a capture caption was replaced after 16–19 ms.
// While two or more wait, each is shown shortened rather than skipped; a whole state
// supersedes everything queued before it; a hidden tab shows everything at once (its
// timers are throttled, and nobody is looking).

/** @typedef {(msg: any, quick: boolean) => number} Apply */

/** @type {{msg: any, apply: Apply}[]} */
const waiting = [];
/** @type {ReturnType<typeof setTimeout>|null} */
let holding = null;

/**
 * Shows `msg` with `apply` (which answers how many ms the board needs to show it) after
 * everything before it.
 * @param {any} msg
 * @param {Apply} apply
 * @param {boolean} supersedes a whole state: what waits before it need not be shown
 */
export function show(msg, apply, supersedes) {
  if (supersedes) {
    waiting.length = 0;
    if (holding) clearTimeout(holding);
    holding = null;
  }
  waiting.push({ msg: msg, apply: apply });
  if (!holding) next();
}

function next() {
  holding = null;
  for (;;) {
    const item = waiting.shift();
    if (!item) return;
    const ms = item.apply(item.msg, waiting.length >= 2);
    if (ms > 0 && !document.hidden) {
      holding = setTimeout(next, ms);
      return;
    }
  }
}

document.addEventListener('visibilitychange', function () {
  if (document.hidden && holding) {
    clearTimeout(holding);
    next();
  }
});
