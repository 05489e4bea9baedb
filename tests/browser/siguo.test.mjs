// The 四国 table page (/game/{id} of a siguo table): (a) a person opens 人机 四国,
// swaps two pieces and takes a random layout, presses 出征, and plays by clicking a lit
// piece and a lit destination while the computers answer, until the game ends or ten
// of their own moves; the board shows four armies, their own named at the bottom, the
// others as backs, and the cards the names. (b) On a 360 px phone one station's tap
// target is measured, and the zoom toward one's own area makes it finger-sized and
// still works for taps. (c) Two people at an open table: the second follows the invite
// link with ?seat=east and sits there, both see each other, the creator seats the
// computer and all get ready. (d) 不行动 counted n/5 on the card, the 5th asked first,
// then the defeat shown, at a 乱战 table whose dealt hand is listed while deploying;
// the computers play to the end, the browser checks the layouts and hands against
// their commitments, and the replay steps from the start, every layout named, to the end. (e) The draw sheet (who offered, who agreed, the answers) and
// the ally's "play on?", shown from table messages as the server sends them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, DESKTOP, PHONE, launch, register, rng } from './support.mjs';

const suffix = () => Date.now().toString(36).slice(-5) + Math.floor(Math.random() * 100);
const SEATS = ['south', 'east', 'north', 'west'];

/** Opens a 人机 四国 table through the API and the page on it. */
async function computerTable(page, alliance, more = {}) {
  const res = await page.request.post(`${BASE}/api/tables`, {
    data: { seconds_per_action: 60, computer: 'easy', options: { alliance, ...more } },
  });
  assert.equal(res.status(), 201, await res.text());
  const { id } = await res.json();
  await page.goto(`${BASE}/game/${id}`);
  await page.locator('#board g[data-station]').first().waitFor();
  return id;
}

/** The table message the board last drew. */
const version = (page) => page.evaluate(() => Number(document.getElementById('board')?.dataset.version ?? 0));

/** Waits until the board has drawn a newer table message than `v`. */
const newerThan = (page, v) => page.waitForFunction(
  (n) => Number(document.getElementById('board')?.dataset.version ?? 0) > n, v, { timeout: 20000 });

/** Every piece drawn: station, seat, face, name (when shown) and its centre on screen. */
const pieces = (page) => page.evaluate(() => [...document.querySelectorAll('#board g[data-station] .piece')].map((p) => {
  const b = p.getBoundingClientRect();
  return {
    at: p.closest('g[data-station]').getAttribute('data-station'),
    seat: p.getAttribute('data-seat'),
    face: p.getAttribute('data-face'),
    piece: p.getAttribute('data-piece'),
    y: b.y + b.height / 2,
  };
}));

/** Waits until it is the person's turn (a piece is lit) or the game is over for them. */
async function myTurnOrDone(page) {
  await page.waitForFunction(() => {
    if (!document.getElementById('result')?.hidden) return true;
    if (document.querySelector('#card-bottom')?.getAttribute('data-state') === 'defeated') return true;
    return (document.getElementById('status')?.textContent ?? '').includes('轮到你')
      && document.querySelectorAll('#board g.is-from').length > 0;
  }, null, { timeout: 60000, polling: 50 });
  return page.evaluate(() => document.querySelectorAll('#board g.is-from').length > 0);
}

test('one person against three computers deploys and plays by clicking the lit moves', async () => {
  const browser = await launch();
  try {
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // Under the Content-Security-Policy: no violation either.
    page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) errors.push(m.text()); });
    const name = `sg_${suffix()}`;
    await register(page, name);
    await computerTable(page, 'none');
    // Deploying: one's own area at the bottom, named; nobody else's pieces are drawn.
    await page.locator('#act-random').waitFor({ state: 'visible' });
    const own = await pieces(page);
    assert.equal(own.length, 25, 'the own 25 pieces are drawn while deploying');
    assert.ok(own.every((p) => p.seat === 'south' && p.piece), 'all south, all named');
    // Two pieces swapped by tapping them (neither a flag, mine nor bomb, so the swap is lawful).
    const plain = own.filter((p) => !['flag', 'mine', 'bomb'].includes(p.piece));
    const a = plain[0];
    const b = plain.find((p) => p.piece !== a.piece);
    let v = await version(page);
    await page.locator(`#board g[data-station="${a.at}"]`).click();
    assert.equal(await page.locator(`#board g[data-station="${a.at}"].is-selected`).count(), 1, 'the first tap selects');
    await page.locator(`#board g[data-station="${b.at}"]`).click();
    await newerThan(page, v);
    assert.equal(await page.locator(`#board g[data-station="${a.at}"] .piece`).getAttribute('data-piece'), b.piece);
    assert.equal(await page.locator(`#board g[data-station="${b.at}"] .piece`).getAttribute('data-piece'), a.piece);
    v = await version(page);
    await page.click('#act-random');
    await newerThan(page, v);
    await page.click('#act-deployed');
    await page.locator('#act-deployed').waitFor({ state: 'hidden' });

    // Play: four armies, one's own named and at the bottom, the others' pieces backs.
    await page.waitForFunction(() => new Set([...document.querySelectorAll('#board .piece')].map((p) => p.getAttribute('data-seat'))).size === 4,
      null, { timeout: 20000 });
    const board = await page.locator('#board').boundingBox();
    const middle = board.y + board.height / 2;
    const drawn = await pieces(page);
    const seats = new Set(drawn.map((p) => p.seat));
    assert.deepEqual([...seats].sort(), [...SEATS].sort(), 'four armies');
    const mine = drawn.filter((p) => p.seat === 'south');
    assert.ok(mine.length >= 20, `own pieces: ${mine.length}`);
    assert.ok(mine.every((p) => p.piece), 'own pieces face up to their owner');
    assert.ok(mine.filter((p) => p.at.startsWith('S')).every((p) => p.y > middle), 'own area at the bottom');
    const others = drawn.filter((p) => p.seat !== 'south');
    assert.ok(others.length >= 60, `the others' pieces: ${others.length}`);
    assert.ok(others.every((p) => !p.piece || p.face === 'up'), 'no hidden enemy piece is named');
    // The cards: the person at the bottom, the computer on the three other sides.
    assert.equal(await page.locator('#card-bottom .sc-name').innerText(), name);
    assert.equal(await page.locator('#card-bottom').getAttribute('data-seat'), 'south');
    for (const pos of ['left', 'top', 'right']) {
      const text = await page.locator(`#card-${pos} .sc-name`).innerText();
      assert.ok(text.includes('电脑'), `the ${pos} card names the computer: ${text}`);
      assert.equal(await page.locator(`#card-${pos} .sc-kind`).innerText(), '电脑');
    }
    assert.equal(await page.locator('#card-right').getAttribute('data-seat'), 'east', 'the next seat sits on the right');

    const rand = rng(4);
    let moves = 0;
    let routeSeen = false;
    while (moves < 10 && await myTurnOrDone(page)) {
      const from = await page.evaluate(() => [...document.querySelectorAll('#board g.is-from')].map((g) => g.getAttribute('data-station')));
      const pick = from[Math.floor(rand() * from.length)];
      await page.locator(`#board g[data-station="${pick}"]`).click();
      const dests = await page.evaluate(() => [...document.querySelectorAll('#board g.is-dest')].map((g) => g.getAttribute('data-station')));
      assert.ok(dests.length > 0, `a lit piece ${pick} lights its destinations`);
      const to = dests[Math.floor(rand() * dests.length)];
      v = await version(page);
      await page.locator(`#board g[data-station="${to}"]`).click();
      await newerThan(page, v);
      moves++;
      // The last step's route is highlighted, every station of it, with its caption.
      const route = await page.locator('#board g.on-route').count();
      if (route >= 2) routeSeen = true;
      assert.ok(await page.locator('#board-caption').innerText(), 'the last step has a caption');
    }
    assert.ok(routeSeen, 'a route was highlighted');
    const over = await page.locator('#result').isVisible();
    assert.ok(moves >= 10 || over || await page.locator('#card-bottom[data-state="defeated"]').count(), `own moves: ${moves}`);
    assert.ok(moves >= 3, `own moves played: ${moves}`);
    console.log(`own moves played: ${moves}${over ? ', to the end' : ''}`);
    if (!over && !(await page.locator('#card-bottom[data-state="defeated"]').count())) {
      // 托管 on: the card says so and the page offers to take the seat back; then off.
      await page.click('#act-tuoguan');
      await page.locator('#act-untuoguan').waitFor({ state: 'visible' });
      assert.match(await page.locator('#card-bottom .sc-tags').innerText(), /手动托管/);
      assert.match(await page.locator('#status').innerText(), /托管中/);
      await page.click('#act-untuoguan');
      await page.locator('#act-tuoguan').waitFor({ state: 'visible' });
      assert.match(await page.locator('#card-bottom .sc-tags').innerText(), /已托管 1 次/);
      // Both changes are in the log.
      const log = await page.locator('#table-log li[data-kind="tuoguan"]').allInnerTexts();
      assert.deepEqual(log, ['南方进入手动托管（第 1 次）', '南方取消托管']);
    }
    assert.equal(await page.locator('#result .btn[href="/"]').count(), 1, 'the end links back to the lobby');
    // The sound switch is the two-player page's: it toggles and is remembered.
    const pressed = await page.locator('#mute').getAttribute('aria-pressed');
    await page.click('#mute');
    assert.notEqual(await page.locator('#mute').getAttribute('aria-pressed'), pressed);
    assert.equal(await page.evaluate(() => localStorage.getItem('junqi.muted')), pressed === 'true' ? '0' : '1');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('on a 360 px phone a station is measured and the zoom makes it finger-sized', async (t) => {
  const browser = await launch();
  try {
    const ctx = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await register(page, `sp_${suffix()}`);
    await computerTable(page, 'opposite');
    await page.locator('#act-random').waitFor({ state: 'visible' });
    const target = () => page.locator('#board g[data-station="Sc3"] .hit').boundingBox();
    const before = await target();
    const measured = `one station's tap target at 360 px: ${before.width.toFixed(1)} × ${before.height.toFixed(1)} CSS px`;
    t.diagnostic(measured);
    console.log(measured);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), 'the page is no wider than the phone');
    // While deploying, the bar with 出征 stays in view at the bottom of the screen.
    const bar = await page.locator('#act-deployed').boundingBox();
    assert.ok(bar && bar.y + bar.height <= PHONE.height + 0.5, `出征 in view: ${JSON.stringify(bar)}`);
    if (before.width < 28) {
      await page.locator('#zoom').waitFor({ state: 'visible' });
      await page.locator('#zoom').tap();
      assert.equal(await page.locator('#zoom').getAttribute('aria-pressed'), 'true');
      const after = await target();
      const zoomed = `zoomed: ${after.width.toFixed(1)} × ${after.height.toFixed(1)} CSS px`;
      t.diagnostic(zoomed);
      console.log(zoomed);
      assert.ok(after.width >= 28 && after.height >= 28, zoomed);
      // The frame shows one's own area: its stations lie inside the frame.
      const frame = await page.locator('#board-scroll').boundingBox();
      for (const st of ['Sa1', 'Se1', 'Sa6', 'Se6']) {
        const b = await page.locator(`#board g[data-station="${st}"] .hit`).boundingBox();
        assert.ok(b.x >= frame.x - 0.5 && b.x + b.width <= frame.x + frame.width + 0.5
          && b.y >= frame.y - 0.5 && b.y + b.height <= frame.y + frame.height + 0.5, `${st} is in the zoomed frame`);
      }
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), 'zoomed, the page is still no wider');
      // Taps still work zoomed: two own pieces are swapped.
      const own = await pieces(page);
      const plain = own.filter((p) => ['a2', 'b2', 'c2', 'd2', 'e2'].includes(p.at.slice(1)) && !['flag', 'mine', 'bomb'].includes(p.piece));
      const a = plain[0];
      const b = plain.find((p) => p.piece !== a.piece);
      if (a && b) {
        const v = await version(page);
        await page.locator(`#board g[data-station="${a.at}"]`).tap();
        await page.locator(`#board g[data-station="${b.at}"]`).tap();
        await newerThan(page, v);
        assert.equal(await page.locator(`#board g[data-station="${a.at}"] .piece`).getAttribute('data-piece'), b.piece);
      }
      await page.locator('#zoom').tap();
      assert.equal(await page.locator('#zoom').getAttribute('aria-pressed'), 'false');
      const back = await target();
      assert.ok(Math.abs(back.width - before.width) < 0.5, 'the whole board again');
    }
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('the invite link seats a friend in the seat it names; the creator seats the computer', async () => {
  const browser = await launch();
  try {
    const ca = await browser.newContext({ viewport: DESKTOP });
    const cb = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const pa = await ca.newPage();
    const pb = await cb.newPage();
    const errors = [];
    for (const p of [pa, pb]) p.on('pageerror', (e) => errors.push(e.message));
    const s = suffix();
    const alice = `sa_${s}`;
    const bob = `sb_${s}`;
    await register(pa, alice);
    await register(pb, bob);
    const res = await pa.request.post(`${BASE}/api/tables`, { data: { seconds_per_action: 30 } });
    assert.equal(res.status(), 201, await res.text());
    const { id } = await res.json();
    await pa.goto(`${BASE}/game/${id}`);
    await pa.locator('#open-panel').waitFor({ state: 'visible' });
    await pa.selectOption('#invite-seat', 'east');
    const link = await pa.locator('#invite-link').inputValue();
    assert.equal(link, `${BASE}/game/${id}?seat=east`);
    // Every empty seat offers 坐下 and, to the creator, the computer.
    for (const seat of ['east', 'north', 'west']) {
      assert.ok(await pa.locator(`.seat-card[data-seat="${seat}"] .sc-computer`).isVisible(), `the computer for ${seat}`);
    }
    await pb.goto(link);
    await pb.locator('#card-bottom[data-seat="east"]').waitFor({ timeout: 10000 });
    await pb.waitForFunction((n) => document.querySelector('#card-bottom .sc-name')?.textContent === n, bob);
    // Each sees the other: Bob east of Alice (her right), Alice south of Bob (his left).
    await pa.waitForFunction((n) => document.querySelector('#card-right[data-seat="east"] .sc-name')?.textContent === n, bob);
    assert.equal(await pb.locator('#card-left').getAttribute('data-seat'), 'south');
    assert.equal(await pb.locator('#card-left .sc-name').innerText(), alice);
    assert.equal(await pb.locator('.seat-card[data-seat="north"] .sc-computer').isVisible(), false, 'only the creator seats the computer');
    // The creator seats the computer in the two seats left; both press ready.
    for (const seat of ['north', 'west']) {
      await pa.locator(`.seat-card[data-seat="${seat}"] .sc-level`).selectOption('easy');
      await pa.locator(`.seat-card[data-seat="${seat}"] .sc-add-computer`).click();
      await pa.waitForFunction((st) => document.querySelector(`.seat-card[data-seat="${st}"] .sc-kind`)?.textContent === '电脑', seat);
    }
    await pa.click('#act-ready');
    await pb.locator('#act-ready').tap();
    for (const p of [pa, pb]) await p.locator('#act-random').waitFor({ state: 'visible', timeout: 10000 });
    assert.equal(await pb.locator('#open-panel').isVisible(), false, 'the invite goes once the table starts');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('不行动 counts on the card, and the defeating 5th is asked first and then shown', async () => {
  const browser = await launch();
  try {
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await register(page, `ss_${suffix()}`);
    await computerTable(page, 'none', { random_pieces: true });
    await page.locator('#act-deployed').waitFor({ state: 'visible' });
    // 乱战: the hand dealt is listed, and it is what the area holds.
    const hand = JSON.parse(await page.locator('#deploy-hand').getAttribute('data-hand'));
    const placed = {};
    for (const p of await pieces(page)) placed[p.piece] = (placed[p.piece] || 0) + 1;
    assert.deepEqual(Object.fromEntries(Object.entries(hand).filter(([, n]) => n > 0).sort()), Object.fromEntries(Object.entries(placed).sort()));
    assert.match(await page.locator('#deploy-hand').innerText(), /乱战发到的棋子：/);
    await page.click('#act-deployed');
    for (let n = 0; n < 5; n++) {
      await page.locator('#act-pass').waitFor({ state: 'visible', timeout: 20000 });
      assert.equal(await page.locator('#card-bottom .sc-timeouts').innerText(), `超时/不行动 ${n}/5`);
      const v = await version(page);
      await page.click('#act-pass');
      if (n === 4) {
        await page.locator('#confirm-sheet').waitFor({ state: 'visible' });
        assert.match(await page.locator('#confirm-text').innerText(), /第 5 次/);
        await page.click('#confirm-ok');
      }
      await newerThan(page, v);
    }
    await page.locator('#card-bottom[data-state="defeated"]').waitFor({ timeout: 10000 });
    assert.match(await page.locator('#card-bottom .sc-tags').innerText(), /出局：超时或不行动满 5 次/);
    assert.equal(await page.locator('#act-pass').isVisible(), false);
    // The three computers play on to the end; then the replay steps through the game
    // from the whole start (every layout named) to the board it ended with.
    await page.locator('#result').waitFor({ state: 'visible', timeout: 120000 });
    const end = await pieces(page);
    await page.locator('#replay-bar').waitFor({ state: 'visible' });
    // The browser checked the layouts and the dealt hands against their commitments.
    await page.locator('#replay-verified[data-layouts="ok"][data-hands="ok"]').waitFor({ timeout: 20000 });
    await page.click('#replay-first');
    await page.waitForFunction(() => /^0 \/ \d+$/.test(document.getElementById('replay-at')?.textContent ?? ''));
    const total = Number((await page.locator('#replay-at').innerText()).split('/')[1]);
    assert.ok(total > 5, `a replay of ${total} actions`);
    const start = await pieces(page);
    assert.equal(start.length, 100, 'the start shows all four armies');
    assert.ok(start.every((p) => p.piece), 'every layout is named in the replay');
    await page.click('#replay-next');
    await page.waitForFunction(() => (document.getElementById('replay-at')?.textContent ?? '').startsWith('1 /'));
    await page.click('#replay-last');
    await page.waitForFunction((n) => document.getElementById('replay-at')?.textContent === `${n} / ${n}`, total);
    const last = await pieces(page);
    const key = (ps) => ps.map((p) => `${p.at}:${p.seat}:${p.piece}`).sort();
    assert.deepEqual(key(last), key(end), 'the replay ends where the game did');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('the sheets a table message asks for: a draw offer with who agreed, and the ally\'s play on?', async () => {
  const browser = await launch();
  try {
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await register(page, `sd_${suffix()}`);
    // The real server behind the page's socket, with a way to show the page a table
    // message as the server would send it when an offer is open or an ally dropped out
    // (the computers answer offers at once and never drop out). The page's answers to
    // those are kept and acknowledged here.
    const sent = [];
    /** Wakes a wait for the page's next answer. */
    let answered = () => {};
    /** Waits until the page has sent `n` answers (failing after 20 s). */
    const answers = async (n) => {
      const limit = Date.now() + 20000;
      while (sent.length < n) {
        assert.ok(Date.now() < limit, `the page sent ${sent.length} of ${n} answers`);
        await new Promise((r) => { answered = r; setTimeout(r, 1000); });
      }
    };
    let toPage = null;
    let last = null;
    await page.routeWebSocket(/\/ws\/game\//, (ws) => {
      const server = ws.connectToServer();
      toPage = (m) => ws.send(JSON.stringify(m));
      ws.onMessage((text) => {
        const m = JSON.parse(String(text));
        if (['accept_draw', 'decline_draw', 'play_on'].includes(m.t)) {
          sent.push(m);
          answered();
          ws.send(JSON.stringify({ t: 'ack', a: m.a, v: last ? last.v : 0 }));
          return;
        }
        server.send(text);
      });
      server.onMessage((text) => {
        const m = JSON.parse(String(text));
        if (m.t === 'table') last = m;
        ws.send(text);
      });
    });
    await computerTable(page, 'opposite');
    await page.locator('#act-deployed').waitFor({ state: 'visible' });
    await page.click('#act-deployed');
    await page.waitForFunction(() => (document.getElementById('status')?.textContent ?? '').includes('轮到你'), null, { timeout: 20000 });
    const as = (d) => ({ t: 'table', v: last.v, d: { ...last.d, ...d, can: { ...last.d.can, ...(d.can || {}) } } });
    toPage(as({ draw: { by: 'east', agreed: ['west'] }, can: { answer_draw: true } }));
    await page.locator('#draw-sheet').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#draw-text').innerText(), '东方提出和棋');
    assert.equal(await page.locator('#draw-agreed li').innerText(), '西方已同意');
    await page.click('#accept-draw');
    await answers(1);
    assert.deepEqual(sent.map((m) => m.t), ['accept_draw']);
    // Agreed: the sheet stays with who agreed, without the answer buttons.
    toPage(as({ draw: { by: 'east', agreed: ['south', 'west'] } }));
    await page.locator('#draw-answer').waitFor({ state: 'hidden' });
    assert.equal(await page.locator('#draw-agreed li').count(), 2);
    toPage(as({}));
    await page.locator('#draw-sheet').waitFor({ state: 'hidden' });
    toPage(as({ can: { play_on: true } }));
    await page.locator('#play-on-sheet').waitFor({ state: 'visible' });
    await page.click('#play-on-yes');
    await answers(2);
    assert.deepEqual(sent[1], { t: 'play_on', a: sent[1].a, d: { yes: true } });
    toPage(as({}));
    await page.locator('#play-on-sheet').waitFor({ state: 'hidden' });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
