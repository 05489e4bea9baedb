// Where people find each other, in Chromium (issue 20): Alice at a desktop follows Bob
// from his profile and finds him online on /friends; she challenges him from there; Bob,
// on a 360 px phone in the lobby, sees the challenge in the page and in the tab's title,
// declines (Alice is told), then accepts the next one, and both pages go to the game.
// Then Bob blocks Alice from her profile, and her next challenge is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, DESKTOP, PHONE, launch, register } from './support.mjs';

const suffix = () => Date.now().toString(36).slice(-5) + Math.floor(Math.random() * 100);

test('follow, challenge (declined, then accepted into a game) and block', async () => {
  const browser = await launch();
  try {
    const a = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    const b = await (await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true })).newPage();
    const errors = [];
    for (const p of [a, b]) p.on('pageerror', (e) => errors.push(e.message));
    const alice = `sa${suffix()}`;
    const bob = `sb${suffix()}`;
    await register(a, alice);
    await register(b, bob);
    // Bob waits in the lobby (registering left him there).
    const lobbyTitle = await b.title();

    // Alice follows Bob from his profile; the button turns into 已关注.
    await a.goto(`${BASE}/@/${bob}`);
    await a.click('#follow');
    await a.locator('#unfollow').waitFor();
    // On her friends page Bob is online, with a 挑战 button.
    await a.goto(`${BASE}/friends`);
    const row = a.locator(`#friend-list li[data-name="${bob}"]`);
    await row.waitFor();
    assert.equal(await row.locator('.friend-state').getAttribute('data-state'), 'online');

    // A challenge from the friends list: the button fills the form's name.
    await row.locator('.friend-challenge').click();
    assert.equal(await a.inputValue('#challenge-to'), bob);
    await a.click('#challenge-send');
    await a.locator('#challenge-sent').waitFor();

    // Bob sees it in the lobby and in the tab's title.
    const card = b.locator('#challenges-in li.challenge');
    await card.waitFor();
    assert.match(await card.textContent(), new RegExp(alice));
    await b.waitForFunction((t) => document.title.startsWith('(1) 挑战 · ') && document.title.endsWith(t), lobbyTitle);
    const fits = await b.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(fits <= PHONE.width, `the lobby with a challenge fits 360 px (${fits})`);
    // Declined: Alice is told, Bob's title is back.
    await card.locator('.challenge-decline').tap();
    await a.locator('#toast', { hasText: '拒绝了挑战' }).waitFor();
    await b.waitForFunction((t) => document.title === t, lobbyTitle);
    await b.locator('#challenges-in li.challenge').waitFor({ state: 'detached' });

    // Again, accepted: both go to the same game, seated.
    await a.click('#challenge-send');
    await b.locator('#challenges-in li.challenge').waitFor();
    await Promise.all([
      b.waitForURL(/\/game\/[A-Za-z0-9]+$/),
      b.locator('#challenges-in .challenge-accept').tap(),
    ]);
    await a.waitForURL(/\/game\/[A-Za-z0-9]+$/);
    assert.equal(new URL(a.url()).pathname, new URL(b.url()).pathname, 'one game for both');
    const id = new URL(a.url()).pathname.split('/').pop();
    const summary = await (await a.request.get(`${BASE}/api/games/${id}`)).json();
    const seated = [summary.players.south.username, summary.players.north.username].sort();
    assert.deepEqual(seated, [alice, bob].sort());

    // Bob blocks Alice from her profile; her next challenge is refused in the form.
    await b.goto(`${BASE}/@/${alice}`);
    await b.locator('#block').tap();
    await b.locator('#unblock').waitFor();
    await a.goto(`${BASE}/@/${bob}`);
    await a.click('#challenge-send');
    const refused = a.locator('#challenge-error');
    await refused.waitFor();
    assert.equal((await refused.textContent()).trim(), '对方不接受你的挑战');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('the profile record (战绩) with win rates fits a 360 px phone', async () => {
  const browser = await launch();
  try {
    const page = await (await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true })).newPage();
    const name = `sr${suffix()}`;
    await register(page, name);
    for (const lang of ['zh', 'en']) {
      await page.goto(`${BASE}/@/${name}?lang=${lang}`);
      const rows = page.locator('#record-table tbody tr');
      assert.equal(await rows.count(), 7, 'flip and standard, each vs people, vs computer, all; 四国 in all');
      // No games yet: a dash, not 0% or NaN.
      const rates = await page.locator('#record-table td[data-outcome="rate"]').allTextContents();
      assert.deepEqual(rates.map((r) => r.trim()), Array(7).fill('—'));
      const head = await page.locator('#record-table thead').textContent();
      assert.ok(head.includes(lang === 'zh' ? '胜率' : 'Win rate'), head);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= PHONE.width, `the profile fits 360 px (${wide}, ${lang})`);
      await page.locator('#vs-computer td[data-outcome="rate"]').first().waitFor({ state: 'attached' });
    }
  } finally {
    await browser.close();
  }
});
