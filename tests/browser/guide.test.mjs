// The move guide draws exactly what the server sent: the pieces a player may act with
// are the flips and move sources of the last `legal` list the socket received, a
// selected piece's frames are that piece's destinations, and the route drawn for the
// last move is the server's `route`. Alice (desktop) and Bob (a phone) play 46 steps by
// clicking only what the guide offers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, DESKTOP, PHONE, captureFrames, latestLegal, launch, register, rng, startGame, steps,
  waitForSteps, whoseTurn,
} from './support.mjs';

const sorted = (xs) => [...new Set(xs)].sort();

async function shownGuide(page) {
  return page.evaluate(() => ({
    actionable: Array.from(document.querySelectorAll('#board g.is-actionable[data-square]'), (g) => g.getAttribute('data-square')),
    dests: Array.from(document.querySelectorAll('#board g.is-dest[data-square]'), (g) => g.getAttribute('data-square')),
    warn: Array.from(document.querySelectorAll('#board g.is-warn[data-square]'), (g) => g.getAttribute('data-square')),
  }));
}

test('the move guide shows exactly the actions the server sent', async () => {
  assert.ok(BASE, 'JUNQI_URL names the server under test');
  const browser = await launch();
  try {
    const pa = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    const pb = await (await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true })).newPage();
    const errors = [];
    for (const p of [pa, pb]) p.on('pageerror', (e) => errors.push(e.message));
    const suffix = Date.now().toString(36).slice(-6);
    await register(pa, `ga_${suffix}`);
    await register(pb, `gb_${suffix}`);
    const id = await startGame(pa, pb, { variant: 'flip', seconds_per_action: 60, rated: false });
    const frames = new Map([[pa, captureFrames(pa)], [pb, captureFrames(pb)]]);
    await pa.goto(`${BASE}/game/${id}`);
    await pb.goto(`${BASE}/game/${id}`);
    const pages = [pa, pb];
    const rand = rng(9);
    let moves = 0;
    for (let n = 0; n < 46; n++) {
      const page = await whoseTurn(pages);
      const before = await steps(page);
      const f = frames.get(page);
      // The guide settles on the latest list once the page has drawn it.
      await page.waitForFunction(() => document.querySelectorAll('#board g.is-actionable').length > 0);
      const legal = latestLegal(f);
      assert.ok(legal.length > 0, 'the seat to move was sent its legal actions');
      const flips = legal.filter((a) => a.flip).map((a) => a.flip);
      const bySource = {};
      for (const a of legal) if (a.move) (bySource[a.move.from] ??= []).push(a.move.to);
      const guide = await shownGuide(page);
      assert.deepEqual(sorted(guide.actionable), sorted([...flips, ...Object.keys(bySource)]), `step ${before}: actionable squares`);
      // Each piece that may move: selecting it frames exactly its destinations.
      for (const from of Object.keys(bySource).slice(0, 3)) {
        await page.locator(`#board g[data-square="${from}"]`).click();
        const g = await shownGuide(page);
        assert.deepEqual(sorted(g.dests), sorted(bySource[from]), `destinations of ${from}`);
        await page.locator(`#board g[data-square="${from}"]`).click(); // deselect
        assert.equal((await shownGuide(page)).dests.length, 0);
      }
      // Act: moves once there are any (after the opening flips), else a flip.
      const sources = Object.keys(bySource);
      let route = null;
      if (n >= 40 && sources.length) {
        const from = sources[Math.floor(rand() * sources.length)];
        const to = bySource[from][Math.floor(rand() * bySource[from].length)];
        await page.locator(`#board g[data-square="${from}"]`).click();
        await page.locator(`#board g[data-square="${to}"]`).click();
        route = { from, to };
        moves++;
      } else {
        await page.locator(`#board g[data-square="${flips[Math.floor(rand() * flips.length)]}"]`).click();
      }
      await waitForSteps(pages, before + 1);
      if (route) {
        // Both boards draw the route the server sent with the move.
        for (const p of pages) {
          const ev = [...frames.get(p)].reverse().find((m) => m.t === 'event' && m.d.kind === 'move');
          assert.ok(ev && Array.isArray(ev.d.route), 'the move event carries its route');
          assert.equal(ev.d.route[0], route.from);
          assert.equal(ev.d.route.at(-1), route.to);
          await p.waitForFunction((want) => document.querySelector('#board').getAttribute('data-path') === want, ev.d.route.join(' '));
        }
      }
      if (await pa.locator('#result').isVisible()) break;
    }
    assert.ok(moves > 0, 'some moves were played');
    assert.deepEqual(errors, [], 'no script errors');
  } finally {
    await browser.close();
  }
});
