// Guest play and the 昵称 first, on a 360 px phone: a logged-out visitor presses
// 游客试玩 in the lobby, is a guest at once (游客 and four digits in the header, the
// lobby set to casual), starts a game against the computer and plays a move. On the
// game page both seat cards show the display name whole and wide — the computer's
// 电脑·入门 and the guest's 游客… — with the login name beside it, smaller, cut first.
// Then the guest registers from that browser: a login name in Chinese is refused with
// the hint that it can be the 昵称 (and is put there), and the registration keeps the
// game under the new account, shown by its 昵称.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, PHONE, captureFrames, latestLegal, launch, steps } from './support.mjs';

/** The longest the computer may take over a step before the test gives up. */
const COMPUTER_WAIT = 60000;

/**
 * How a seat card's names are drawn: the display name's and the login name's text,
 * drawn width, whether the display name is cut, and their font sizes.
 * @param {import('playwright-core').Page} page
 * @param {string} card
 */
async function names(page, card) {
  return page.evaluate((sel) => {
    const c = /** @type {HTMLElement} */ (document.querySelector(sel));
    const name = /** @type {HTMLElement} */ (c.querySelector('.pc-name'));
    const login = /** @type {HTMLElement} */ (c.querySelector('.pc-login'));
    // The name's own width, unconstrained, in the same font (whatever fonts the machine
    // has): what the card must leave it.
    const free = document.createElement('span');
    free.style.font = getComputedStyle(name).font;
    free.style.position = 'absolute';
    free.style.whiteSpace = 'nowrap';
    free.textContent = name.textContent;
    document.body.appendChild(free);
    const naturalWidth = free.getBoundingClientRect().width;
    free.remove();
    return {
      naturalWidth,
      name: name.textContent,
      nameWidth: name.getBoundingClientRect().width,
      nameCut: name.scrollWidth > name.clientWidth + 1,
      nameSize: parseFloat(getComputedStyle(name).fontSize),
      login: login.textContent,
      loginShown: !login.hidden,
      loginCut: login.scrollWidth > login.clientWidth + 1,
      loginSize: parseFloat(getComputedStyle(login).fontSize),
      nameLeft: name.getBoundingClientRect().left,
      loginLeft: login.getBoundingClientRect().left,
    };
  }, card);
}

/** @param {Awaited<ReturnType<typeof names>>} n @param {string} what */
function assertNameFirst(n, what) {
  assert.ok(n.nameWidth > 0, `${what}: the display name is drawn (${JSON.stringify(n)})`);
  assert.ok(!n.nameCut && n.nameWidth >= n.naturalWidth - 0.5,
    `${what}: the display name is whole (${JSON.stringify(n)})`);
  assert.ok(n.loginShown, `${what}: the login name is beside it`);
  assert.ok(n.loginLeft > n.nameLeft, `${what}: the display name comes first`);
  assert.ok(n.loginSize < n.nameSize, `${what}: the login name is smaller`);
}

test('a visitor plays the computer as a guest, then registers and keeps the game', async () => {
  assert.ok(BASE, 'JUNQI_URL names the server under test');
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => d.accept());
    const frames = captureFrames(page);

    await page.goto(`${BASE}/`);
    await page.getByRole('button', { name: '游客试玩' }).click();
    const account = page.locator('#account-name');
    await account.waitFor();
    const shown = (await account.locator('.display-name').innerText()).trim();
    assert.match(shown, /^游客\d{4}$/, 'the header names the guest by display name');
    const login = await account.getAttribute('data-username');
    assert.match(login || '', /^guest-\d{8}$/);
    await page.locator('#guest-note').waitFor();
    assert.equal(await page.locator('#create-form input[name="rated"][value="false"]').isChecked(), true,
      'a guest starts on casual');
    assert.ok((await page.locator('#quick-summary').innerText()).includes(`你好，${shown}！`),
      'the lobby greets the guest by display name');

    const card = page.getByRole('region', { name: '人机对战' });
    await card.getByRole('group', { name: '难度' }).getByRole('radio', { name: '入门' }).check();
    await card.getByRole('group', { name: '玩法' }).getByRole('radio', { name: '翻翻棋' }).check();
    await card.getByRole('button', { name: '开始人机对战' }).click();
    await page.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
    const id = page.url().split('/').pop();

    // The guest's turn (the computer may move first), then one flip or move.
    await page.waitForFunction(() => (document.getElementById('status')?.textContent ?? '').includes('轮到你')
      && document.querySelectorAll('#board g.is-actionable').length > 0, null, { timeout: COMPUTER_WAIT, polling: 50 });
    const before = await steps(page);
    const pick = latestLegal(frames).find((a) => a.flip || a.move);
    assert.ok(pick, 'something to play');
    if (pick.flip) {
      await page.locator(`#board g[data-square="${pick.flip}"]`).click();
    } else {
      await page.locator(`#board g[data-square="${pick.move.from}"]`).click();
      await page.locator(`#board g[data-square="${pick.move.to}"].is-dest`).click();
    }
    await page.waitForFunction((b) => Number.parseInt(document.querySelector('#steps')?.textContent ?? '0', 10) > b,
      before, { timeout: 15000, polling: 50 });

    const computer = await names(page, '#player-top');
    assert.equal(computer.name, '电脑·入门');
    assert.equal(computer.login, 'computer-easy');
    assertNameFirst(computer, 'the computer');
    const mine = await names(page, '#player-bottom');
    assert.equal(mine.name, shown);
    assert.equal(mine.login, login);
    assertNameFirst(mine, 'the guest');

    // Registering from this browser: a Chinese login name is refused, pointing to 昵称.
    await page.goto(`${BASE}/register`);
    await page.locator('#guest-note').waitFor();
    await page.fill('#username', '小明');
    await page.fill('#password', 'correct horse battery');
    await page.click('#submit');
    const error = page.locator('#auth-error');
    await error.waitFor();
    assert.ok((await error.innerText()).includes('昵称'), 'the error says it can be the 昵称');
    assert.equal(await page.inputValue('#display_name'), '小明', 'and puts it there');
    const name = `kept${Date.now() % 1000000}`;
    await page.fill('#username', name);
    await page.click('#submit');
    await page.waitForURL(`${BASE}/`);
    await page.locator('#account-name .display-name', { hasText: '小明' }).waitFor();
    assert.equal(await page.locator('#account-name').getAttribute('data-username'), name);
    assert.equal(await page.locator('#account-name').getAttribute('data-kind'), 'person');
    assert.equal(await page.locator('#guest-play').count(), 0);
    assert.equal(await page.locator('#guest-note').count(), 0, 'no longer a guest');
    const me = await (await page.request.get(`${BASE}/api/me`)).json();
    assert.equal(me.display_name, '小明');
    // The game is the new account's: its seat is still theirs.
    await page.goto(`${BASE}/game/${id}`);
    await page.locator('#player-bottom .pc-you').waitFor();
    assert.deepEqual(errors, [], 'no script errors');
  } finally {
    await browser.close();
  }
});

test('a seat card keeps a long login name from pushing the display name away', async () => {
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    // A registered player with the longest login name and a 昵称, against the computer.
    const login = `l${Date.now()}`.padEnd(20, 'x').slice(0, 20);
    const res = await page.request.post(`${BASE}/api/register`, {
      data: { username: login, password: 'correct horse battery', display_name: '翻棋老手' },
    });
    assert.equal(res.status(), 201, await res.text());
    const made = await page.request.post(`${BASE}/api/games`, {
      data: { variant: 'flip', seconds_per_action: 30, rated: false, computer: 'easy' },
    });
    assert.equal(made.status(), 201, await made.text());
    const { id } = await made.json();
    await page.goto(`${BASE}/game/${id}`);
    await page.locator('#player-bottom .pc-name', { hasText: '翻棋老手' }).waitFor();
    // Narrower than name and login name together, as the card was on the phones of the
    // players who found it (their CJK fonts draw wider than this machine's may).
    await page.evaluate(() => {
      const card = /** @type {HTMLElement} */ (document.getElementById('player-bottom'));
      const main = /** @type {HTMLElement} */ (card.querySelector('.pc-main'));
      const name = /** @type {HTMLElement} */ (card.querySelector('.pc-name'));
      const login = /** @type {HTMLElement} */ (card.querySelector('.pc-login'));
      const room = name.scrollWidth + login.scrollWidth / 2 + 100;
      card.style.width = `${Math.round(room + (card.offsetWidth - main.offsetWidth))}px`;
    });
    const mine = await names(page, '#player-bottom');
    assert.equal(mine.name, '翻棋老手');
    assert.equal(mine.login, login);
    assertNameFirst(mine, 'a long login name');
    assert.ok(mine.loginCut, `the login name gives way, cut: ${JSON.stringify(mine)}`);
  } finally {
    await browser.close();
  }
});
