// Where people find a game and each other (issue 20): a visitor is told what the site
// is; a player sees the two quick ways to start and the open and live games before the
// settings, on a phone as on a desktop; a player who left a running game finds the way
// back from any page; the menu marks the page one is on; live games can be watched
// from the lobby, and the players see how many watch; the creator of an open game hears
// and sees that someone joined.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, DESKTOP, PHONE, launch, register, startGame } from './support.mjs';

const suffix = () => Date.now().toString(36).slice(-5) + Math.floor(Math.random() * 100);

/** The top of an element on the page (not the viewport), in CSS px. */
async function top(page, selector) {
  return page.locator(selector).evaluate((e) => e.getBoundingClientRect().top + window.scrollY);
}

test('a visitor is told what the site is, and the games come before the forms', async () => {
  const browser = await launch();
  try {
    const page = await (await browser.newContext({ viewport: PHONE })).newPage();
    await page.goto(`${BASE}/`);
    const welcome = page.locator('#welcome');
    await welcome.waitFor();
    assert.match(await welcome.innerText(), /军棋翻翻棋/);
    assert.ok(await page.locator('#guest-play').isVisible(), 'guest play is offered at once');
    assert.ok((await welcome.boundingBox()).y < 120, 'the welcome is the first thing on the page');
    assert.ok(await top(page, '#open-card') > await top(page, '#welcome'));
    assert.ok(await top(page, '#live-card') > await top(page, '#open-card'));
    assert.equal(await page.locator('#create-card').count(), 0, 'no form a visitor cannot use');
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= PHONE.width, `the lobby fits 360 px (${wide})`);
  } finally {
    await browser.close();
  }
});

for (const [label, viewport] of [['1280×800', DESKTOP], ['360×740', PHONE]]) {
  test(`a player starts from the top and sees the open games before the settings (${label})`, async () => {
    const browser = await launch();
    try {
      const page = await (await browser.newContext({ viewport })).newPage();
      await register(page, `lob${suffix()}`);
      for (const id of ['#quick-top', '#computer-top']) {
        const box = await page.locator(id).boundingBox();
        assert.ok(box && box.y + box.height <= viewport.height, `${id} is in the first screen: ${JSON.stringify(box)}`);
      }
      const open = await top(page, '#open-card');
      if (viewport === PHONE) {
        assert.ok(open < await top(page, '#create-card'), 'open games above the settings');
        assert.ok(await top(page, '#live-card') < await top(page, '#create-card'), 'live games above the settings');
        assert.ok(open < PHONE.height, `the open games start in the first screen (${open})`);
      } else {
        assert.ok(open < 200, `the open games are at the top of their column (${open})`);
      }
      // 人机对战 from the top: straight into a game against the computer.
      await page.click('#computer-top');
      await page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
      await page.locator('#board .piece').first().waitFor();
      assert.equal(await page.locator('#back-banner').count(), 0, 'no banner on the game\'s own page');
    } finally {
      await browser.close();
    }
  });
}

test('the way back to a running game is on every page, and the menu marks where one is', async () => {
  const browser = await launch();
  try {
    const page = await (await browser.newContext({ viewport: PHONE })).newPage();
    await register(page, `back${suffix()}`);
    await page.click('#computer-top');
    await page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
    const gamePath = new URL(page.url()).pathname;
    await page.goto(`${BASE}/rules`);
    const banner = page.locator('#back-banner');
    await banner.waitFor();
    assert.match(await banner.innerText(), /你有一局正在进行/);
    assert.ok((await banner.boundingBox()).y < 200, 'the banner is at the top of the page');
    // The phone's folded menu marks 规则.
    await page.click('#nav-toggle');
    const current = page.locator('#main-nav a[aria-current="page"]');
    assert.equal(await current.count(), 1);
    assert.equal(await current.innerText(), '规则');
    await page.goto(`${BASE}/ladder`);
    assert.equal(await page.locator('#main-nav a[aria-current="page"]').getAttribute('href'), '/ladder');
    await Promise.all([page.waitForURL(`${BASE}${gamePath}`), page.click('#back-to-game')]);
    await page.locator('#board .piece').first().waitFor();
  } finally {
    await browser.close();
  }
});

test('a live game is listed to watch, and its players see how many watch', async () => {
  const browser = await launch();
  try {
    const ca = await browser.newContext({ viewport: DESKTOP });
    const cb = await browser.newContext({ viewport: DESKTOP });
    const pa = await ca.newPage();
    const pb = await cb.newPage();
    const a = `wa${suffix()}`;
    const b = `wb${suffix()}`;
    await register(pa, a);
    await register(pb, b);
    const id = await startGame(pa, pb, { variant: 'flip', seconds_per_action: 30, rated: true });
    await pa.goto(`${BASE}/game/${id}`);
    await pa.locator('#board .piece').first().waitFor();
    assert.equal(await pa.locator('#watchers').isVisible(), false, 'nobody watches yet');

    // A visitor without an account finds it in the lobby's 观战 list.
    const watcher = await (await browser.newContext({ viewport: PHONE })).newPage();
    await watcher.goto(`${BASE}/`);
    const row = watcher.locator(`#live-games li[data-game-id="${id}"]`);
    await row.waitFor({ timeout: 20000 });
    const text = await row.innerText();
    assert.ok(text.includes(a) && text.includes(b), `the row names both players: ${text}`);
    assert.match(text, /积分赛/);
    await Promise.all([watcher.waitForURL(`${BASE}/game/${id}`), row.locator('a').click()]);
    await watcher.locator('#board .piece').first().waitFor();
    await pa.locator('#watchers[data-watchers="1"]').waitFor();
    assert.equal(await pa.locator('#watchers').innerText(), '👁 1');
    // The count reaches the lobby too.
    const lobby = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    await lobby.goto(`${BASE}/`);
    await lobby.locator(`#live-games li[data-game-id="${id}"] .lg-watch[data-watchers="1"]`).waitFor({ timeout: 20000 });
    await watcher.close();
    await pa.locator('#watchers[data-watchers="0"]').waitFor({ state: 'attached' });
    assert.equal(await pa.locator('#watchers').isVisible(), false, 'the watcher left');
  } finally {
    await browser.close();
  }
});

test('the creator hears a chime and reads 对手已加入 when someone joins', async () => {
  const browser = await launch();
  try {
    const ca = await browser.newContext({ viewport: DESKTOP });
    const cb = await browser.newContext({ viewport: DESKTOP });
    // Every tone the page starts, by its first frequency.
    await ca.addInitScript(() => {
      const tones = [];
      Object.assign(window, { __tones: tones });
      const make = AudioContext.prototype.createOscillator;
      AudioContext.prototype.createOscillator = function () {
        const o = make.call(this);
        const set = o.frequency.setValueAtTime.bind(o.frequency);
        o.frequency.setValueAtTime = (v, at) => { tones.push(v); return set(v, at); };
        return o;
      };
    });
    const pa = await ca.newPage();
    const pb = await cb.newPage();
    await register(pa, `ja${suffix()}`);
    await register(pb, `jb${suffix()}`);
    const res = await pa.request.post(`${BASE}/api/games`, { data: { variant: 'flip', seconds_per_action: 30, rated: false } });
    const { id } = await res.json();
    await pa.goto(`${BASE}/game/${id}`);
    await pa.locator('#wait-panel').waitFor();
    // A touch of the page allows sound (the browsers' autoplay rule).
    await pa.locator('#status').click();
    const join = await pb.request.post(`${BASE}/api/games/${id}/join`);
    assert.equal(join.status(), 200);
    await pa.locator('#toast', { hasText: '对手已加入' }).waitFor();
    await pa.waitForFunction(() => document.title.startsWith('★ 对手已加入'));
    await pa.waitForFunction(() => window.__tones.includes(523) && window.__tones.includes(784));
  } finally {
    await browser.close();
  }
});
