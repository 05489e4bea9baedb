// Four people at one 对家 table, each in a browser of their own and one of them (East)
// on a 360 px phone: they sit through the invite links, get ready, deploy and play
// by tapping the pieces and destinations the server lights, past the 40 steps that
// score nothing; then South resigns (and sees North's pieces, §5.4.2), North resigns,
// and East–West have won. Every table message each browser received and every board
// it drew are checked against the truth the replay reveals afterwards: a seat was
// named a piece only where §5.3 lets it know it. The game is then found where its
// players would look: the replay (every layout, the commitments checked in the
// browser), the history, the 四国 ladder and the profiles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, DESKTOP, PHONE, launch, register, rng } from './support.mjs';

const SEATS = ['south', 'east', 'north', 'west'];
const ALLY = { south: 'north', north: 'south', east: 'west', west: 'east' };
const suffix = () => Date.now().toString(36).slice(-5) + Math.floor(Math.random() * 100);

/** The table message the board last drew. */
const version = (page) => page.evaluate(() => Number(document.getElementById('board')?.dataset.version ?? 0));

/** Every piece a page draws: station, seat, face and name where shown. */
const drawn = (page) => page.evaluate(() => [...document.querySelectorAll('#board g[data-station] .piece')].map((p) => ({
  at: p.closest('g[data-station]').getAttribute('data-station'),
  seat: p.getAttribute('data-seat'),
  face: p.getAttribute('data-face'),
  piece: p.getAttribute('data-piece'),
})));

/** A tap on the phone, a click elsewhere. */
const press = (p, selector) => (p.phone ? p.page.locator(selector).tap() : p.page.locator(selector).click());

/** The board after the first `n` actions of the replay. */
function boardAfter(replay, n) {
  const out = {};
  for (const c of replay.start) out[c.at] = { seat: c.seat, piece: c.piece };
  for (let i = 0; i < n; i++) {
    for (const ch of replay.steps[i].changes) {
      if (ch.cell) out[ch.at] = { seat: ch.cell.seat, piece: ch.cell.piece };
      else delete out[ch.at];
    }
  }
  return out;
}

/**
 * Whether `viewer` may be told the name of `cell` (RULES §5.3): its own pieces, pieces
 * shown face up, and once the viewer is defeated its ally's; everything at the end.
 */
function mayKnow(viewer, cell, defeated, over) {
  return over || cell.seat === viewer || cell.face === 'up' || (defeated && cell.seat === ALLY[viewer]);
}

/**
 * Checks one board a seat saw against the truth: among the positions of the replay
 * with the same occupied stations (public), one has every name it showed, and no name
 * was shown that the seat could not know. Returns how many names were checked.
 */
function checkSight(viewer, board, truths, defeated, over, what) {
  for (const c of board) {
    if (c.piece) assert.ok(mayKnow(viewer, c, defeated, over), `${what}: ${viewer} was told ${c.piece} of ${c.seat} at ${c.at}`);
  }
  const occupied = board.map((c) => c.at).sort().join();
  const matches = truths.filter((t) => Object.keys(t).sort().join() === occupied);
  assert.ok(matches.length > 0, `${what}: the board ${viewer} saw is one the game passed through`);
  const named = board.filter((c) => c.piece);
  assert.ok(matches.some((t) => named.every((c) => t[c.at].seat === c.seat && t[c.at].piece === c.piece)),
    `${what}: every name ${viewer} saw is the piece that stood there`);
  return named.length;
}

test('four browsers, one a phone, play a 对家 table to the defeat of an alliance and find it afterwards', async () => {
  const browser = await launch();
  try {
    const s = suffix();
    const players = [];
    for (const seat of SEATS) {
      const phone = seat === 'east';
      const ctx = await browser.newContext(phone ? { viewport: PHONE, hasTouch: true, isMobile: true } : { viewport: DESKTOP });
      const page = await ctx.newPage();
      const p = { seat, phone, page, name: `f${seat[0]}_${s}`, errors: [], messages: [] };
      page.on('pageerror', (e) => p.errors.push(e.message));
      // Every table message the server sent this browser, as it arrived.
      page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => {
        const m = JSON.parse(String(payload));
        if (m.t === 'table') p.messages.push(m.d);
      }));
      await register(page, p.name);
      players.push(p);
    }
    const [south, east, north, west] = players;
    const res = await south.page.request.post(`${BASE}/api/tables`, {
      data: { seconds_per_action: 60, rated: true, options: { alliance: 'opposite' } },
    });
    assert.equal(res.status(), 201, await res.text());
    const { id } = await res.json();
    await south.page.goto(`${BASE}/game/${id}`);
    for (const p of [east, north, west]) {
      await p.page.goto(`${BASE}/game/${id}?seat=${p.seat}`);
      await p.page.locator(`#card-bottom[data-seat="${p.seat}"]`).waitFor({ timeout: 10000 });
    }
    for (const p of players) {
      await p.page.locator('#act-ready').waitFor({ state: 'visible', timeout: 10000 });
      await press(p, '#act-ready');
    }
    // Deploying: each sees its own 25 pieces and nobody else's (§5.8).
    for (const p of players) {
      await p.page.locator('#act-deployed').waitFor({ state: 'visible', timeout: 10000 });
      const own = await drawn(p.page);
      assert.equal(own.length, 25, `${p.seat} deploys 25 pieces`);
      assert.ok(own.every((c) => c.seat === p.seat && c.piece), `${p.seat} sees only its own area`);
    }
    for (const p of players) await press(p, '#act-deployed');
    for (const p of players) {
      await p.page.waitForFunction(() => document.getElementById('status')?.dataset.phase === 'playing', null, { timeout: 20000 });
    }
    // The phone's whole board fits its screen, and its own area lies at the bottom.
    assert.ok(await east.page.evaluate(() => document.documentElement.scrollWidth <= 360), 'the phone page is no wider than the phone');

    const rand = rng(44);
    const boards = [];
    let actions = 0;
    /** The player whose turn the pages show, waiting until one does. */
    const mover = () => Promise.any(players.map((p) => p.page.waitForFunction(
      () => (document.getElementById('status')?.textContent ?? '').includes('轮到你')
        && document.querySelectorAll('#board g.is-from').length > 0,
      null, { timeout: 20000, polling: 50 }).then(() => p)));
    /** Waits until every page has drawn table message `v` or a newer one. */
    const allAt = async (v) => {
      for (const p of players) {
        await p.page.waitForFunction((n) => Number(document.getElementById('board')?.dataset.version ?? 0) >= n, v, { timeout: 20000 });
      }
    };
    const over = () => south.page.locator('#result').isVisible();
    // Play from the lit pieces until 44 steps have been played (or an alliance fell).
    while (actions < 44 && !(await over())) {
      const p = await mover();
      const from = await p.page.evaluate(() => [...document.querySelectorAll('#board g.is-from')].map((g) => g.getAttribute('data-station')));
      const pick = from[Math.floor(rand() * from.length)];
      await press(p, `#board g[data-station="${pick}"]`);
      const dests = await p.page.evaluate(() => [...document.querySelectorAll('#board g.is-dest')].map((g) => g.getAttribute('data-station')));
      assert.ok(dests.length > 0, `the lit piece ${pick} lights where it may go`);
      const v = await version(p.page);
      const dest = dests[Math.floor(rand() * dests.length)];
      await press(p, `#board g[data-station="${dest}"]`);
      await p.page.waitForFunction((n) => Number(document.getElementById('board')?.dataset.version ?? 0) > n, v, { timeout: 20000 });
      actions++;
      await allAt(await version(p.page));
      for (const q of players) boards.push({ viewer: q.seat, board: await drawn(q.page), defeated: false });
    }
    assert.ok(actions >= 44 || (await over()), `steps played: ${actions}`);
    if (!(await over())) {
      // South resigns: only South is out, its pieces leave (drawn leaving the board on
      // every page), and it now sees North's.
      const before = await drawn(east.page);
      for (const p of players) {
        await p.page.evaluate(() => {
          window.leftBoard = 0;
          new MutationObserver((ms) => {
            for (const m of ms) for (const n of m.addedNodes) if (n.classList && n.classList.contains('leaving')) window.leftBoard++;
          }).observe(document.getElementById('board'), { childList: true, subtree: true });
        });
      }
      let v = await version(south.page);
      await press(south, '#act-resign');
      await south.page.locator('#confirm-sheet').waitFor({ state: 'visible' });
      await press(south, '#confirm-ok');
      await south.page.locator('#card-bottom[data-state="defeated"]').waitFor({ timeout: 20000 });
      await allAt(v + 1);
      const seen = await drawn(south.page);
      assert.equal(seen.filter((c) => c.seat === 'south').length, 0, 'the resigner\'s army has left the board');
      const ally = seen.filter((c) => c.seat === 'north');
      assert.ok(ally.length > 0 && ally.every((c) => c.piece), 'the defeated South sees every piece of its ally');
      boards.push({ viewer: 'south', board: seen, defeated: true });
      const gone = before.filter((c) => c.seat === 'south').length;
      for (const p of players) {
        assert.equal(await p.page.evaluate(() => window.leftBoard), gone, `${p.seat} watched South's ${gone} pieces leave`);
      }
      for (const q of [east, north, west]) boards.push({ viewer: q.seat, board: await drawn(q.page), defeated: false });
      assert.equal(await south.page.locator('#act-resign').isVisible(), false, 'a defeated seat has nothing to resign');
      assert.ok(await south.page.locator('#out-leave').isVisible(), 'the defeated may leave, or stay to watch');
      // North resigns too, and the alliance has fallen.
      v = await version(north.page);
      await press(north, '#act-resign');
      await north.page.locator('#confirm-sheet').waitFor({ state: 'visible' });
      await press(north, '#confirm-ok');
    }
    for (const p of players) await p.page.locator('#result').waitFor({ state: 'visible', timeout: 20000 });
    // The log on each page: every step it saw, and the resignation.
    for (const p of players) {
      assert.ok(await p.page.locator('#table-log li[data-kind="step"]').count() >= 44, `${p.seat}'s log has the steps`);
      assert.match(await p.page.locator('#table-log li[data-kind="defeat"][data-seat="south"]').innerText(), /南方出局：认输/);
    }
    for (const p of players) {
      const word = await p.page.locator('#result-word').innerText();
      assert.ok(word.length > 0, `${p.seat} is told the result`);
      assert.equal(await p.page.locator('#result-scores li').count(), 4, `${p.seat} sees every seat's score`);
      // The row of the score table that applied: the winners +u, the losers −u.
      const rows = await p.page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#result-scores li')]
        .map((li) => [li.dataset.seat, li.querySelector('.tp-score-row')?.dataset.row])));
      assert.deepEqual(rows, { south: 'loss', east: 'win', north: 'loss', west: 'win' }, `${p.seat}: the rows that scored`);
      assert.match(await p.page.locator('#result-scores li[data-seat="east"] .tp-score-row').innerText(), /胜方 \+u/);
    }

    // The truth: the replay, after the end, names every piece of every step.
    const replay = await (await south.page.request.get(`${BASE}/api/games/${id}/replay`)).json();
    const truths = replay.steps.map((_, i) => boardAfter(replay, i + 1));
    truths.unshift(boardAfter(replay, 0));
    const winners = replay.result;
    assert.ok(/east/.test(winners) && /west/.test(winners) && !/south|north/.test(winners), `East and West won: ${winners}`);
    let named = 0;
    for (const b of boards) named += checkSight(b.viewer, b.board, truths, b.defeated, false, 'a drawn board');
    // Every table message of the play, to every seat, says no more than §5.3 allows.
    for (const p of players) {
      let defeated = false;
      for (const d of p.messages) {
        if (d.phase !== 'playing' && d.phase !== 'over') continue;
        defeated = defeated || d.seats.find((c) => c.seat === p.seat).state === 'defeated';
        named += checkSight(p.seat, d.board, truths, defeated, d.phase === 'over', `a table message to ${p.seat}`);
        if (d.phase === 'playing') assert.ok(!('layouts' in d) && !('salt' in d), 'no layout or salt is sent before the end');
      }
    }
    console.log(`boards checked: ${boards.length}; messages: ${players.map((p) => p.messages.length).join('/')}; names checked: ${named}`);

    // The replay on the phone: the start shows all four layouts, and the browser has
    // checked the layouts against the commitment published when play began.
    await east.page.locator('#replay-bar').waitFor({ state: 'visible' });
    await east.page.locator('#replay-verified[data-layouts="ok"]').waitFor({ timeout: 20000 });
    await press(east, '#replay-first');
    await east.page.waitForFunction(() => /^0 \/ \d+$/.test(document.getElementById('replay-at')?.textContent ?? ''));
    const start = await drawn(east.page);
    assert.equal(start.length, 100, 'the start of the replay shows four armies');
    assert.ok(start.every((c) => c.piece), 'and every layout named');

    // History, the ladder and the profiles know the game.
    const pg = south.page;
    await pg.goto(`${BASE}/games?variant=siguo`);
    assert.ok(await pg.locator(`a[href="/game/${id}"]`).count() > 0, 'the history lists the table');
    for (const p of players) {
      assert.ok(await pg.locator(`a[href="/@/${p.name}?variant=siguo"]`).count() > 0, `the history row names ${p.name}`);
    }
    await pg.goto(`${BASE}/ladder?variant=siguo`);
    for (const p of [east, west]) {
      const score = Number(await pg.locator(`[data-username="${p.name}"]`).first().getAttribute('data-score'));
      assert.ok(score > 0, `${p.name} gained on the 四国 ladder: ${score}`);
    }
    await pg.goto(`${BASE}/@/${west.name}?variant=siguo`);
    const record = await pg.locator('[data-variant="siguo"][data-against="all"]').first().innerText();
    assert.match(record, /1/, `the profile's 四国 record counts the game: ${record}`);
    await pg.goto(`${BASE}/@/${south.name}/games?variant=siguo`);
    assert.ok(await pg.locator(`[data-outcome="loss"] a[href="/game/${id}"], a[href="/game/${id}"]`).count() > 0, 'the loser finds it in their own history');

    for (const p of players) assert.deepEqual(p.errors, [], `${p.seat}: no page errors`);
  } finally {
    await browser.close();
  }
});
