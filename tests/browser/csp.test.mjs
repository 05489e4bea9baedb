// Every page under the server's Content-Security-Policy in Chromium: no violation is
// reported (console or securitypolicyviolation event) while the pages load, draw the
// board, open their sockets and show a profile's progress bar; the scripts run (the
// import map's hash is accepted) and the styles apply.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, DESKTOP, launch, register, startGame } from './support.mjs';

/** Records every CSP violation a page reports. */
function watch(page) {
  const seen = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) seen.push(msg.text());
  });
  page.on('pageerror', (err) => seen.push('page error: ' + err.message));
  page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return seen;
}

test('the pages work under the Content-Security-Policy and report no violation', async () => {
  const browser = await launch();
  try {
    const ca = await browser.newContext({ viewport: DESKTOP });
    const cb = await browser.newContext({ viewport: DESKTOP });
    const pa = await ca.newPage();
    const pb = await cb.newPage();
    const seenA = watch(pa);
    const seenB = watch(pb);
    const name = 'csp_' + Date.now().toString(36).slice(-6);
    await register(pa, name);
    await register(pb, name + 'b');

    const res = await pa.goto(`${BASE}/`);
    const csp = res.headers()['content-security-policy'];
    assert.match(csp, /script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    assert.doesNotMatch(csp, /unsafe/);

    for (const path of ['/', '/rules', '/games', '/ladder', '/layouts', `/@/${name}`, '/login', '/register']) {
      await pa.goto(`${BASE}${path}`);
      await pa.waitForLoadState('networkidle');
      // The header's module ran (it needs the import map to resolve its imports).
      const styled = await pa.evaluate(() => getComputedStyle(document.querySelector('.site-header')).display);
      assert.notEqual(styled, 'inline', `${path}: style.css applies`);
    }
    await pa.goto(`${BASE}/@/${name}`);
    const bar = await pa.locator('#rank-progress').boundingBox();
    assert.ok(bar && bar.width > 100 && bar.height >= 8, `the progress bar is drawn: ${JSON.stringify(bar)}`);

    // A live game: modules, the board, and the socket (connect-src 'self' takes ws:).
    const id = await startGame(pa, pb, { variant: 'flip', seconds_per_action: 60, rated: false });
    await pa.goto(`${BASE}/game/${id}`);
    await pb.goto(`${BASE}/game/${id}`);
    for (const p of [pa, pb]) {
      await p.waitForFunction(() => document.querySelectorAll('#board *').length > 60, null, { timeout: 15000 });
      await p.waitForFunction(() => /轮到你|等待对手|Your turn|Waiting for/.test(document.querySelector('#status')?.textContent ?? ''));
    }
    // The lobby's socket.
    await pa.goto(`${BASE}/`);
    await pa.waitForLoadState('networkidle');

    assert.deepEqual(seenA, [], 'no CSP violation for the first player');
    assert.deepEqual(seenB, [], 'no CSP violation for the second player');
  } finally {
    await browser.close();
  }
});
