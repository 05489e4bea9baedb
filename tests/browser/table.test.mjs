// The table as a QQ/JJ player finds it (issue 20): each move is shown once and in order
// (one copy of the moved piece while it slides, each slide and caption seen before the
// next, even against the computer's quick answers), the controls right under the board
// on a phone, answers as toasts, in-page confirmations instead of the browser's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, DESKTOP, PHONE, captureFrames, latestLegal, launch, register, rng, startGame, waitForSteps, whoseTurn,
} from './support.mjs';

const suffix = () => Date.now().toString(36).slice(-5) + Math.floor(Math.random() * 100);

// From the page's first script on: every slide (where it goes, the most copies of the
// moved piece seen on the board in any frame of it, whether it ran to its end, when it
// began and ended) and every caption (its text, when it was shown and replaced).
function watchTable() {
  /** @type {{to: string, copies: number, frames: number, finished: boolean, start: number, end: number|null}[]} */
  const slides = [];
  /** @type {{text: string, at: number}[]} */
  const captions = [];
  Object.assign(window, { __table: { slides, captions } });
  const same = (a, b) => !!a && !!b && a.getAttribute('data-piece') === b.getAttribute('data-piece')
    && a.getAttribute('data-colour') === b.getAttribute('data-colour');
  // Each ghost's record, so that its removal ends it at that moment: a frame later (the
  // next animation frame) a following slide may already have begun in the same task.
  const recs = new Map();
  new MutationObserver((muts) => {
    for (const m of muts) {
      for (const n of m.removedNodes) {
        const rec = recs.get(n);
        if (rec && rec.end === null) rec.end = performance.now();
      }
      const target = m.target instanceof Element ? m.target : m.target.parentElement;
      if (target && target.id === 'board-caption' && target.textContent) {
        const last = captions[captions.length - 1];
        if (!last || last.text !== target.textContent || performance.now() - last.at > 50) {
          captions.push({ text: target.textContent, at: performance.now() });
        }
      }
      for (const n of m.addedNodes) {
        if (!(n instanceof Element) || !n.classList.contains('ghost')) continue;
        const rec = { to: '', copies: 0, frames: 0, finished: false, start: performance.now(), end: null };
        slides.push(rec);
        recs.set(n, rec);
        const mover = n.querySelector('.piece');
        // The destination: the square drawn where the slide's last keyframe puts it.
        const destination = () => {
          const a = n.getAnimations()[0];
          const frames = a ? a.effect.getKeyframes() : [];
          const nums = (t) => (String(t).match(/-?[0-9.]+/g) || []).map(Number);
          const [x, y] = nums(frames.length ? frames[frames.length - 1].transform : '');
          for (const g of document.querySelectorAll('#board g[data-square]')) {
            const [gx, gy] = nums(g.getAttribute('transform'));
            if (Math.abs(gx - x) < 0.5 && Math.abs(gy - y) < 0.5) return g.getAttribute('data-square');
          }
          return '';
        };
        const count = () => {
          if (!rec.to) rec.to = destination();
          if (!n.isConnected) {
            if (rec.end === null) rec.end = performance.now();
            return;
          }
          const dest = document.querySelector(`#board g[data-square="${rec.to}"] .piece`);
          const visible = dest && getComputedStyle(dest).opacity !== '0' && same(dest, mover);
          rec.copies = Math.max(rec.copies, 1 + (visible ? 1 : 0));
          rec.frames++;
          requestAnimationFrame(count);
        };
        count();
        queueMicrotask(() => {
          const a = n.getAnimations()[0];
          if (a) a.finished.then(() => { rec.finished = true; }, () => {});
        });
      }
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

/** Waits until the person is to act, or the game is over. */
async function myTurnOrEnd(page) {
  await page.waitForFunction(() => {
    const r = document.getElementById('result');
    if (r && !r.hidden) return true;
    return (document.getElementById('status')?.textContent ?? '').includes('轮到你')
      && document.querySelectorAll('#board g.is-actionable').length > 0;
  }, null, { timeout: 60000, polling: 50 });
  return !(await page.locator('#result').isVisible());
}

test('each move is drawn once and seen in order, against the computer\'s quick answers', async () => {
  const browser = await launch();
  try {
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript(watchTable);
    await register(page, `tb_${suffix()}`);
    const res = await page.request.post(`${BASE}/api/games`, { data: { variant: 'flip', seconds_per_action: 30, rated: false, computer: 'easy' } });
    assert.equal(res.status(), 201, await res.text());
    const { id } = await res.json();
    const frames = captureFrames(page);
    await page.goto(`${BASE}/game/${id}`);
    const rand = rng(20);
    // Moves first (so that pieces slide), attacks before quiet moves (captions).
    let moves = 0;
    for (let turn = 0; turn < 120 && moves < 14; turn++) {
      if (!(await myTurnOrEnd(page))) break;
      const legal = latestLegal(frames);
      const occupied = await page.evaluate(() => [...document.querySelectorAll('#board g[data-square]:has(.piece)')]
        .map((g) => g.getAttribute('data-square')));
      const steps = legal.filter((a) => a.move);
      const attacks = steps.filter((a) => occupied.includes(a.move.to));
      const pool = attacks.length ? attacks : steps.length ? steps : legal.filter((a) => a.flip);
      const pick = pool[Math.floor(rand() * pool.length)];
      const before = await page.evaluate(() => window.__table.slides.length);
      if (pick.flip) {
        await page.locator(`#board g[data-square="${pick.flip}"]`).click();
      } else {
        await page.locator(`#board g[data-square="${pick.move.from}"]`).click();
        await page.locator(`#board g[data-square="${pick.move.to}"]`).click();
        moves++;
        await page.waitForFunction((n) => window.__table.slides.length > n, before);
      }
    }
    // Let the last slide finish.
    await page.waitForFunction(() => window.__table.slides.every((s) => s.end !== null), null, { timeout: 10000 });
    const { slides, captions } = await page.evaluate(() => window.__table);
    assert.ok(slides.length >= 10, `slides were seen: ${slides.length}`);
    for (const [i, s] of slides.entries()) {
      assert.ok(s.to, `slide ${i}'s destination is on the board`);
      assert.equal(s.copies, 1, `slide ${i} to ${s.to} showed the moved piece ${s.copies} times`);
      assert.ok(s.finished, `slide ${i} to ${s.to} ran to its end`);
      if (i > 0) assert.ok(slides[i - 1].end <= s.start + 1, `slide ${i - 1} had ended before slide ${i} began`);
    }
    // A caption stays up long enough to read before the next replaces it.
    for (let i = 1; i < captions.length; i++) {
      const up = captions[i].at - captions[i - 1].at;
      assert.ok(up >= 800, `caption ${JSON.stringify(captions[i - 1].text)} was replaced after ${Math.round(up)} ms`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

/** Two registered players: Alice at a desktop, Bob on a 360×740 phone (`?lang` cookie `lang`). */
async function pair(browser, prefix, lang = 'zh') {
  const ca = await browser.newContext({ viewport: DESKTOP });
  const cb = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
  const pa = await ca.newPage();
  const pb = await cb.newPage();
  const errors = [];
  const dialogs = [];
  for (const p of [pa, pb]) {
    p.on('pageerror', (e) => errors.push(e.message));
    p.on('dialog', (d) => {
      dialogs.push(d.message());
      d.dismiss();
    });
  }
  const s = suffix();
  await register(pa, `${prefix}a_${s}`);
  await register(pb, `${prefix}b_${s}`);
  if (lang === 'en') for (const p of [pa, pb]) await p.goto(`${BASE}/?lang=en`);
  return { pa, pb, errors, dialogs };
}

/** The element's box in the viewport, or null when not drawn. */
const box = (page, sel) => page.locator(sel).boundingBox();
const inView = (b, h = PHONE.height, w = PHONE.width) => !!b && b.y >= 0 && b.x >= 0 && b.y + b.height <= h + 0.5 && b.x + b.width <= w + 0.5;

for (const lang of ['zh', 'en']) {
  test(`on a phone the board, both cards, the strip (with 底分 2) and the action bar are all in view (${lang})`, async () => {
    const browser = await launch();
    try {
      const { pa, pb, errors, dialogs } = await pair(browser, `ph${lang}`, lang);
      // A one-second casual game that ends by timeouts, then a rematch: 底分 2.
      const first = await startGame(pa, pb, { variant: 'flip', seconds_per_action: 1, rated: false });
      for (const p of [pa, pb]) await p.goto(`${BASE}/game/${first}`);
      for (const p of [pa, pb]) await p.locator('#result').waitFor({ state: 'visible', timeout: 20000 });
      // The game is over: no hint about resigning stays, and the bar keeps only 💬 and ⋯.
      assert.equal(await pb.locator('#actions-hint').isVisible(), false, 'no hint after the end');
      assert.equal(await pb.locator('#resign').isVisible(), false, 'no 认输 after the end');
      await pa.click('#rematch');
      await pb.click('#rematch');
      for (const p of [pa, pb]) await p.waitForURL((u) => !u.pathname.endsWith(first), { timeout: 10000 });
      const second = pb.url().split('/').pop();
      const summary = await (await pb.request.get(`${BASE}/api/games/${second}`)).json();
      assert.equal(summary.base, 2);
      await pb.locator('#strip-base').waitFor({ state: 'visible', timeout: 10000 });
      await pb.evaluate(() => window.scrollTo(0, 0));
      // The strip: one line, every count whole (the rematch may have ended by now: the
      // strip stays, with the counts the game ended on).
      const strip = await pb.locator('#strip').evaluate((e) => ({
        height: e.scrollHeight,
        cut: [...e.querySelectorAll('span')].filter((s) => !s.hidden && s.scrollWidth > s.clientWidth + 0.5).map((s) => s.textContent),
        out: [...e.querySelectorAll('span')].filter((s) => !s.hidden).some((s) => s.getBoundingClientRect().right > e.getBoundingClientRect().right + 0.5),
      }));
      assert.ok(strip.height <= 40, `the strip is one line (${strip.height} px)`);
      assert.deepEqual(strip.cut, [], 'no count is cut');
      assert.equal(strip.out, false, 'every count lies inside the strip');
      assert.match(await pb.locator('#strip-base').innerText(), lang === 'zh' ? /底分 2/ : /Base 2/);
      // A running game with a longer clock: board, both cards, the strip and the bar's
      // buttons all on the phone's screen at once.
      const id = await startGame(pa, pb, { variant: 'flip', seconds_per_action: 60, rated: false });
      await pb.goto(`${BASE}/game/${id}`);
      // Alice is not on the page yet: the banner about her shows in the status area,
      // over the strip, and pushes nothing down.
      await pb.locator('#presence-banner').waitFor({ state: 'visible', timeout: 10000 });
      const banner = await box(pb, '#presence-banner');
      const board = await box(pb, '#board');
      assert.ok(banner.y + banner.height <= board.y, 'the banner is above the board, not over it');
      assert.ok(inView(await box(pb, '#player-bottom')), 'with the banner up, the own card stays in view');
      // Her card's offline tag stays on one line (it wrapped as 离/线 on a phone).
      const tag = pb.locator('#player-top .pc-offline');
      await tag.waitFor({ state: 'visible' });
      const lines = await tag.evaluate((e) => {
        const r = document.createRange();
        r.selectNodeContents(e);
        return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size;
      });
      assert.equal(lines, 1, 'the offline tag is one line');
      await pa.goto(`${BASE}/game/${id}`);
      await pb.locator('#presence-banner').waitFor({ state: 'hidden', timeout: 10000 });
      await pb.locator('#resign').waitFor({ state: 'visible' });
      await pb.evaluate(() => window.scrollTo(0, 0));
      for (const sel of ['#board', '#player-top', '#player-bottom', '#strip', '#resign', '#offer-draw', '#phrase-button', '#more-button']) {
        const b = await box(pb, sel);
        const top = await box(pb, '.status-top');
        assert.ok(inView(b), `${sel} is in view at 360×740 (${JSON.stringify(b)}; status ${JSON.stringify(top)})`);
      }
      assert.deepEqual(dialogs, [], 'no browser dialog');
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
}

test('快捷语 opens over the board without scrolling it away; a declined draw is a toast; 认输 asks in the page', async () => {
  const browser = await launch();
  try {
    const { pa, pb, errors, dialogs } = await pair(browser, 'ab');
    const id = await startGame(pa, pb, { variant: 'flip', seconds_per_action: 60, rated: false });
    const frames = new Map([pa, pb].map((p) => [p, captureFrames(p)]));
    for (const p of [pa, pb]) await p.goto(`${BASE}/game/${id}`);
    await pb.locator('#phrase-button').waitFor({ state: 'visible' });
    await pb.evaluate(() => window.scrollTo(0, 0));
    const boardBefore = await box(pb, '#board');
    await pb.click('#phrase-button');
    await pb.locator('#phrase-menu').waitFor({ state: 'visible' });
    const y = await pb.evaluate(() => window.scrollY);
    assert.equal(y, 0, 'the page did not scroll');
    const boardAfter = await box(pb, '#board');
    assert.equal(boardAfter.y, boardBefore.y, 'the board stays where it was');
    assert.ok(inView(await box(pb, '#phrase-menu')), 'the phrases are on screen');
    await pb.locator('#phrase-menu button[data-phrase="hello"]').click();
    await pa.locator('.pc-bubble', { hasText: '你好' }).waitFor();
    // Draw offers open after the variant's first 50 steps: play them through the
    // actions the server lists, clicked on the board.
    const pages = [pa, pb];
    const rand = rng(7);
    for (let i = 0; i < 200 && !(await pa.locator('#offer-draw').isEnabled()); i++) {
      const page = await whoseTurn(pages);
      const before = await page.evaluate(() => Number.parseInt(document.querySelector('#steps')?.textContent ?? '0', 10));
      await page.waitForFunction(() => document.querySelectorAll('#board g.is-actionable').length > 0);
      const legal = latestLegal(frames.get(page));
      const pick = legal[Math.floor(rand() * legal.length)];
      if (pick.flip) {
        await page.locator(`#board g[data-square="${pick.flip}"]`).click();
      } else {
        await page.locator(`#board g[data-square="${pick.move.from}"]`).click();
        await page.locator(`#board g[data-square="${pick.move.to}"]`).click();
      }
      await waitForSteps(pages, before + 1);
    }
    assert.equal(await pa.locator('#offer-draw').isEnabled(), true, 'draw offers open');
    await pa.click('#offer-draw');
    await pb.locator('#draw-dialog').waitFor({ state: 'visible' });
    await pb.click('#decline-draw');
    await pa.locator('#toast', { hasText: '拒绝和棋' }).waitFor({ timeout: 10000 });
    // 认输 asks in the page: cancelled, the game goes on; confirmed, it ends.
    await pb.click('#resign');
    await pb.locator('#confirm-sheet').waitFor({ state: 'visible' });
    assert.ok(inView(await box(pb, '#confirm-sheet')), 'the question is on the phone\'s screen');
    await pb.click('#confirm-cancel');
    await pb.locator('#confirm-sheet').waitFor({ state: 'hidden' });
    assert.equal(await pb.locator('#result').isVisible(), false, 'cancelled: still playing');
    await pb.click('#resign');
    await pb.click('#confirm-ok');
    for (const p of pages) await p.locator('#result').waitFor({ state: 'visible' });
    assert.equal(await pb.locator('#actions-hint').isVisible(), false);
    // The way to the next rank, in the order a player reads it.
    await pa.locator('#result-rank .rank-next').first().waitFor();
    assert.match(await pa.locator('#result-rank .rank-next').first().innerText(), /^还差 \d+ 分升.+（需 \d+ 分）$/);
    assert.deepEqual(dialogs, [], 'no browser dialog was opened');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
