// 复盘分析 on a 360 px phone: a player finishes a flip game against the computer, having
// thrown pieces away a few times (the move /api/analysis/evaluate values well below the
// best), opens the finished game's page and presses 复盘分析. While the server
// reviews, the page shows its progress; then the value graph, the marked steps
// (疑问手 / 败着), and on clicking one, the replay board at that step with the engine's
// best action drawn as an arrow and its caption "最佳：…". 从对方视角 gives the other
// side's review. Every wait is for something the page shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, PHONE, launch, register } from './support.mjs';

/** Long enough for a debug build to review a game on a busy machine. */
const REVIEW_WAIT = 240000;

/**
 * Plays the person's seat of game `id` over a socket of the page's own (the page's
 * cookie goes with it): the worst move the server's evaluation finds when it is well
 * below the best (more than an inaccuracy's 15 points; three times at most), else a flip
 * (else any action), and a resignation once 60 steps are played. Resolves when the game has ended.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
function playOut(page, id) {
  return page.evaluate((gameId) => new Promise((resolve, reject) => {
    const ws = new WebSocket('ws://' + location.host + '/ws/game/' + gameId);
    /** @type {Record<string, any>} */
    let board = {};
    /** @type {any[]} */
    let tallies = [];
    let me = null;
    let colours = null;
    let steps = 0;
    let ack = 1;
    let blunders = 0;
    const send = (t, d) => ws.send(JSON.stringify({ t, d, a: ack++ }));
    const removed = () => tallies.flatMap((t) => Array(t.removed || 0).fill({ piece: t.piece, colour: t.colour }));
    const timer = setTimeout(() => reject(new Error('the game did not end')), 180000);
    async function choose(legal) {
      if (steps >= 60) return send('resign');
      if (blunders < 3 && colours) {
        const r = await fetch('/api/analysis/evaluate', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ variant: 'flip', to_move: me, colours, board, removed: removed(), top: 100 }),
        });
        if (!r.ok) return reject(new Error('evaluate: ' + r.status + ' ' + (await r.text())));
        const e = await r.json();
        const moves = e.best.filter((b) => b.action.move);
        const worst = moves[moves.length - 1];
        if (worst && e.value - worst.value > 25) {
          blunders += 1;
          return send('move', worst.action.move);
        }
      }
      const flips = legal.filter((a) => a.flip);
      const from = flips.length ? flips : legal;
      const a = from[Math.floor(Math.random() * from.length)];
      return a.flip ? send('flip', { at: a.flip }) : send('move', a.move);
    }
    const ended = () => {
      clearTimeout(timer);
      ws.close();
      resolve({ blunders, steps });
    };
    ws.onmessage = (m) => {
      const msg = JSON.parse(m.data);
      if (msg.t === 'error') reject(new Error(JSON.stringify(msg.d)));
      if (msg.t === 'state') {
        const d = msg.d;
        me = d.you;
        if (d.result) return ended();
        if (!d.view) return;
        board = Object.assign({}, d.view.board);
        tallies = d.view.tallies || [];
        colours = d.view.colours;
        steps = d.view.steps;
        if (d.view.legal.length) choose(d.view.legal);
      }
      if (msg.t === 'event') {
        const d = msg.d;
        for (const [sq, c] of Object.entries(d.board || {})) {
          if (c) board[sq] = c;
          else delete board[sq];
        }
        if (d.tallies) tallies = d.tallies;
        if (d.status) {
          steps = d.status.steps;
          if (d.status.colours) colours = d.status.colours;
        }
        if (d.result) return ended();
        if (d.legal && d.legal.length) choose(d.legal);
      }
    };
  }), id);
}

test('a finished game\'s review: graph, marked steps, the best action on the board', async () => {
  const browser = await launch();
  try {
    const page = await (await browser.newContext({ viewport: PHONE })).newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const name = `rv_${Date.now().toString(36).slice(-5)}`;
    await register(page, name);
    const res = await page.request.post(`${BASE}/api/games`, {
      data: { variant: 'flip', seconds_per_action: 30, rated: false, computer: 'easy' },
    });
    assert.equal(res.status(), 201, await res.text());
    const { id } = await res.json();
    const played = await playOut(page, id);
    assert.ok(played.blunders >= 1, `a piece was thrown away: ${JSON.stringify(played)}`);

    await page.goto(`${BASE}/game/${id}`);
    const open = page.locator('#review-open');
    await open.waitFor({ state: 'visible' });
    assert.equal((await open.innerText()).trim(), '复盘分析');
    await open.click();
    await page.locator('#review').waitFor({ state: 'visible' });
    // The graph once the review is done (progress shows until then).
    await page.locator('#review-graph polyline.rv-line').waitFor({ state: 'attached', timeout: REVIEW_WAIT });
    assert.ok(await page.locator('#review-graph').isVisible());
    const marks = page.locator('#review-marks li[data-step]');
    assert.ok((await marks.count()) >= 1, 'at least one marked step');
    assert.ok((await page.locator('#review-graph circle.rv-mark').count()) >= 1, 'the marks on the graph');
    const first = marks.first();
    assert.match(await first.innerText(), /疑问手|败着/);
    assert.match(await first.innerText(), /最佳：/);

    // A marked step: the replay stands before it, the best action drawn on the board.
    const step = Number(await first.getAttribute('data-step'));
    await first.click();
    await page.waitForFunction(() => !!document.querySelector('#board')?.getAttribute('data-best'));
    const best = await page.locator('#board').getAttribute('data-best');
    assert.match(best, /^[a-e]\d{1,2}(-[a-e]\d{1,2})?$/, `the best action on the board: ${best}`);
    assert.ok((await page.locator('#board .best-layer > *').count()) >= 1, 'an arrow or a ring');
    assert.equal(await page.locator('#replay-step').getAttribute('data-step'), String(step - 1));
    const caption = page.locator('#review-caption');
    await caption.waitFor({ state: 'visible' });
    assert.match(await caption.innerText(), new RegExp(`第 ${step} 步.*最佳：`));
    // Stepping on takes the arrow away: it belongs to that position.
    await page.locator('#replay-next').click();
    await page.waitForFunction(() => document.querySelector('#board')?.getAttribute('data-best') === '');

    // It fits a phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no sideways scrolling at 360 px (${overflow})`);
    const graphWidth = await page.locator('#review-graph').evaluate((g) => g.getBoundingClientRect().width);
    assert.ok(graphWidth > 250 && graphWidth <= 360, `the graph spans the card (${graphWidth})`);

    // 从对方视角: the computer's side, reviewed in its turn.
    const side = await page.locator('#review-side').innerText();
    await page.locator('#review-other').click();
    await page.waitForFunction((before) => document.getElementById('review-side')?.textContent !== before, side);
    await page.locator('#review-graph polyline.rv-line').waitFor({ state: 'attached', timeout: REVIEW_WAIT });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
