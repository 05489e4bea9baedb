// What players found when they tried the site (issue 9), each checked in Chromium where a
// browser can see it: an earlier game of a rematch series stays put, the base (底分)
// shows along the series, the counter strip stays in view on a phone, a disconnected
// opponent's countdown, the colour moment and the tinted half, the tab title, phrases,
// the remembered mute switch, and the desktop board sized by the window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, DESKTOP, PHONE, launch, register, startGame, whoseTurn } from './support.mjs';

const suffix = () => Date.now().toString(36).slice(-5) + Math.floor(Math.random() * 100);

async function pair(browser, prefix, phoneB = true) {
  const ca = await browser.newContext({ viewport: DESKTOP });
  const cb = await browser.newContext(phoneB ? { viewport: PHONE, hasTouch: true, isMobile: true } : { viewport: DESKTOP });
  const pa = await ca.newPage();
  const pb = await cb.newPage();
  const errors = [];
  for (const p of [pa, pb]) p.on('pageerror', (e) => errors.push(e.message));
  const s = suffix();
  await register(pa, `${prefix}a_${s}`);
  await register(pb, `${prefix}b_${s}`);
  return { ca, cb, pa, pb, errors, a: `${prefix}a_${s}`, b: `${prefix}b_${s}` };
}

/** The page's element box, or null when it is not drawn. */
const box = (page, sel) => page.locator(sel).boundingBox();

test('a rematch is followed only while the page is open; an earlier game of the series stays put', async () => {
  const browser = await launch();
  try {
    const { pa, pb, errors } = await pair(browser, 'rm');
    // A one-second casual game that ends by timeouts when nobody moves.
    const first = await startGame(pa, pb, { variant: 'flip', seconds_per_action: 1, rated: false });
    await pa.goto(`${BASE}/game/${first}`);
    await pb.goto(`${BASE}/game/${first}`);
    for (const p of [pa, pb]) await p.locator('#result').waitFor({ state: 'visible', timeout: 20000 });
    assert.match(await pa.locator('#result-reason').innerText(), /超时/);
    // Both ask for a rematch with the pages open: both follow to the new game.
    await pa.click('#rematch');
    await pb.click('#rematch');
    for (const p of [pa, pb]) await p.waitForURL((u) => !u.pathname.endsWith(first), { timeout: 10000 });
    const second = pa.url().split('/').pop();
    assert.notEqual(second, first);
    assert.equal(pb.url().split('/').pop(), second);
    // The base (底分) grows along the series and is shown while playing.
    const summary = await (await pa.request.get(`${BASE}/api/games/${second}`)).json();
    assert.equal(summary.base, 2);
    await pa.locator('#strip-base', { hasText: '底分 2' }).waitFor({ timeout: 10000 });
    // Opening the first game again, as one of its players, shows that game.
    await pb.goto(`${BASE}/game/${first}`);
    await pb.locator('#result').waitFor({ state: 'visible' });
    await pb.waitForTimeout(1500);
    assert.equal(pb.url().split('/').pop().split('#')[0], first, 'the earlier game stays open');
    assert.equal(await pb.locator('#next-game').getAttribute('href'), `/game/${second}`);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('on a phone the counter strip stays in view, and the colour moment says which side you play', async () => {
  const browser = await launch();
  try {
    const { pa, pb, errors } = await pair(browser, 'cs');
    const id = await startGame(pa, pb, { variant: 'flip', seconds_per_action: 60, rated: false });
    await pa.goto(`${BASE}/game/${id}`);
    await pb.goto(`${BASE}/game/${id}`);
    const pages = [pa, pb];
    // Flip until the colours are decided; each player sees the moment on their page.
    const moments = new Map();
    for (const p of pages) {
      await p.evaluate(() => {
        window.__moment = null;
        new MutationObserver(() => {
          const m = document.querySelector('#colour-moment');
          if (m && !m.hidden && m.textContent) window.__moment = m.textContent;
        }).observe(document.querySelector('#colour-moment'), { attributes: true, childList: true });
      });
    }
    for (let i = 0; i < 12; i++) {
      const page = await whoseTurn(pages);
      const n = await page.locator('#board .piece[data-face="up"]').count();
      await page.locator('#board g.is-actionable:has(.piece[data-face="down"])').first().click();
      await page.waitForFunction((k) => document.querySelectorAll('#board .piece[data-face="up"]').length > k, n);
      const svg = await pa.locator('#board').getAttribute('data-own');
      if (svg) break;
    }
    for (const p of pages) {
      await p.waitForFunction(() => window.__moment, null, { timeout: 5000 });
      moments.set(p, await p.evaluate(() => window.__moment));
      const own = await p.locator('#board').getAttribute('data-own');
      const colourWord = own === 'red' ? '红方' : '蓝方';
      assert.equal(moments.get(p), `你执${colourWord}`, 'the moment names the side this player plays');
    }
    assert.notEqual(await pa.locator('#board').getAttribute('data-own'), await pb.locator('#board').getAttribute('data-own'));
    // Bob's phone: scrolled to the very bottom, the strip still shows the counts.
    await pb.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await pb.waitForTimeout(200);
    const strip = await box(pb, '#strip');
    assert.ok(strip && strip.y >= 0 && strip.y + strip.height <= PHONE.height, `the strip is in view (${JSON.stringify(strip)})`);
    assert.match(await pb.locator('#strip').innerText(), /步数 \d+/);
    assert.match(await pb.locator('#strip').innerText(), /未吃子 \d+/);
    assert.ok((await pb.locator('#strip').evaluate((e) => e.scrollHeight)) <= 40, 'the strip is one line');
    // The tab title says whose turn it is.
    const turn = await whoseTurn(pages);
    assert.match(await turn.title(), /轮到你/);
    assert.doesNotMatch(await (turn === pa ? pb : pa).title(), /轮到你/);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('an opponent who drops sees a countdown to the escape ruling on the other page', async () => {
  const browser = await launch();
  try {
    const { pa, pb, errors } = await pair(browser, 'dc');
    const id = await startGame(pa, pb, { variant: 'flip', seconds_per_action: 60, rated: false });
    await pa.goto(`${BASE}/game/${id}`);
    await pb.goto(`${BASE}/game/${id}`);
    await whoseTurn([pa, pb]);
    await pb.goto('about:blank');
    const banner = pa.locator('#presence-banner');
    await banner.waitFor({ state: 'visible', timeout: 10000 });
    const secs = async () => Number(/(\d+) 秒后判逃跑/.exec(await banner.innerText())[1]);
    assert.match(await banner.innerText(), /^对手已掉线，\d+ 秒后判逃跑$/);
    const s1 = await secs();
    await pa.waitForTimeout(2200);
    const s2 = await secs();
    assert.ok(s2 < s1 && s1 <= 60, `the countdown runs (${s1} → ${s2})`);
    // Back again: the banner goes.
    await pb.goto(`${BASE}/game/${id}`);
    await banner.waitFor({ state: 'hidden', timeout: 10000 });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('before the socket says anything, each player\'s own card is at the bottom', async () => {
  const browser = await launch();
  try {
    const { pa, pb, errors, a, b } = await pair(browser, 'yc');
    const id = await startGame(pa, pb, { variant: 'flip', seconds_per_action: 60, rated: false });
    for (const [p, me, them] of [[pa, a, b], [pb, b, a]]) {
      // A socket that opens but never hears from the server: the page draws from the
      // summary alone, as on a slow connection before the first state.
      await p.routeWebSocket(/\/ws\//, () => {});
      await p.goto(`${BASE}/game/${id}`);
      await p.locator('#player-top .pc-name', { hasText: them }).waitFor({ timeout: 10000 });
      assert.equal((await p.locator('#player-bottom .pc-name').innerText()).trim(), me, `${me} sees their own card at the bottom`);
      assert.equal(await p.locator('#player-bottom .pc-you').isVisible(), true, `${me}'s card says it is theirs`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('phrases show by the sender\'s card and in the log, can be hidden, and too many are refused gently', async () => {
  const browser = await launch();
  try {
    const { pa, pb, errors } = await pair(browser, 'ph');
    const id = await startGame(pa, pb, { variant: 'flip', seconds_per_action: 60, rated: false });
    await pa.goto(`${BASE}/game/${id}`);
    await pb.goto(`${BASE}/game/${id}`);
    await whoseTurn([pa, pb]);
    await pa.click('#phrase-button');
    await pa.locator('#phrase-menu button[data-phrase="hello"]').click();
    // Bob sees it by Alice's card (the top card on his page) and in his log.
    await pb.locator('#player-top .pc-bubble', { hasText: '你好' }).waitFor({ timeout: 5000 });
    assert.match(await pb.locator('#log').innerText(), /你好/);
    await pa.locator('#player-bottom .pc-bubble', { hasText: '你好' }).waitFor();
    // A second at once is refused by the server's limit, said gently.
    await pa.click('#phrase-button');
    await pa.locator('#phrase-menu button[data-phrase="thumbs_up"]').click();
    await pa.locator('#toast', { hasText: '说得太快了' }).waitFor({ timeout: 5000 });
    // Bob hides phrases (in the action bar's ⋯ menu); the switch is remembered across a reload.
    await pb.click('#more-button');
    await pb.locator('#phrase-hide').check();
    await pb.reload();
    await whoseTurn([pa, pb]);
    // The phrases module that restores the switch loads lazily, possibly after the turn shows.
    await pb.locator('#phrase-hide:checked').waitFor({ state: 'attached', timeout: 5000 });
    assert.equal(await pb.locator('#phrase-hide').isChecked(), true);
    await pa.waitForTimeout(3100);
    await pa.click('#phrase-button');
    await pa.locator('#phrase-menu button[data-phrase="thanks"]').click();
    await pa.locator('#player-bottom .pc-bubble', { hasText: '谢谢' }).waitFor();
    await pb.waitForTimeout(800);
    assert.equal(await pb.locator('.pc-bubble').count(), 0, 'hidden phrases stay hidden');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('the mute switch is remembered, and the desktop board fills the window beside the cards', async () => {
  const browser = await launch();
  try {
    const { pa, pb, errors } = await pair(browser, 'ds', false);
    const id = await startGame(pa, pb, { variant: 'flip', seconds_per_action: 60, rated: false });
    await pa.goto(`${BASE}/game/${id}`);
    await whoseTurn([pa]).catch(() => {});
    await pa.locator('#board g[data-square]').first().waitFor();
    assert.equal(await pa.locator('#mute').getAttribute('aria-pressed'), 'false');
    await pa.click('#mute');
    await pa.reload();
    await pa.locator('#board g[data-square]').first().waitFor();
    assert.equal(await pa.locator('#mute').getAttribute('aria-pressed'), 'true', 'muted after a reload');
    const geo = await pa.evaluate(() => {
      const r = (sel) => document.querySelector(sel).getBoundingClientRect().toJSON();
      return { board: r('#board'), top: r('#player-top'), bottom: r('#player-bottom'), side: r('.side-panel') };
    });
    assert.ok(geo.board.height >= 560, `the board is ${Math.round(geo.board.height)} px tall at 1280×800`);
    assert.ok(geo.board.bottom <= DESKTOP.height, 'the whole board is in view');
    assert.ok(geo.top.right <= geo.board.left && geo.bottom.right <= geo.board.left, 'the cards stand beside the board');
    assert.ok(geo.side.left >= geo.board.right, 'the panels stand on its other side');
    void pb;
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
