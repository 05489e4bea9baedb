// The table as a QQ/JJ player finds it (issue 20): each move is shown once and in order
// (one copy of the moved piece while it slides, each slide and caption seen before the
// next, even against the computer's quick answers), the controls right under the board
// on a phone, answers as toasts, in-page confirmations instead of the browser's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, DESKTOP, PHONE, captureFrames, latestLegal, launch, register, rng } from './support.mjs';

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
  new MutationObserver((muts) => {
    for (const m of muts) {
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
            rec.end = performance.now();
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
