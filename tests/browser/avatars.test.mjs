// Avatars (角色秀) in Chromium on a phone: a player picks a figure on their profile
// with the picker (a plain form), and sees it, drawn, on the profile, in the lobby row
// of a game they open (as another player sees that row too), on their seat card in a
// game against the computer (whose card shows its level's own figure), and on the
// ladder; every figure is a real image (naturalWidth > 0), the seat cards still show
// the whole names at 360 px, and no Content-Security-Policy violation is reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, PHONE, launch, register } from './support.mjs';

/** Records every CSP violation and script error a page reports. */
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

/**
 * The figure an image shows, once it has loaded: its name and drawn width.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 */
async function drawn(page, selector) {
  await page.waitForFunction((sel) => {
    const img = /** @type {HTMLImageElement|null} */ (document.querySelector(sel));
    return !!img && !img.hidden && img.complete && img.naturalWidth > 0;
  }, selector);
  return page.evaluate((sel) => {
    const img = /** @type {HTMLImageElement} */ (document.querySelector(sel));
    const box = img.getBoundingClientRect();
    return {
      name: img.dataset.avatar || '',
      src: img.getAttribute('src') || '',
      alt: img.alt,
      naturalWidth: img.naturalWidth,
      width: box.width,
    };
  }, selector);
}

/** Whether a seat card shows its whole name (nothing cut by an ellipsis). */
function wholeName(page, card) {
  return page.evaluate((sel) => {
    const name = /** @type {HTMLElement} */ (document.querySelector(`${sel} .pc-name`));
    return { text: name.textContent, cut: name.scrollWidth > name.clientWidth + 1 };
  }, card);
}

test('a player picks a figure on the profile and sees it in the lobby, at the table and on the ladder', async () => {
  assert.ok(BASE, 'JUNQI_URL names the server under test');
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const seen = watch(page);
    const me = 'av_' + Date.now().toString(36).slice(-6);
    await register(page, me);

    // The profile shows a default figure before any pick.
    await page.goto(`${BASE}/@/${me}`);
    const before = await drawn(page, '#profile-avatar');
    assert.ok(before.naturalWidth > 0 && before.name, `a default figure is drawn: ${JSON.stringify(before)}`);
    assert.ok(before.alt.length > 0, 'the profile figure is named for screen readers');
    const pick = before.name === 'medic' ? 'pilot' : 'medic';

    // The picker: a figure's label checks its radio; the form posts and comes back.
    await page.locator('#avatar-picker-open').click();
    const choice = page.locator(`.avatar-choice[data-avatar="${pick}"]`);
    await choice.waitFor();
    const choices = await page.locator('.avatar-choice img').count();
    assert.equal(choices, 12, 'the picker offers the whole set');
    const unloaded = await page.evaluate(() => [...document.querySelectorAll('.avatar-choice img')]
      .filter((i) => !(/** @type {HTMLImageElement} */ (i).complete && /** @type {HTMLImageElement} */ (i).naturalWidth > 0)).length);
    assert.equal(unloaded, 0, 'every figure of the picker is drawn');
    await choice.click();
    assert.equal(await choice.locator('input').isChecked(), true);
    await Promise.all([page.waitForNavigation(), page.locator('#avatar-save').click()]);
    assert.equal(new URL(page.url()).pathname, `/@/${me}`);
    const after = await drawn(page, '#profile-avatar');
    assert.equal(after.name, pick, 'the profile shows the pick');
    assert.match(after.src, new RegExp(`^/static/avatars/${pick}\\.[0-9a-f]{8}\\.svg$`));
    assert.ok(after.width >= 40, `the profile figure reads at its size (${after.width} px)`);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= PHONE.width, `the profile with its picker fits 360 px (${wide})`);

    // In English the picker and the figure's name are English.
    await page.goto(`${BASE}/@/${me}?lang=en`);
    assert.equal((await page.locator('#avatar-picker-open').innerText()).trim(), 'Change figure');
    assert.equal((await drawn(page, '#profile-avatar')).alt, pick === 'medic' ? 'Medic' : 'Pilot');
    await page.goto(`${BASE}/@/${me}?lang=zh`);

    // The lobby row of a game the player opens, on their page and on another's.
    const res = await page.request.post(`${BASE}/api/games`, { data: { variant: 'flip', seconds_per_action: 30, rated: false } });
    assert.equal(res.status(), 201, await res.text());
    const { id } = await res.json();
    const other = await (await browser.newContext({ viewport: PHONE })).newPage();
    const seenOther = watch(other);
    await register(other, me + 'x');
    for (const p of [page, other]) {
      await p.goto(`${BASE}/`);
      const row = await drawn(p, `#open-games li[data-game-id="${id}"] .og-avatar`);
      assert.equal(row.name, pick, 'the lobby row shows the creator\'s figure');
      assert.equal(row.alt, '', 'the row\'s figure is decorative: the name is beside it');
    }
    const cancelled = await page.request.post(`${BASE}/api/games/${id}/cancel`);
    assert.ok(cancelled.ok(), await cancelled.text());

    // At the table against the computer: the player's card shows the pick, the
    // computer's its level's figure, and both names stay whole at 360 px.
    await page.goto(`${BASE}/`);
    const card = page.getByRole('region', { name: '人机对战' });
    await card.getByRole('group', { name: '难度' }).getByRole('radio', { name: '入门' }).check();
    await card.getByRole('button', { name: '开始人机对战' }).click();
    await page.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
    await page.locator('#player-top .pc-name', { hasText: '电脑·入门' }).waitFor();
    const mine = await drawn(page, '#player-bottom .pc-avatar');
    assert.equal(mine.name, pick, 'the seat card shows the pick');
    const its = await drawn(page, '#player-top .pc-avatar');
    assert.equal(its.name, 'computer-easy', 'the computer shows its level\'s figure');
    for (const c of ['#player-top', '#player-bottom']) {
      const n = await wholeName(page, c);
      assert.equal(n.cut, false, `${c} shows the whole name ${JSON.stringify(n.text)}`);
    }
    const tableWide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(tableWide <= PHONE.width, `the table fits 360 px (${tableWide})`);

    // On the ladder, found by name.
    await page.goto(`${BASE}/ladder?q=${me}`);
    const onLadder = await drawn(page, `.ladder-row[data-username="${me}"] .avatar-row`);
    assert.equal(onLadder.name, pick, 'the ladder shows the figure beside the name');

    assert.deepEqual(seen, [], 'no CSP violation or script error for the player');
    assert.deepEqual(seenOther, [], 'no CSP violation or script error for the other player');
  } finally {
    await browser.close();
  }
});
