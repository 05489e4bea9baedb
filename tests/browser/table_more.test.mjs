// The 四国 table page's saved layouts and 再来一局: a person with three computers saves
// the layout they arranged (保存布阵), takes a random one, loads the saved one back
// (载入布阵) and goes to battle with it; leaves (托管退出, a defeat at once in 混战)
// and watches the computers play to the end; presses 再来一局 (the computers agree at
// once) and lands on the new table in the same seat beside the same computers, which
// deploys at once; there, on a 360 px phone, the deploy bar with 载入布阵 stays at the
// bottom of the screen (sticky) as the page scrolls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, DESKTOP, PHONE, launch, register } from './support.mjs';

const suffix = () => Date.now().toString(36).slice(-5) + Math.floor(Math.random() * 100);

/** The table message the board last drew. */
const version = (page) => page.evaluate(() => Number(document.getElementById('board')?.dataset.version ?? 0));

/** Waits until the board has drawn a newer table message than `v`. */
const newerThan = (page, v) => page.waitForFunction(
  (n) => Number(document.getElementById('board')?.dataset.version ?? 0) > n, v, { timeout: 20000 });

/** The own pieces drawn while deploying, by station. */
const area = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#board g[data-station] .piece')]
  .map((p) => [p.closest('g[data-station]').getAttribute('data-station'), p.getAttribute('data-piece')])));

/** Each card's seat and name, by its place round the board. */
const cards = (page) => page.evaluate(() => Object.fromEntries(['bottom', 'right', 'top', 'left'].map((pos) => {
  const c = document.getElementById(`card-${pos}`);
  return [pos, `${c?.getAttribute('data-seat')}:${c?.querySelector('.sc-name')?.textContent}`];
})));

test('a saved layout loads at deployment, and 再来一局 brings the same seats to a new table', async () => {
  const browser = await launch();
  try {
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) errors.push(m.text()); });
    await register(page, `tm_${suffix()}`);
    const res = await page.request.post(`${BASE}/api/tables`, {
      data: { seconds_per_action: 60, computer: 'easy', options: { alliance: 'none' } },
    });
    assert.equal(res.status(), 201, await res.text());
    const { id } = await res.json();
    await page.goto(`${BASE}/game/${id}`);
    await page.locator('#act-deployed').waitFor({ state: 'visible' });

    // 保存布阵: the arrangement as it stands, under a name. The buttons can show before
    // the board has drawn the dealt layout: wait for its 25 pieces.
    await page.locator('#act-save').waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.querySelectorAll('#board g[data-station] .piece').length === 25,
      null, { timeout: 20000 });
    const arranged = await area(page);
    assert.equal(Object.keys(arranged).length, 25);
    await page.click('#act-save');
    await page.fill('#layout-name', '铁桶阵');
    await page.click('#layout-save-go');
    await page.locator('#layout-save').waitFor({ state: 'hidden' });
    const saved = await (await page.request.get(`${BASE}/api/layouts`)).json();
    assert.deepEqual(saved.map((l) => l.name), ['铁桶阵']);
    // Kept seat-relative: South's squares a1 … e6, whichever seat saved it.
    assert.deepEqual(saved[0].layout, Object.fromEntries(Object.entries(arranged).map(([st, p]) => [st.slice(1), p])));

    // Another arrangement, then the saved one loaded back from the chooser.
    let v = await version(page);
    await page.click('#act-random');
    await newerThan(page, v);
    assert.notDeepEqual(await area(page), arranged, 'a random layout replaced it');
    await page.click('#act-load');
    const pick = page.locator('#layout-list .tp-layout-pick', { hasText: '铁桶阵' });
    await pick.waitFor();
    v = await version(page);
    await pick.click();
    await newerThan(page, v);
    assert.deepEqual(await area(page), arranged, 'the saved layout is back on the own area');
    assert.equal(await page.locator('#layout-chooser').isHidden(), true, 'the chooser closes');
    // 出征 with it: it is legal.
    await page.click('#act-deployed');
    await page.locator('#act-load').waitFor({ state: 'hidden' });
    await page.locator('#status[data-phase="playing"], #status[data-phase="over"]').waitFor({ timeout: 20000 });
    const before = await cards(page);

    // Out at once (托管退出 in 混战); the computers play to the end.
    await page.locator('#act-leave').waitFor({ state: 'visible' });
    await page.click('#act-leave');
    await page.locator('#confirm-sheet').waitFor({ state: 'visible' });
    await page.click('#confirm-ok');
    await page.locator('#result').waitFor({ state: 'visible', timeout: 240000 });
    await page.locator('#rematch-box').waitFor({ state: 'visible' });
    assert.match(await page.locator('#rematch-text').innerText(), /再来一局/);
    assert.equal(await page.locator('#act-decline-rematch').isVisible(), false, 'nothing offered to decline yet');

    // 再来一局: the computers agree, the page moves to the new table.
    await page.click('#act-rematch');
    await page.waitForURL((u) => u.pathname.startsWith('/game/') && !u.pathname.endsWith(id), { timeout: 20000 });
    const next = new URL(page.url()).pathname.split('/').pop();
    assert.notEqual(next, id);
    await page.locator('#status[data-phase="deploying"]').waitFor({ timeout: 20000 });
    await page.locator('#board g[data-station] .piece').first().waitFor();
    assert.deepEqual(await cards(page), before, 'the same seats, the same players');

    // A 360 px phone: the deploy bar stays at the bottom of the screen while the page
    // scrolls, with its buttons in it.
    await page.setViewportSize(PHONE);
    await page.locator('#act-load').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#action-bar').evaluate((b) => getComputedStyle(b).position), 'sticky');
    for (const y of [0, 400, 100000]) {
      await page.evaluate((to) => window.scrollTo(0, to), y);
      const bar = await page.locator('#action-bar').boundingBox();
      assert.ok(bar, 'the bar is drawn');
      assert.ok(bar.y >= 0 && bar.y + bar.height <= PHONE.height + 1, `the bar is on screen at scroll ${y}: ${JSON.stringify(bar)}`);
      for (const b of ['#act-load', '#act-save', '#act-random', '#act-deployed']) {
        const box = await page.locator(b).boundingBox();
        assert.ok(box && box.y >= 0 && box.y + box.height <= PHONE.height + 1, `${b} is on screen at scroll ${y}`);
      }
    }
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= PHONE.width, `no sideways scroll: ${width}`);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
