// Two people, two browser contexts: register, meet in the lobby, play a game by clicking
// (Bob on a 360 px phone screen) until one side resigns, and both see the result and the
// score change. Then the finished game's page: the replay steps through the whole game,
// a #step=N link opens at that step, the deal is verified, the downloaded record passes
// `junqi verify`, the board fits and stays tappable at 360 and 1280 px, and the language
// switch turns the pages English and back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { autoConfirm, takeAsked } from './support.mjs';

const BASE = process.env.JUNQI_URL;
const JUNQI_BIN = process.env.JUNQI_BIN;
const HERE = path.dirname(fileURLToPath(import.meta.url));
const SHOTS = path.join(HERE, 'screenshots');
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

async function register(page, name) {
  await page.goto(`${BASE}/register`);
  await page.fill('#username', name);
  await page.fill('#password', 'correct horse battery');
  await page.click('#submit');
  await page.waitForURL(`${BASE}/`);
  await page.locator('#account-name', { hasText: name }).waitFor();
}

async function steps(page) {
  const text = await page.locator('#steps').innerText();
  return Number.parseInt(text, 10);
}

// The page whose status line says it is this player's turn.
async function whoseTurn(pages) {
  for (let i = 0; i < 200; i++) {
    for (const p of pages) {
      const status = await p.locator('#status').innerText();
      if (status.includes('轮到你')) return p;
    }
    await pages[0].waitForTimeout(50);
  }
  throw new Error('neither page shows its turn');
}

async function waitForSteps(pages, n) {
  for (const p of pages) {
    await p.waitForFunction(
      (want) => Number.parseInt(document.querySelector('#steps')?.textContent ?? '0', 10) >= want,
      n,
    );
  }
}

// Flips a face-down piece by clicking it.
async function flipOne(page) {
  const target = page.locator('g[data-square]:has(.piece[data-face="down"])').first();
  await target.click();
}

// Moves one of the player's pieces: click a piece; if the board marks destinations,
// check the move guide and click the first one, otherwise try the next piece.
// Answers {from, to, warned} or null.
async function moveOne(page) {
  const pieces = page.locator('g.is-actionable:has(.piece[data-face="up"])');
  const n = await pieces.count();
  for (let i = 0; i < n; i++) {
    const piece = pieces.nth(i);
    const from = await piece.getAttribute('data-square');
    await piece.click();
    const dest = page.locator('g[data-square].is-dest');
    if ((await dest.count()) > 0) {
      // The guide frames empty squares and enemy face-up pieces only, never one's own
      // pieces or face-down ones.
      const guide = await page.evaluate((sq) => {
        const mine = document.querySelector(`g[data-square="${sq}"] .piece`).getAttribute('data-colour');
        return Array.from(document.querySelectorAll('g.is-dest')).map((g) => {
          const p = g.querySelector('.piece');
          return {
            sq: g.getAttribute('data-square'),
            ok: !p || (p.getAttribute('data-face') === 'up' && p.getAttribute('data-colour') !== mine
              && g.classList.contains('is-target')),
          };
        });
      }, from);
      for (const g of guide) assert.ok(g.ok, `the guide for ${from} frames ${g.sq}`);
      const first = dest.first();
      const to = await first.getAttribute('data-square');
      const warned = await first.evaluate((g) => g.classList.contains('is-warn'));
      await first.click();
      return { from, to, warned };
    }
  }
  return null;
}

async function boardGeometry(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('#board');
    const r = svg.getBoundingClientRect();
    const centre = (sq) => {
      const b = document.querySelector(`#board g[data-square="${sq}"] .hit`).getBoundingClientRect();
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    };
    const a1 = centre('a1');
    const b1 = centre('b1');
    const a2 = centre('a2');
    return {
      left: r.left,
      right: r.right,
      width: r.width,
      height: r.height,
      dx: Math.abs(b1.x - a1.x),
      dy: Math.abs(a2.y - a1.y),
      viewport: window.innerWidth,
      scrollWidth: document.documentElement.scrollWidth,
    };
  });
}

function assertFits(geo, what) {
  assert.ok(geo.width > 200 && geo.height > 200, `${what}: the board is drawn (${geo.width}×${geo.height})`);
  assert.ok(geo.left >= 0 && geo.right <= geo.viewport + 0.5, `${what}: the board lies within the viewport (${geo.left}–${geo.right} of ${geo.viewport})`);
  assert.ok(geo.scrollWidth <= geo.viewport, `${what}: no sideways scrolling (${geo.scrollWidth} > ${geo.viewport})`);
  assert.ok(geo.dx >= 24 && geo.dy >= 24, `${what}: stations ${geo.dx.toFixed(1)}×${geo.dy.toFixed(1)} px apart stay tappable`);
}

async function replayStep(page) {
  const text = await page.locator('#replay-step').innerText();
  const m = /^(\d+) \/ (\d+)$/.exec(text.trim());
  assert.ok(m, `replay step text ${JSON.stringify(text)}`);
  return { step: Number(m[1]), total: Number(m[2]) };
}

test('two players meet in the lobby, play a game by clicking, and replay it', async (t) => {
  assert.ok(BASE, 'JUNQI_URL names the server under test');
  mkdirSync(SHOTS, { recursive: true });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
    headless: true,
  });
  try {
    const ca = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
    const cb = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const pa = await ca.newPage();
    const pb = await cb.newPage();
    const errors = [];
    for (const p of [pa, pb]) p.on('pageerror', (e) => errors.push(e.message));
    // A move that would repeat asks, and so does resigning: this player always confirms.
    for (const p of [pa, pb]) await autoConfirm(p);
    const suffix = Date.now().toString(36).slice(-6);
    const alice = `alice_${suffix}`;
    const bob = `bob_${suffix}`;
    await register(pa, alice);
    await register(pb, bob);

    // Bob watches the lobby before Alice opens a game: the list must update live.
    await pb.goto(`${BASE}/`);
    await pa.goto(`${BASE}/`);
    await pa.click('#create');
    await pa.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
    const id = pa.url().split('/').pop();
    const join = pb.locator(`li.open-game[data-game-id="${id}"] .join-game`);
    await join.waitFor({ timeout: 10000 });
    await join.click();
    await pb.waitForURL(`${BASE}/game/${id}`);

    const pages = [pa, pb];
    await whoseTurn(pages);
    // A move that would repeat asks for confirmation, and so does resigning; a player
    // here always confirms. A repetition question must follow a move the board marked.
    const dialogs = [];
    let lastMove = null;

    await t.test('play fifty steps by clicking, Bob on a 360 px screen', async () => {
      // Forty flips, then moves (or a flip when nothing can move) until fifty steps.
      for (let step = 0; step < 50 && !(await pa.locator('#result').isVisible()); step++) {
        const page = await whoseTurn(pages);
        const before = await steps(page);
        lastMove = step >= 40 ? await moveOne(page) : null;
        if (!lastMove) await flipOne(page);
        for (const message of await takeAsked(page)) dialogs.push({ message, move: lastMove });
        await waitForSteps(pages, before + 1);
        if (lastMove) {
          // Both boards mark the whole route of the last move, from … to.
          for (const p of pages) {
            const route = (await p.locator('#board').getAttribute('data-path')).split(' ');
            assert.equal(route[0], lastMove.from, `route ${route.join(' ')}`);
            assert.equal(route[route.length - 1], lastMove.to, `route ${route.join(' ')}`);
          }
        }
      }
      for (const d of dialogs) {
        if (/重复|repetition/.test(d.message)) assert.ok(d.move && d.move.warned, `warned on the board before: ${d.message}`);
      }
      await pb.screenshot({ path: path.join(SHOTS, 'game-live-360.png'), fullPage: false });
      assertFits(await boardGeometry(pb), 'live game at 360 px');
    });

    await t.test('a draw offer reaches the phone as a sheet over the board', async () => {
      if (await pa.locator('#result').isVisible()) return;
      await pa.locator('#offer-draw').waitFor({ state: 'visible' });
      await pa.click('#offer-draw');
      const sheet = pb.locator('#draw-dialog');
      await sheet.waitFor({ state: 'visible' });
      // Wherever Bob has scrolled, the offer is on his screen.
      for (const y of [0, 100000]) {
        await pb.evaluate((to) => window.scrollTo(0, to), y);
        const b = await sheet.boundingBox();
        assert.ok(b && b.y >= 0 && b.y + b.height <= PHONE.height, `the offer is on screen (${JSON.stringify(b)})`);
      }
      await pb.screenshot({ path: path.join(SHOTS, 'game-draw-offer-360.png'), fullPage: false });
      await pb.click('#decline-draw');
      await sheet.waitFor({ state: 'hidden' });
      await pa.locator('#offer-note').waitFor({ state: 'hidden' });
    });

    await t.test('resign after fifty steps; both see the result, scores and ranks', async () => {
      if (!(await pa.locator('#result').isVisible())) {
        assert.ok((await steps(pa)) >= 50, 'fifty steps played');
        await pa.locator('#resign').waitFor({ state: 'visible' });
        assert.equal(await pa.locator('#resign').isEnabled(), true, 'resign is enabled after 50 steps');
        await pa.click('#resign');
        await pa.locator('#result').waitFor({ state: 'visible' });
        await pb.locator('#result').waitFor({ state: 'visible' });
        assert.equal(await pa.locator('#result-word').innerText(), '负');
        assert.equal(await pb.locator('#result-word').innerText(), '胜');
        assert.match(await pa.locator('#result-reason').innerText(), /认输/);
      }
      // On Bob's phone the result is a sheet on screen, not a card below the board.
      const sheet = await pb.locator('#result').boundingBox();
      assert.ok(sheet && sheet.y >= 0 && sheet.y + sheet.height <= PHONE.height, `the result is on screen (${JSON.stringify(sheet)})`);
      await pb.screenshot({ path: path.join(SHOTS, 'game-result-360.png'), fullPage: false });
      // Each score change is explained from the score table's row and the base.
      for (const p of pages) {
        const why = await p.locator('#result-scores .rs-why').allInnerTexts();
        assert.equal(why.length, 2, 'both changes explained');
        for (const w of why) assert.match(w, /^底分 1 × \d+（.+）= [+−]\d+$/, w);
      }
      // Each player's rank, with a bar toward the next rank.
      for (const p of pages) {
        await p.locator('#result-rank .rank-bar[role="progressbar"]').first().waitFor();
        assert.match(await p.locator('#result-rank').innerText(), /小兵/);
        assert.equal(await p.locator('#result-scores li').count(), 2);
        assert.equal(await p.locator('#rematch').isVisible(), true);
      }

      // The scores moved by the same amount in opposite directions.
      const me = async (page, name) => {
        const res = await page.request.get(`${BASE}/api/players/${name}`);
        assert.equal(res.status(), 200);
        return res.json();
      };
      const a = await me(pa, alice);
      const b = await me(pb, bob);
      assert.equal(a.games, 1);
      assert.equal(b.games, 1);
      assert.equal(a.score + b.score, 0, `scores ${a.score} and ${b.score} cancel out`);
      assert.notEqual(a.score, 0, 'a rated game that ended by resignation moves the score');
    });

    const summary = await (await pa.request.get(`${BASE}/api/games/${id}`)).json();
    assert.equal(summary.status, 'finished');
    assert.ok(['resign', 'flag', 'no_moves', 'repetition'].includes(summary.reason), summary.reason);
    const record = await (await pa.request.get(`${BASE}/api/games/${id}/record`)).json();
    const stepActions = record.actions.filter((x) => x.flip || x.move || x.timeout || x.pass);
    assert.equal(stepActions.length, summary.steps);

    await t.test('history, ladder and profile pages show the game, the scores and the ranks', async () => {
      const a = await (await pa.request.get(`${BASE}/api/players/${alice}`)).json();
      const b = await (await pa.request.get(`${BASE}/api/players/${bob}`)).json();
      const south = summary.players.south.username;
      const southScore = summary.score.south;
      const northScore = summary.score.north;

      // Everyone's history holds the game with its result, reason and deltas. Found by its
      // id, not as the newest row: the other browser tests' games end beside this one, and
      // on a busy machine one of them ended after it (seen beside `stress-ng --cpu 4`).
      await pa.goto(`${BASE}/games`);
      const row = pa.locator(`tr.game-row[data-game-id="${id}"]`);
      assert.equal(await row.count(), 1);
      assert.equal(await row.getAttribute('data-result'), summary.result);
      assert.equal(await row.getAttribute('data-reason'), summary.reason);
      const deltas = await row.locator('.delta').evaluateAll((els) => els.map((e) => e.dataset.delta));
      const signed = (n) => (n > 0 ? `+${n}` : `${n}`);
      assert.deepEqual(deltas, [signed(southScore), signed(northScore)]);
      assert.match(await row.innerText(), new RegExp(south));
      await row.locator('a').first().click();
      await pa.waitForURL(`${BASE}/game/${id}`);

      // A player's own history filtered to losses or wins holds it.
      const loser = a.score < 0 ? alice : bob;
      await pa.goto(`${BASE}/@/${loser}/games?result=loss`);
      assert.equal(await pa.locator('tr.game-row').first().getAttribute('data-game-id'), id);
      await pa.goto(`${BASE}/@/${loser}/games?result=win`);
      assert.equal(await pa.locator('tr.game-row').count(), 0);

      // The ladder: both players with their scores, the logged-in one highlighted.
      await pa.goto(`${BASE}/ladder`);
      for (const p of [a, b]) {
        const r = pa.locator(`tr.ladder-row[data-username="${p.username}"]`);
        assert.equal(await r.getAttribute('data-score'), String(p.score));
        assert.match(await r.innerText(), new RegExp(p.rank.chinese));
      }
      assert.equal(await pa.locator(`tr.ladder-row.me[data-username="${alice}"]`).count(), 1);
      assert.match(await pa.locator('#my-position').innerText(), /\d/);

      // The profile: score, rank, counts and the chart.
      await pa.goto(`${BASE}/@/${bob}`);
      assert.equal(await pa.locator('#score').getAttribute('data-score'), String(b.score));
      assert.match(await pa.locator('#rank').innerText(), new RegExp(b.rank.chinese));
      assert.equal(await pa.locator('#stat-games').innerText(), '1');
      assert.equal(await pa.locator('#score-chart svg polyline').count(), 1);
      assert.equal(await pa.locator('tr.game-row').first().getAttribute('data-game-id'), id);
      await pa.goto(`${BASE}/game/${id}`);
    });

    await t.test('the replay steps through the whole game', async () => {
      for (const p of pages) await p.locator('#replay').waitFor({ state: 'visible' });
      assert.deepEqual(await replayStep(pa), { step: summary.steps, total: summary.steps });
      await pa.click('#replay-first');
      assert.deepEqual(await replayStep(pa), { step: 0, total: summary.steps });
      // The deal revealed: every piece face down, and named.
      assert.equal(await pa.locator('#board .piece[data-face="down"][data-piece]').count(), 50);
      assert.equal(await pa.locator('#board .piece[data-face="up"]').count(), 0);
      assert.match(await pa.locator('#steps').innerText(), /^0 \/ 300/);
      assert.equal(await pa.locator('#replay-prev').isDisabled(), true);
      let clicks = 0;
      let flips = 0;
      while (await pa.locator('#replay-next').isEnabled()) {
        await pa.click('#replay-next');
        clicks++;
        const act = stepActions[clicks - 1];
        if (act.flip) flips++;
        const state = await pa.evaluate(() => ({
          step: document.querySelector('#replay-step').textContent,
          steps: document.querySelector('#steps').textContent,
          up: document.querySelectorAll('#board .piece[data-face="up"]').length,
          path: document.querySelector('#board').getAttribute('data-path'),
          current: document.querySelector('#replay-moves li.current')?.getAttribute('data-step'),
          dots: document.querySelectorAll('#tallies .dot-up').length,
        }));
        assert.equal(state.step, `${clicks} / ${summary.steps}`);
        assert.match(state.steps, new RegExp(`^${clicks} / 300`));
        assert.equal(state.current, String(clicks));
        if (act.flip && flips === clicks) {
          assert.equal(state.up, clicks, `after ${clicks} flips`);
          assert.equal(state.dots, clicks, 'one lit dot per face-up piece');
        }
        if (act.move) {
          const route = state.path.split(' ');
          assert.equal(route[0], act.move.from);
          assert.equal(route[route.length - 1], act.move.to);
        }
        assert.ok(clicks <= summary.steps, 'the replay stops at the last step');
      }
      assert.equal(clicks, summary.steps, 'one click per step of the game');
      assert.equal(await pa.locator('#replay-last').isDisabled(), true);
      // The arrow keys, and a click in the move list.
      await pa.keyboard.press('ArrowLeft');
      assert.equal((await replayStep(pa)).step, summary.steps - 1);
      await pa.keyboard.press('ArrowRight');
      assert.equal((await replayStep(pa)).step, summary.steps);
      await pa.locator('#replay-moves li[data-step="10"]').click();
      assert.equal((await replayStep(pa)).step, 10);
      assert.equal(await pa.locator('#board .piece[data-face="up"]').count(), 10);
      assert.match(pa.url(), /#step=10$/);
      await pa.click('#replay-last');
      assert.equal((await replayStep(pa)).step, summary.steps);
    });

    await t.test('a #step=N link opens the replay at step N', async () => {
      const n = 17;
      const p = await ca.newPage();
      await p.goto(`${BASE}/game/${id}#step=${n}`);
      await p.locator('#replay').waitFor({ state: 'visible' });
      await p.waitForFunction((want) => document.querySelector('#replay-step').textContent.startsWith(want + ' /'), n);
      assert.deepEqual(await replayStep(p), { step: n, total: summary.steps });
      assert.match(await p.locator('#steps').innerText(), new RegExp(`^${n} / 300`));
      assert.equal(await p.locator(`#replay-moves li[data-step="${n}"]`).getAttribute('aria-current'), 'step');
      assert.equal(await p.locator('#board .piece[data-face="up"]').count(), n, 'the first forty steps are flips');
      assert.equal(await p.locator('#board .piece[data-face="down"][data-piece]').count(), 50 - n);
      assert.match(await p.locator('#replay-share').getAttribute('href'), new RegExp(`#step=${n}$`));
      await p.close();
    });

    await t.test('the deal is verified and the downloaded record passes junqi verify', async (st) => {
      const badge = pa.locator('#deal-verified');
      await badge.waitFor({ state: 'visible' });
      assert.match(await badge.innerText(), /发牌已验证/);
      // The browser checked the SHA-256 commitment itself (127.0.0.1 is a secure context).
      await pa.waitForFunction(() => document.querySelector('#deal-verified').dataset.browser === 'ok');
      assert.equal(await pa.locator('#deal-unverified').isVisible(), false);

      const link = pa.locator('#download-record');
      assert.equal(await link.getAttribute('href'), `/api/games/${id}/record`);
      assert.equal(await link.getAttribute('download'), `junqi-${id}.json`);
      const [download] = await Promise.all([pa.waitForEvent('download'), link.click()]);
      assert.equal(download.suggestedFilename(), `junqi-${id}.json`);
      const dir = mkdtempSync(path.join(tmpdir(), 'junqi-record-'));
      try {
        const file = path.join(dir, download.suggestedFilename());
        await download.saveAs(file);
        const saved = JSON.parse(readFileSync(file, 'utf8'));
        assert.equal(saved.format, 'junqi-record/1');
        assert.equal(saved.verified, true);
        if (!JUNQI_BIN) {
          st.skip('JUNQI_BIN is not set: junqi verify not run');
          return;
        }
        const out = JSON.parse(execFileSync(JUNQI_BIN, ['verify', file], { encoding: 'utf8' }).trim());
        assert.equal(out.valid, true, JSON.stringify(out));
        assert.equal(out.commitment_checked, true);
        assert.equal(out.result, summary.result);
        assert.equal(out.reason, summary.reason);
        assert.equal(out.steps, summary.steps);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    await t.test('the pages fit at 360 px and 1280 px and the board stays tappable', async () => {
      // Bob's phone: the finished game, scrolled to the board and to the replay.
      await pb.reload();
      await pb.locator('#replay').waitFor({ state: 'visible' });
      assertFits(await boardGeometry(pb), 'finished game at 360 px');
      await pb.evaluate(() => window.scrollTo(0, 0));
      await pb.screenshot({ path: path.join(SHOTS, 'game-replay-360.png'), fullPage: true });
      // Tapping stays on target: a tap on a station lands on that station.
      const hit = await pb.evaluate(() => {
        const g = document.querySelector('#board g[data-square="c3"] .hit').getBoundingClientRect();
        const el = document.elementFromPoint(g.x + g.width / 2, g.y + g.height / 2);
        return el && el.closest('[data-square]') ? el.closest('[data-square]').getAttribute('data-square') : null;
      });
      assert.equal(hit, 'c3');
      // The replay's step bar stays at the bottom of the phone's screen, and taps on the
      // board's halves step through the game: a phone has no arrow keys.
      const bar = await pb.locator('.replay-controls').boundingBox();
      assert.ok(bar && Math.abs(bar.y + bar.height - PHONE.height) <= 1, `the step bar is docked at the bottom: ${JSON.stringify(bar)}`);
      assert.match(await pb.locator('#replay-hint').innerText(), /左半边/);
      await pb.click('#replay-first');
      assert.equal((await replayStep(pb)).step, 0);
      const board = await pb.locator('#board').boundingBox();
      assert.ok(board && board.y + board.height / 2 < bar.y, 'the board\'s middle is above the bar');
      const tapAt = async (fraction, want) => {
        await pb.mouse.click(board.x + board.width * fraction, board.y + board.height / 2);
        await pb.waitForFunction((n) => document.querySelector('#replay-step').dataset.step === n, String(want));
      };
      await tapAt(0.75, 1);
      await tapAt(0.75, 2);
      await tapAt(0.25, 1);
      await pb.click('#replay-last');
      // Alice's desktop.
      assertFits(await boardGeometry(pa), 'finished game at 1280 px');
      await pa.evaluate(() => window.scrollTo(0, 0));
      await pa.screenshot({ path: path.join(SHOTS, 'game-replay-1280.png'), fullPage: true });
      // The lobby and the login page on the phone.
      for (const [url, name] of [['/', 'lobby'], ['/login', 'login'], ['/register', 'register']]) {
        const p = await cb.newPage();
        await p.goto(`${BASE}${url}`);
        await p.locator('#lang-switch').waitFor();
        const wide = await p.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(wide <= PHONE.width, `${url} fits 360 px (${wide})`);
        await p.screenshot({ path: path.join(SHOTS, `${name}-360.png`), fullPage: true });
        await p.close();
      }
    });

    await t.test('the language switch turns the pages English and back', async () => {
      assert.equal(await pa.getAttribute('html', 'lang'), 'zh-CN');
      await Promise.all([pa.waitForURL(/[?&]lang=en/), pa.click('#lang-switch')]);
      const english = async (p) => {
        assert.equal(await p.getAttribute('html', 'lang'), 'en');
        await p.locator('#replay').waitFor({ state: 'visible' });
        assert.equal(await p.locator('#replay-title').innerText(), 'Replay');
        await p.locator('#deal-verified').waitFor({ state: 'visible' });
        assert.match(await p.locator('#deal-verified').innerText(), /Deal verified/);
        assert.match(await p.locator('#result-reason').innerText(), /^Reason: resignation$/);
        assert.match(await p.locator('#status').innerText(), /Game over/);
        assert.equal(await p.locator('#lang-switch').innerText(), '中文');
        // English piece names on the board, in the counts and in the move list, with
        // the Chinese name as the tooltip of the counts.
        const tip = await p.evaluate(() => {
          const t = document.querySelector('#tallies .tally[data-piece="major_general"] .tally-name');
          const piece = document.querySelector('#board .piece[data-piece="major_general"]');
          return {
            text: t.textContent,
            title: t.getAttribute('title'),
            svg: piece.querySelector('title').textContent,
            label: piece.querySelector('.piece-name').textContent,
          };
        });
        assert.equal(tip.text, 'major general');
        assert.equal(tip.title, '师长');
        assert.match(tip.svg, /^major general/);
        assert.equal(tip.label, 'Maj Gen');
        assert.match(await p.locator('#replay-moves').innerText(), /flips/);
        assert.doesNotMatch(await p.locator('#replay-moves').innerText(), /[司军师旅团营连排工炸地]/);
      };
      await english(pa);
      await pa.screenshot({ path: path.join(SHOTS, 'game-replay-1280-en.png'), fullPage: false });
      // Remembered: a plain reload, and other pages, stay English.
      await pa.goto(`${BASE}/game/${id}`);
      await english(pa);
      await pa.goto(`${BASE}/`);
      assert.equal(await pa.getAttribute('html', 'lang'), 'en');
      assert.equal((await pa.locator('#quick').innerText()).trim(), 'Quick match');
      assert.equal((await pa.locator('#create').innerText()).trim(), 'Create a game');
      // And back to Chinese.
      await Promise.all([pa.waitForURL(/[?&]lang=zh/), pa.click('#lang-switch')]);
      assert.equal(await pa.getAttribute('html', 'lang'), 'zh-CN');
      assert.equal((await pa.locator('#quick').innerText()).trim(), '快速配对');
      await pa.goto(`${BASE}/game/${id}`);
      assert.equal(await pa.getAttribute('html', 'lang'), 'zh-CN');
      assert.equal(await pa.locator('#replay-title').innerText(), '复盘');
    });

    assert.deepEqual(errors, [], 'no script errors on the pages');
  } finally {
    await browser.close();
  }
});
