// The site's header and server-rendered pages in Chromium: on a 360 px phone every
// link of the header is reachable through the menu button and none is cut off, the
// language switch is in view; at 1280 px the English ladder's tables fit their cards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const BASE = process.env.JUNQI_URL;
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

function launch() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    headless: true,
  });
}

/** Registers a player from inside the page's context, so its cookie is the context's. */
async function registerIn(page, name) {
  await page.goto(`${BASE}/login`);
  const status = await page.evaluate(async (username) => {
    const res = await fetch('/api/register', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username, password: 'correct horse battery' }),
    });
    return res.status;
  }, name);
  assert.equal(status, 201, `register ${name}`);
}

/** Where an element is, and whether its own text is cut (ellipsis, clipping). */
function geometry(page, selector) {
  return page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return {
      left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width,
      cut: el.scrollWidth > el.clientWidth + 1,
      text: el.textContent.trim(),
    };
  });
}

function assertInView(g, what, width) {
  assert.ok(g.width > 0, `${what} is shown`);
  assert.ok(g.left >= 0 && g.right <= width + 0.5, `${what} is inside the ${width} px screen (${g.left}–${g.right})`);
  assert.ok(!g.cut, `${what} ("${g.text}") is not cut off`);
}

test('the phone header: a menu reaches every link, nothing cut off', async () => {
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const name = `menu${Date.now() % 1e8}`;
    for (const loggedIn of [false, true]) {
      if (loggedIn) await registerIn(page, name);
      for (const lang of ['en', 'zh']) {
        for (const path of ['/', '/games', '/ladder', '/rules', '/login']) {
          await page.goto(`${BASE}${path}?lang=${lang}`);
          const where = `${path} (${lang}${loggedIn ? ', logged in' : ''})`;
          const wide = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(wide <= PHONE.width, `${where}: the page fits 360 px (${wide})`);

          // In the bar itself: the menu button, the language switch, the account.
          assertInView(await geometry(page, '#nav-toggle'), `${where}: the menu button`, PHONE.width);
          assertInView(await geometry(page, '#lang-switch'), `${where}: the language switch`, PHONE.width);
          for (const sel of loggedIn ? ['#account-name', '#logout'] : ['#login-link', '#register-link']) {
            assertInView(await geometry(page, sel), `${where}: ${sel}`, PHONE.width);
          }
          const folded = await page.locator('#main-nav a').first().isVisible();
          assert.equal(folded, false, `${where}: the links wait behind the menu button`);

          // Opened: every link shown whole, inside the screen.
          await page.tap('#nav-toggle');
          const links = page.locator('#main-nav a');
          const count = await links.count();
          assert.equal(count, loggedIn ? 7 : 4, `${where}: the menu's links`);
          for (let i = 0; i < count; i++) {
            const link = links.nth(i);
            await link.waitFor({ state: 'visible' });
            const g = await link.evaluate((el) => {
              const r = el.getBoundingClientRect();
              return { left: r.left, right: r.right, width: r.width, top: r.top, bottom: r.bottom,
                cut: el.scrollWidth > el.clientWidth + 1, text: el.textContent.trim() };
            });
            assertInView(g, `${where}: menu link "${g.text}"`, PHONE.width);
            assert.ok(g.bottom <= PHONE.height, `${where}: "${g.text}" is above the fold`);
            assert.ok(g.bottom - g.top >= 32, `${where}: "${g.text}" is a finger's height`);
          }
          if (loggedIn) assert.ok(await page.locator('#friends-link').isVisible(), `${where}: 好友 in the menu`);
          if (loggedIn) assert.ok(await page.locator('#layouts-link').isVisible());
          if (loggedIn) assert.ok(await page.locator('#bot-link').isVisible());
        }
      }
      // A link of the menu takes you there.
      await page.goto(`${BASE}/?lang=en`);
      await page.tap('#nav-toggle');
      await Promise.all([page.waitForURL(/\/ladder$/), page.tap('#main-nav a[href="/ladder"]')]);
      // The language switch works from the bar.
      await Promise.all([page.waitForURL(/[?&]lang=zh/), page.tap('#lang-switch')]);
      assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
    }
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('at 1280 px the header shows its links and the English ladder fits its cards', async () => {
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    // A player with a long name and a display name, so the players' table has a row.
    await registerIn(page, `wide_${Date.now() % 1e8}_xx`.slice(0, 20));
    const set = await page.evaluate(async () => (await fetch('/api/me', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ display_name: 'Wide Name 12' }),
    })).status);
    assert.equal(set, 200);

    for (const variant of ['flip', 'standard']) {
      await page.goto(`${BASE}/ladder?lang=en&variant=${variant}`);
      assert.equal(await page.locator('#nav-toggle').isVisible(), false, 'no menu button on a wide screen');
      for (const href of ['/', '/games', '/ladder', '/rules', '/layouts']) {
        assert.ok(await page.locator(`#main-nav a[href="${href}"]`).isVisible(), `${href} in the bar`);
      }
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= DESKTOP.width, `the page fits 1280 px (${wide})`);
      const fits = await page.evaluate(() => [['#ladder', '.ladder-card'], ['#rank-counts', '.ranks-card']]
        .map(([table, card]) => {
          const t = document.querySelector(table);
          const c = document.querySelector(card);
          const cr = c.getBoundingClientRect();
          const cells = [...t.querySelectorAll('th, td')].map((el) => el.getBoundingClientRect().right);
          const scroller = t.closest('.table-scroll');
          return {
            table, card,
            tableRight: t.getBoundingClientRect().right,
            cellRight: Math.max(...cells),
            cardRight: cr.right - parseFloat(getComputedStyle(c).paddingRight) + 1,
            scrolls: scroller ? scroller.scrollWidth > scroller.clientWidth + 1 : false,
          };
        }));
      for (const f of fits) {
        assert.ok(f.tableRight <= f.cardRight, `${variant}: ${f.table} ends inside ${f.card} (${f.tableRight} > ${f.cardRight})`);
        assert.ok(f.cellRight <= f.cardRight, `${variant}: every column of ${f.table} is inside ${f.card} (${f.cellRight} > ${f.cardRight})`);
        assert.ok(!f.scrolls, `${variant}: ${f.table} needs no sideways scrolling`);
      }
      const players = await page.locator('#rank-counts th').last().innerText();
      assert.equal(players.trim(), 'Players');
    }
  } finally {
    await browser.close();
  }
});
