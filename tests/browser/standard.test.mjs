// Standard 军棋 in two browser contexts: Alice (desktop) opens a standard game from the
// lobby and Bob (a 360 px phone) joins it. Deployment: Alice takes a random layout, Bob
// swaps two pieces by clicking them (and sees a rule broken and mended), both press
// 出征. Play: Bob marks one of Alice's hidden pieces, Alice passes once, then both play
// by clicking the page's legal moves until the game ends (Alice resigns once 40 steps
// allow it). Afterwards the replay starts from both layouts, everything shown, steps to
// the last step, and the downloaded record passes `junqi verify`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BASE, JUNQI_BIN, PHONE, DESKTOP, launch, register, steps, whoseTurn, waitForSteps,
  replayStep, namedPieces, rng, autoConfirm,
} from './support.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SHOTS = path.join(HERE, 'screenshots');
const RANKED = ['marshal', 'general', 'major_general', 'brigadier', 'colonel', 'major', 'captain', 'lieutenant', 'engineer'];

const rankOf = (sq) => Number.parseInt(sq.slice(1), 10);
/** Ranks from a seat's own back row: 1 = back row … 6 = front rank. */
const depth = (seat, sq) => (seat === 'south' ? rankOf(sq) : 13 - rankOf(sq));
const HEADQUARTERS = ['b1', 'd1', 'b12', 'd12'];

// Plays one move on `page` by clicking: a random piece the page marks as movable, then a
// random square of its move guide. Answers {from, to} or null when nothing can move.
async function clickMove(page, rand) {
  const squares = await page.evaluate(() => Array.from(
    document.querySelectorAll('#board g.is-actionable[data-square]:has(.piece[data-piece])'),
    (g) => g.getAttribute('data-square'),
  ));
  while (squares.length) {
    const from = squares.splice(Math.floor(rand() * squares.length), 1)[0];
    await page.locator(`#board g[data-square="${from}"]`).click();
    const dests = await page.evaluate(() => Array.from(
      document.querySelectorAll('#board g.is-dest[data-square]'),
      (g) => ({
        sq: g.getAttribute('data-square'),
        piece: g.querySelector('.piece')?.getAttribute('data-piece') ?? null,
        colour: g.querySelector('.piece')?.getAttribute('data-colour') ?? null,
      }),
    ));
    if (!dests.length) continue;
    const mine = await page.locator(`#board g[data-square="${from}"] .piece`).getAttribute('data-colour');
    for (const d of dests) {
      // The guide frames empty squares and enemy pieces only.
      assert.ok(d.colour === null || (d.colour !== mine && d.piece === null), `the guide for ${from} frames ${d.sq}`);
    }
    // Attacks now and then, so pieces meet.
    const attacks = dests.filter((d) => d.colour);
    const pool = attacks.length && rand() < 0.5 ? attacks : dests;
    const to = pool[Math.floor(rand() * pool.length)].sq;
    await page.locator(`#board g[data-square="${to}"]`).click();
    return { from, to };
  }
  return null;
}

test('two players deploy, play standard 军棋 by clicking, and replay it', async (t) => {
  assert.ok(BASE, 'JUNQI_URL names the server under test');
  mkdirSync(SHOTS, { recursive: true });
  const browser = await launch();
  try {
    const ca = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
    const cb = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const pa = await ca.newPage();
    const pb = await cb.newPage();
    const errors = [];
    for (const p of [pa, pb]) {
      p.on('pageerror', (e) => errors.push(e.message));
      // Console errors too, but for the site's missing favicon (not this page's doing).
      p.on('console', (m) => {
        if (m.type() === 'error' && !/\/favicon\.ico$/.test(m.location().url || '')) errors.push(`console: ${m.text()} ${m.location().url}`);
      });
    }
    for (const p of [pa, pb]) await autoConfirm(p);
    const suffix = Date.now().toString(36).slice(-6);
    const alice = `sa_${suffix}`;
    const bob = `sb_${suffix}`;
    await register(pa, alice);
    await register(pb, bob);

    await pb.goto(`${BASE}/`);
    await pa.goto(`${BASE}/`);
    await pa.selectOption('#variant', 'standard');
    await pa.click('#create');
    await pa.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
    const id = pa.url().split('/').pop();
    const join = pb.locator(`li.open-game[data-game-id="${id}"] .join-game`);
    await join.waitFor({ timeout: 10000 });
    await join.click();
    await pb.waitForURL(`${BASE}/game/${id}`);
    const pages = [pa, pb];

    const started = await (await pa.request.get(`${BASE}/api/games/${id}`)).json();
    assert.equal(started.variant, 'standard');
    const seatOf = (name) => (started.players.south.username === name ? 'south' : 'north');
    const aSeat = seatOf(alice);
    const bSeat = seatOf(bob);
    assert.notEqual(aSeat, bSeat);

    await t.test('deployment: a random layout, a swap by clicking, rules shown, 出征', async () => {
      for (const p of pages) await p.locator('#deploy-panel').waitFor({ state: 'visible', timeout: 15000 });
      // Each player sees their own 25 pieces on their own half, and nothing of the other.
      for (const [p, seat] of [[pa, aSeat], [pb, bSeat]]) {
        await p.waitForFunction(() => document.querySelectorAll('#board .piece[data-piece]').length === 25);
        const mine = await namedPieces(p);
        assert.equal(Object.keys(mine).length, 25);
        for (const sq of Object.keys(mine)) assert.ok(depth(seat, sq) >= 1 && depth(seat, sq) <= 6, `${sq} is on ${seat}'s half`);
        assert.equal(await p.locator('#board .piece').count(), 25, 'no enemy pieces while deploying');
        assert.match(await p.locator('#deploy-ready').innerText(), /未就绪/);
        const left = Number.parseInt(await p.locator('#deploy-clock-num').innerText(), 10);
        assert.ok(left > 0 && left <= 120, `deployment countdown ${left}`);
        await p.waitForFunction(() => !document.querySelector('#deploy-go').disabled);
        // The board is drawn from the player's own side: their back row at the bottom.
        const ys = await p.evaluate(() => ['a1', 'a12'].map((sq) => document.querySelector(`#board g[data-square="${sq}"] .hit`).getBoundingClientRect().y));
        assert.ok(seat === 'south' ? ys[0] > ys[1] : ys[0] < ys[1], `${seat} sees its own half at the bottom`);
      }
      // On Bob's phone the deployment controls stay on screen wherever he scrolls.
      for (const y of [0, 100000]) {
        await pb.evaluate((to) => window.scrollTo(0, to), y);
        for (const sel of ['#deploy-go', '#deploy-random', '#deploy-clock']) {
          const b = await pb.locator(sel).boundingBox();
          assert.ok(b && b.y >= 0 && b.y + b.height <= PHONE.height, `${sel} is on screen at scroll ${y} (${JSON.stringify(b)})`);
        }
      }
      await pb.evaluate(() => window.scrollTo(0, 0));
      // The cards show each player's standard score and rank, not the flip ones.
      for (const [p, name] of [[pa, alice], [pb, bob]]) {
        const info = await (await p.request.get(`${BASE}/api/players/${name}?variant=standard`)).json();
        const card = p.locator('#player-bottom .pc-rank');
        await p.waitForFunction(() => /分/.test(document.querySelector('#player-bottom .pc-rank').textContent));
        assert.equal(await card.getAttribute('data-variant'), 'standard');
        assert.match(await card.innerText(), new RegExp(`${info.rank.chinese} · ${info.score} 分`));
      }
      await pb.screenshot({ path: path.join(SHOTS, 'standard-deploy-360.png'), fullPage: true });
      const wide = await pb.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= PHONE.width, `the deployment fits 360 px (${wide})`);

      // Alice: 随机布阵.
      const before = JSON.stringify(await namedPieces(pa));
      await pa.click('#deploy-random');
      await pa.waitForFunction((b) => {
        const out = {};
        for (const p of document.querySelectorAll('#board g[data-square] .piece[data-piece]')) {
          out[p.closest('g[data-square]').getAttribute('data-square')] = p.getAttribute('data-piece');
        }
        return Object.keys(out).length === 25 && JSON.stringify(out) !== b;
      }, before);

      // Bob: a mine onto the front rank breaks a rule, shown on the board and in words,
      // and 出征 waits; swapping back mends it.
      const layout = await namedPieces(pb);
      const mine = Object.keys(layout).find((sq) => layout[sq] === 'mine');
      const front = Object.keys(layout).find((sq) => depth(bSeat, sq) === 6 && RANKED.includes(layout[sq]));
      assert.ok(mine && front, `a mine and a front-rank piece in ${JSON.stringify(layout)}`);
      await pb.locator(`#board g[data-square="${mine}"]`).click();
      assert.equal(await pb.locator(`#board g[data-square="${mine}"].is-selected`).count(), 1);
      await pb.locator(`#board g[data-square="${front}"]`).click();
      await pb.locator(`#board g[data-square="${front}"].is-bad .piece[data-piece="mine"]`).waitFor();
      await pb.locator('#deploy-problems').waitFor({ state: 'visible' });
      assert.match(await pb.locator('#deploy-violations').innerText(), new RegExp(`${front}：地雷只能放在最后两排`));
      assert.equal(await pb.locator('#deploy-go').isDisabled(), true, '出征 waits while a rule is broken');
      await pb.screenshot({ path: path.join(SHOTS, 'standard-deploy-rule-360.png'), fullPage: true });
      await pb.locator(`#board g[data-square="${front}"]`).click();
      await pb.locator(`#board g[data-square="${mine}"]`).click();
      await pb.locator('#deploy-problems').waitFor({ state: 'hidden' });
      assert.equal(await pb.locator('#board g.is-bad').count(), 0);
      assert.deepEqual(await namedPieces(pb), layout);

      // Bob: swap two different ranked pieces; the board shows them swapped.
      const ranked = Object.keys(layout).filter((sq) => RANKED.includes(layout[sq]));
      const x = ranked[0];
      const y = ranked.find((sq) => layout[sq] !== layout[x]);
      await pb.locator(`#board g[data-square="${x}"]`).click();
      await pb.locator(`#board g[data-square="${y}"]`).click();
      await pb.locator(`#board g[data-square="${x}"] .piece[data-piece="${layout[y]}"]`).waitFor();
      await pb.locator(`#board g[data-square="${y}"] .piece[data-piece="${layout[x]}"]`).waitFor();
      const swapped = await namedPieces(pb);
      assert.deepEqual(swapped, { ...layout, [x]: layout[y], [y]: layout[x] });

      // Alice is ready first (and so moves first); Bob sees only that.
      await pa.click('#deploy-go');
      await pa.locator('#deploy-go', { hasText: '已出征' }).waitFor();
      assert.equal(await pa.locator('#deploy-tools').isVisible(), false, 'the layout is locked');
      // On the phone the sheet is one line (clock, 随机, 出征); its expander shows the rest.
      assert.equal(await pb.locator('#deploy-ready').isVisible(), false, 'one line on a phone');
      await pb.click('#deploy-more');
      await pb.locator(`#deploy-ready li[data-seat="${aSeat}"][data-ready="yes"]`).waitFor();
      assert.match(await pb.locator(`#deploy-ready li[data-seat="${aSeat}"]`).innerText(), /已就绪/);
      await pb.click('#deploy-go');

      // Play begins: each side sees its own pieces named and the other's as blank backs.
      for (const [p, seat] of [[pa, aSeat], [pb, bSeat]]) {
        await p.locator('#deploy-panel').waitFor({ state: 'hidden' });
        await p.waitForFunction(() => document.querySelectorAll('#board .piece').length === 50);
        const named = await namedPieces(p);
        assert.equal(Object.keys(named).length, 25);
        for (const sq of Object.keys(named)) assert.ok(depth(seat, sq) <= 6, `${sq} named on ${seat}'s page`);
        assert.equal(await p.locator('#board .piece:not([data-piece])[data-colour]').count(), 25);
      }
      assert.deepEqual(await namedPieces(pb), swapped, 'Bob plays with the layout he made');
      assert.equal(await whoseTurn(pages), pa, 'the first ready moves first');
    });

    await t.test('marks: Bob marks a hidden piece of Alice; the mark survives a reload', async () => {
      const target = await pb.evaluate(() => document.querySelector('#board g[data-square]:has(.piece:not([data-piece]))').getAttribute('data-square'));
      await pb.locator(`#board g[data-square="${target}"]`).click();
      const menu = pb.locator('#mark-menu');
      await menu.waitFor({ state: 'visible' });
      assert.equal(await menu.locator('button.mark-choice').count(), 18);
      await pb.screenshot({ path: path.join(SHOTS, 'standard-marks-360.png'), fullPage: false });
      const box = await menu.boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `the menu fits the phone (${box.x}+${box.width})`);
      await menu.locator('button[data-mark="旅"]').click();
      await menu.waitFor({ state: 'detached' });
      const marked = pb.locator(`#board g[data-square="${target}"] .piece[data-mark="旅"]`);
      await marked.waitFor();
      assert.equal(await pb.locator(`#board g[data-square="${target}"] .mark-text`).textContent(), '旅');
      await pb.screenshot({ path: path.join(SHOTS, 'standard-marked-360.png'), fullPage: false });
      // Private: Alice sees no marks.
      assert.equal(await pa.locator('#board .piece[data-mark]').count(), 0);
      await pb.waitForTimeout(300); // the server's answer
      await pb.reload();
      await marked.waitFor({ timeout: 10000 });
      // 清 clears it again.
      await pb.locator(`#board g[data-square="${target}"]`).click();
      await pb.locator('#mark-menu button[data-mark="清"]').click();
      await pb.waitForFunction((sq) => !document.querySelector(`#board g[data-square="${sq}"] .piece[data-mark]`), target);
      // Own pieces open no menu.
      const own = await pb.evaluate(() => document.querySelector('#board g[data-square]:has(.piece[data-piece])').getAttribute('data-square'));
      await pb.locator(`#board g[data-square="${own}"]`).click();
      assert.equal(await pb.locator('#mark-menu').count(), 0);
    });

    let summary;
    await t.test('play by clicking until the end (a pass, moves, resignation after 40 steps)', async () => {
      // Alice passes her first turn: it counts like a timeout.
      await pa.locator('#pass').waitFor({ state: 'visible' });
      await pa.click('#pass');
      await waitForSteps(pages, 1);
      for (const p of pages) {
        const card = p.locator(`.player-card[data-seat="${aSeat}"] .pc-timeouts`);
        await p.waitForFunction((s) => /1\/5/.test(document.querySelector(`.player-card[data-seat="${s}"] .pc-timeouts`).textContent), aSeat);
        assert.match(await card.innerText(), /超时\/不行动 1\/5/);
      }
      assert.equal(await pa.locator('#resign').isDisabled(), true, 'resigning opens after 40 steps');
      assert.match(await pa.locator('#quiet').innerText(), /^1 \/ 70$/);

      const rand = rng(20260521);
      let resigned = false;
      for (let i = 0; i < 400; i++) {
        if (await pa.locator('#result').isVisible()) break;
        const n = await steps(pa);
        if (n >= 40 && !resigned) {
          assert.equal(await pa.locator('#resign').isEnabled(), true, 'resign is open after 40 steps');
          await pa.click('#resign');
          resigned = true;
          break;
        }
        if (n === 24) {
          await pa.screenshot({ path: path.join(SHOTS, 'standard-live-1280.png'), fullPage: false });
          await pb.screenshot({ path: path.join(SHOTS, 'standard-live-360.png'), fullPage: true });
        }
        const page = await whoseTurn(pages);
        const move = await clickMove(page, rand);
        if (!move) {
          // Nothing to move: pass.
          await page.click('#pass');
        }
        await waitForSteps(pages, n + 1).catch(async (e) => {
          if (!(await pa.locator('#result').isVisible())) throw e;
        });
        if (move && !(await pa.locator('#result').isVisible())) {
          for (const p of pages) {
            const route = (await p.locator('#board').getAttribute('data-path')).split(' ');
            assert.equal(route[0], move.from, `route ${route.join(' ')}`);
            assert.equal(route[route.length - 1], move.to, `route ${route.join(' ')}`);
          }
        }
      }
      for (const p of pages) await p.locator('#result').waitFor({ state: 'visible', timeout: 15000 });
      summary = await (await pa.request.get(`${BASE}/api/games/${id}`)).json();
      assert.equal(summary.status, 'finished');
      if (resigned) {
        assert.equal(summary.reason, 'resign');
        assert.equal(await pa.locator('#result-word').innerText(), '负');
        assert.equal(await pb.locator('#result-word').innerText(), '胜');
      }
      // The end panel's ranks are the standard ladder's.
      for (const [p, name] of [[pa, alice], [pb, bob]]) {
        await p.locator('#result-rank .rank-block[data-variant="standard"]').first().waitFor();
        const info = await (await p.request.get(`${BASE}/api/players/${name}?variant=standard`)).json();
        await p.locator('#result-rank .rank-score', { hasText: `${info.score} 分` }).waitFor({ timeout: 5000 });
        assert.equal(await p.locator('#result-rank .rank-block').first().getAttribute('data-variant'), 'standard');
      }
      // The log describes moves without naming Alice's pieces on Bob's page.
      assert.match(await pb.locator('#log').innerText(), /→/);
      const aColour = aSeat === 'south' ? 'red' : 'blue';
      assert.equal(await pb.locator(`#log .pc-name-inline.pc-${aColour}`).count(), 0, "Bob's log names none of Alice's pieces");
      await pb.screenshot({ path: path.join(SHOTS, 'standard-end-360.png'), fullPage: true });
    });

    await t.test('the replay starts from both layouts and steps to the end', async () => {
      const record = await (await pa.request.get(`${BASE}/api/games/${id}/record`)).json();
      assert.ok(record.layouts && record.layouts.south && record.layouts.north, 'the record has both layouts');
      const stepActions = record.actions.filter((x) => x.move || x.timeout || x.pass);
      assert.equal(stepActions.length, summary.steps);
      await pa.locator('#replay').waitFor({ state: 'visible', timeout: 15000 });
      assert.deepEqual(await replayStep(pa), { step: summary.steps, total: summary.steps });
      await pa.click('#replay-first');
      assert.deepEqual(await replayStep(pa), { step: 0, total: summary.steps });
      // Everything shown: 50 pieces, each named, in the two layouts.
      const start = await namedPieces(pa);
      assert.equal(Object.keys(start).length, 50);
      for (const seat of ['south', 'north']) {
        for (const [sq, p] of Object.entries(record.layouts[seat])) {
          assert.equal(start[sq], typeof p === 'string' ? p : p.piece, `${seat} ${sq}`);
        }
      }
      assert.equal(await pa.locator('#board .piece[data-colour="red"]').count(), 25);
      assert.equal(await pa.locator('#board .piece[data-colour="blue"]').count(), 25);
      let clicks = 0;
      while (await pa.locator('#replay-next').isEnabled()) {
        await pa.click('#replay-next');
        clicks++;
        const act = stepActions[clicks - 1];
        assert.deepEqual(await replayStep(pa), { step: clicks, total: summary.steps });
        if (act.move) {
          const route = (await pa.locator('#board').getAttribute('data-path')).split(' ');
          assert.equal(route[0], act.move.from);
          assert.equal(route[route.length - 1], act.move.to);
        }
        assert.ok(clicks <= summary.steps, 'the replay stops at the last step');
      }
      assert.equal(clicks, summary.steps, 'one click per step of the game');
      assert.equal(await pa.locator('#replay-last').isDisabled(), true);
      // The replay (combat resolved in the browser) ends where the server's game ended.
      const end = await namedPieces(pa);
      const final = await pa.evaluate((gid) => new Promise((resolve, reject) => {
        const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws/game/${gid}`);
        ws.onmessage = (e) => {
          const m = JSON.parse(e.data);
          if (m.t === 'state') {
            ws.close();
            resolve(m.d.view.board);
          }
        };
        ws.onerror = () => reject(new Error('socket'));
      }), id);
      const finalPieces = Object.fromEntries(Object.entries(final).map(([sq, c]) => [sq, c.piece]));
      assert.deepEqual(end, finalPieces, 'the replay ends where the game ended');
    });

    await t.test('the layouts are verified and the downloaded record passes junqi verify', async (st) => {
      const badge = pa.locator('#deal-verified');
      await badge.waitFor({ state: 'visible' });
      assert.match(await badge.innerText(), /布阵已验证/);
      await pa.waitForFunction(() => document.querySelector('#deal-verified').dataset.browser === 'ok');
      const link = pa.locator('#download-record');
      const [download] = await Promise.all([pa.waitForEvent('download'), link.click()]);
      const dir = mkdtempSync(path.join(tmpdir(), 'junqi-standard-'));
      try {
        const file = path.join(dir, download.suggestedFilename());
        await download.saveAs(file);
        const saved = JSON.parse(readFileSync(file, 'utf8'));
        assert.equal(saved.variant, 'standard');
        if (!JUNQI_BIN) {
          st.skip('JUNQI_BIN is not set: junqi verify not run');
          return;
        }
        const out = JSON.parse(execFileSync(JUNQI_BIN, ['verify', file], { encoding: 'utf8' }).trim());
        assert.equal(out.valid, true, JSON.stringify(out));
        assert.equal(out.steps, summary.steps);
        assert.equal(out.result, summary.result);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    await t.test('English: the deployment words and the replay', async () => {
      await Promise.all([pa.waitForURL(/[?&]lang=en/), pa.click('#lang-switch')]);
      await pa.locator('#replay').waitFor({ state: 'visible' });
      // The badge is worded once the record has come, which may be after the replay shows.
      await pa.locator('#deal-verified', { hasText: 'Layouts verified' }).waitFor({ timeout: 5000 });
      assert.match(await pa.locator('#deal-verified').innerText(), /Layouts verified/);
      assert.match(await pa.locator('#game-kind').innerText(), /Junqi/);
      await Promise.all([pa.waitForURL(/[?&]lang=zh/), pa.click('#lang-switch')]);
    });

    assert.deepEqual(errors, [], 'no script errors on the pages');
  } finally {
    await browser.close();
  }
});
