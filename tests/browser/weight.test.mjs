// What a phone must download before it sees the board: the game page of a running game,
// opened in a fresh browser (nothing cached), must have fetched under 60 KB of script and
// style, as the server sent them (compressed), by the time the board's first piece is
// drawn. Sizes are the responses' encoded bodies as the browser's resource timing counts
// them; the test also prints each file, so a failure says which grew.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, PHONE, launch, register, startGame } from './support.mjs';

const LIMIT = 60 * 1024;

/**
 * Opens the game page and answers the script and style responses that started before
 * the first piece was drawn: [{ url, bytes, encoding }], bytes as sent on the wire.
 */
async function weighGamePage(browser, storageState, id) {
  const ctx = await browser.newContext({ viewport: PHONE, storageState });
  const page = await ctx.newPage();
  /** @type {Map<string, string>} */
  const encodings = new Map();
  page.on('response', (res) => {
    encodings.set(res.url(), res.headers()['content-encoding'] ?? '');
  });
  // The moment the first piece enters the board, in the page's own clock.
  await page.addInitScript(() => {
    const seen = new MutationObserver(() => {
      const board = document.getElementById('board');
      if (board && board.querySelector('.piece')) {
        /** @type {any} */ (window).__firstPiece = performance.now();
        seen.disconnect();
      }
    });
    seen.observe(document, { childList: true, subtree: true });
  });
  await page.goto(`${BASE}/game/${id}`);
  await page.waitForFunction(() => /** @type {any} */ (window).__firstPiece !== undefined);
  const entries = await page.evaluate(() => {
    const before = /** @type {any} */ (window).__firstPiece;
    return performance.getEntriesByType('resource')
      .map((e) => /** @type {PerformanceResourceTiming} */ (e))
      .filter((e) => e.startTime < before && /\.(js|css)(\?|$)/.test(new URL(e.name).pathname))
      .map((e) => ({ url: e.name, bytes: e.encodedBodySize }));
  });
  await ctx.close();
  return entries.map((e) => ({ ...e, encoding: encodings.get(e.url) ?? '?' }));
}

test('the game page draws its board after under 60 KB of compressed script and style', async () => {
  const browser = await launch();
  try {
    const stamp = Date.now().toString(36).slice(-5);
    const ca = await browser.newContext();
    const cb = await browser.newContext();
    const pa = await ca.newPage();
    const pb = await cb.newPage();
    await register(pa, `wa${stamp}`);
    await register(pb, `wb${stamp}`);

    const flip = await startGame(pa, pb, { variant: 'flip', seconds_per_action: 60, rated: false });
    const standard = await startGame(pa, pb, { variant: 'standard', seconds_per_action: 60, rated: false });
    const state = await ca.storageState();

    for (const [kind, id] of [['flip', flip], ['standard', standard]]) {
      const files = await weighGamePage(browser, state, id);
      const total = files.reduce((sum, f) => sum + f.bytes, 0);
      const lines = files
        .sort((a, b) => b.bytes - a.bytes)
        .map((f) => `  ${String(f.bytes).padStart(6)} ${f.encoding || 'identity'} ${new URL(f.url).pathname}`)
        .join('\n');
      console.log(`${kind} game page: ${total} bytes in ${files.length} files before the first piece\n${lines}`);
      assert.ok(files.some((f) => f.url.includes('/js/game/main.')), `${kind}: main.js counted\n${lines}`);
      assert.ok(files.every((f) => f.bytes > 0), `${kind}: every size known\n${lines}`);
      assert.ok(total < LIMIT, `${kind}: ${total} bytes ≥ ${LIMIT}\n${lines}`);
    }
    await ca.close();
    await cb.close();
  } finally {
    await browser.close();
  }
});
