// A newcomer on a 360 px phone plays the computer: registers, picks 人机对战 in the lobby
// (入门, a variant, the 15-second clock) and plays a whole flip game, then a whole
// standard game (a random layout from the deployment panel, 出征), to the end by the
// rules. Every click is one of the actions the server offered (the page's latest legal
// list), attacks first so that the games end soon. The page names the computer as the
// opponent and shows the result; the profile then counts both games against 入门.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASE, PHONE, autoConfirm, captureFrames, latestLegal, launch, register, rng, steps } from './support.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SHOTS = path.join(HERE, 'screenshots');
/** The longest the computer may take over a step before the test gives up. */
const COMPUTER_WAIT = 60000;
const RESULT_WORDS = { 胜: 'win', 和: 'draw', 和棋: 'draw', 负: 'loss' };

/**
 * Starts a game against the computer from the lobby's 人机对战 card, by its labels.
 * @param {import('playwright-core').Page} page
 * @param {'翻翻棋'|'标准军棋'} variant
 */
async function startAgainstComputer(page, variant) {
  await page.goto(`${BASE}/`);
  const card = page.getByRole('region', { name: '人机对战' });
  await card.getByRole('group', { name: '难度' }).getByRole('radio', { name: '入门' }).check();
  await card.getByRole('group', { name: '玩法' }).getByRole('radio', { name: variant }).check();
  await card.getByRole('group', { name: '每步限时' }).getByRole('radio', { name: '15 秒' }).check();
  await card.getByRole('button', { name: '开始人机对战' }).click();
  await page.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
  return page.url().split('/').pop();
}

/** Waits until the player is to act (or the game has ended, or a draw is offered). */
async function waitForTurn(page) {
  await page.waitForFunction(() => {
    const shown = (id) => {
      const e = document.getElementById(id);
      return !!e && !e.hidden;
    };
    if (shown('result') || shown('draw-dialog')) return true;
    const status = document.getElementById('status')?.textContent ?? '';
    return status.includes('轮到你') && document.querySelectorAll('#board g.is-actionable').length > 0;
  }, null, { timeout: COMPUTER_WAIT, polling: 50 });
}

/**
 * Plays the person's side until the game ends: on each turn one action of the latest
 * legal list the server sent, clicked on the board (an attack when there is one, else a
 * move or flip at random, avoiding moves the page warns would repeat). A draw the
 * computer offers is accepted. Answers how many actions the person took.
 */
async function playToTheEnd(page, frames, rand) {
  let acted = 0;
  for (let turn = 0; turn < 1000; turn++) {
    await waitForTurn(page);
    if (await page.locator('#result').isVisible()) return acted;
    if (await page.locator('#draw-dialog').isVisible()) {
      await page.click('#accept-draw');
      await page.locator('#result').waitFor({ state: 'visible', timeout: COMPUTER_WAIT });
      return acted;
    }
    const before = await steps(page);
    const legal = latestLegal(frames).filter((a) => a.flip || a.move);
    const warned = new Set(latestWarnings(frames).filter((w) => w.move).map((w) => `${w.move.from}-${w.move.to}`));
    const actionable = await page.evaluate(() => Array.from(
      document.querySelectorAll('#board g.is-actionable[data-square]'),
      (g) => g.getAttribute('data-square'),
    ));
    const occupied = await page.evaluate(() => Array.from(
      document.querySelectorAll('#board g[data-square]:has(.piece)'),
      (g) => g.getAttribute('data-square'),
    ));
    // What the page offers is what the server listed.
    for (const a of legal) {
      const from = a.flip || a.move.from;
      assert.ok(actionable.includes(from), `the page marks ${from} (${JSON.stringify(a)})`);
    }
    const safe = legal.filter((a) => !a.move || !warned.has(`${a.move.from}-${a.move.to}`));
    const pool = safe.length ? safe : legal;
    const attacks = pool.filter((a) => a.move && occupied.includes(a.move.to));
    if (!pool.length) {
      // Nothing to flip or move (standard): passing is the one thing left.
      await page.click('#pass');
    } else {
      const choice = attacks.length ? attacks : pool;
      const pick = choice[Math.floor(rand() * choice.length)];
      if (pick.flip) {
        await page.locator(`#board g[data-square="${pick.flip}"]`).click();
      } else {
        await page.locator(`#board g[data-square="${pick.move.from}"]`).click();
        await page.locator(`#board g[data-square="${pick.move.to}"].is-dest`).click();
      }
    }
    acted++;
    // The step lands (or the game ends on it) before the next turn is looked for.
    await page.waitForFunction((b) => {
      const r = document.getElementById('result');
      if (r && !r.hidden) return true;
      return Number.parseInt(document.querySelector('#steps')?.textContent ?? '0', 10) > b;
    }, before, { timeout: 15000, polling: 50 });
  }
  throw new Error('the game did not end within 1000 turns');
}

/** The moves the server last warned would lose by repetition. */
function latestWarnings(frames) {
  for (let i = frames.length - 1; i >= 0; i--) {
    const m = frames[i];
    if (m.t === 'state') return (m.d.view && m.d.view.repetition_warnings) || [];
    if (m.t === 'event') return m.d.repetition_warnings || [];
  }
  return [];
}

/** The result as the page shows it, checked against the server's record of the game. */
async function checkResult(page, id, me) {
  const result = page.locator('#result');
  await result.waitFor({ state: 'visible', timeout: COMPUTER_WAIT });
  const word = (await page.locator('#result-word').innerText()).trim();
  assert.ok(word in RESULT_WORDS, `a result word: ${JSON.stringify(word)}`);
  assert.ok((await page.locator('#result-reason').innerText()).trim().length > 0, 'the reason is given');
  // On the phone the result is a sheet on screen.
  const box = await result.boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= PHONE.height + 1, `the result is on screen (${JSON.stringify(box)})`);
  const summary = await (await page.request.get(`${BASE}/api/games/${id}`)).json();
  assert.equal(summary.status, 'finished');
  assert.equal(summary.rated, false, 'games against the computer are casual');
  const mySeat = summary.players.south.username === me ? 'south' : 'north';
  const outcome = summary.result === 'draw' ? 'draw' : summary.result === mySeat ? 'win' : 'loss';
  assert.equal(RESULT_WORDS[word], outcome, `the page says ${word}; the server ${summary.result}`);
  return { outcome, summary };
}

/** The opponent's card names the computer: 电脑·入门, its login name beside it. */
async function checkOpponent(page) {
  const card = page.locator('#player-top');
  await card.locator('.pc-name', { hasText: '电脑·入门' }).waitFor();
  assert.equal((await card.locator('.pc-login').innerText()).trim(), 'computer-easy');
  assert.equal(await page.locator('#player-bottom .pc-you').isVisible(), true, 'the person sits at the bottom');
}

test('a newcomer plays the computer at 入门: a whole flip game and a whole standard game', async (t) => {
  assert.ok(BASE, 'JUNQI_URL names the server under test');
  mkdirSync(SHOTS, { recursive: true });
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/\/favicon\.ico$/.test(m.location().url || '')) errors.push(`console: ${m.text()} ${m.location().url}`);
    });
    // A repetition the page asks about is confirmed (the test avoids warned moves when
    // it can).
    await autoConfirm(page);
    const frames = captureFrames(page);
    const me = `cpu_${Date.now().toString(36).slice(-6)}`;
    await register(page, me);
    const outcomes = {};
    const rand = rng(20261130);

    await t.test('the lobby offers 人机对战 on the phone', async () => {
      await page.goto(`${BASE}/`);
      const card = page.getByRole('region', { name: '人机对战' });
      await card.waitFor();
      for (const name of ['入门', '普通', '困难', '大师']) {
        await card.getByRole('group', { name: '难度' }).getByRole('radio', { name }).waitFor({ state: 'attached' });
      }
      assert.equal(await card.getByRole('radio', { name: '入门' }).isChecked(), true, '入门 is chosen to begin with');
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= PHONE.width, `the lobby fits 360 px (${wide})`);
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, 'lobby-computer-360.png'), fullPage: true });
    });

    await t.test('flip chess against 电脑·入门, to the end', async () => {
      const id = await startAgainstComputer(page, '翻翻棋');
      await checkOpponent(page);
      const acted = await playToTheEnd(page, frames, rand);
      const { outcome, summary } = await checkResult(page, id, me);
      assert.ok(acted > 0 && summary.steps >= acted, `${acted} actions of ${summary.steps} steps`);
      assert.notEqual(summary.reason, 'timeouts', 'nobody ran out of time');
      outcomes.flip = outcome;
      await page.screenshot({ path: path.join(SHOTS, 'computer-flip-end-360.png'), fullPage: false });
    });

    await t.test('standard 军棋 against 电脑·入门: deploy, then play to the end', async () => {
      const id = await startAgainstComputer(page, '标准军棋');
      await checkOpponent(page);
      await page.locator('#deploy-panel').waitFor({ state: 'visible', timeout: 15000 });
      await page.waitForFunction(() => document.querySelectorAll('#board .piece[data-piece]').length === 25);
      // The computer has its layout in at once; it is ready at once or as soon as the
      // person is (who is ready first moves first, drawn for each game).
      const before = await page.evaluate(() => document.querySelector('#board').innerHTML);
      await page.click('#deploy-random');
      await page.waitForFunction((b) => document.querySelector('#board').innerHTML !== b, before);
      // The layout goes to the server first; 出征 is offered once it has been taken.
      await page.waitForFunction(() => !document.querySelector('#deploy-go').disabled);
      await page.click('#deploy-go');
      await page.locator('#deploy-panel').waitFor({ state: 'hidden', timeout: COMPUTER_WAIT });
      await page.waitForFunction(() => document.querySelectorAll('#board .piece').length === 50);
      const acted = await playToTheEnd(page, frames, rand);
      const { outcome, summary } = await checkResult(page, id, me);
      assert.equal(summary.variant, 'standard');
      assert.ok(acted > 0, `${acted} actions of ${summary.steps} steps`);
      assert.notEqual(summary.reason, 'timeouts', 'nobody ran out of time');
      outcomes.standard = outcome;
      await page.screenshot({ path: path.join(SHOTS, 'computer-standard-end-360.png'), fullPage: false });
    });

    await t.test('the profile counts both games against 入门', async () => {
      assert.ok(outcomes.flip && outcomes.standard, `both games were played: ${JSON.stringify(outcomes)}`);
      await page.goto(`${BASE}/@/${me}`);
      const table = page.getByRole('table', { name: /电脑棋手/ });
      await table.waitFor();
      const row = table.locator('tr[data-computer="computer-easy"]');
      assert.match(await row.locator('th').innerText(), /电脑·入门/);
      for (const variant of ['flip', 'standard']) {
        for (const o of ['win', 'draw', 'loss']) {
          const n = Number((await row.locator(`td[data-variant="${variant}"][data-outcome="${o}"]`).innerText()).trim());
          assert.equal(n, outcomes[variant] === o ? 1 : 0, `${variant} ${o}`);
        }
      }
      for (const other of ['computer-normal', 'computer-hard', 'computer-master']) {
        const cells = await table.locator(`tr[data-computer="${other}"] td`).allInnerTexts();
        // Won, drawn, lost and the win rate per variant: a dash before any game.
        assert.deepEqual(cells.map((c) => c.trim()), ['0', '0', '0', '—', '0', '0', '0', '—'], other);
      }
      for (const variant of ['flip', 'standard']) {
        const won = outcomes[variant] === 'win' ? '100%' : '0%';
        const rate = (await row.locator(`td[data-variant="${variant}"][data-outcome="rate"]`).innerText()).trim();
        assert.equal(rate, won, `${variant}: the win rate against 入门`);
        // The record (战绩) counts the same game against the computer, none against people.
        const games = async (against) => (await page.locator(
          `#record-table tr[data-variant="${variant}"][data-against="${against}"] td[data-outcome="games"]`).innerText()).trim();
        assert.equal(await games('computer'), '1', `${variant}: one game against the computer`);
        assert.equal(await games('people'), '0', `${variant}: none against people`);
      }
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= PHONE.width, `the profile fits 360 px (${wide})`);
      await page.screenshot({ path: path.join(SHOTS, 'profile-computer-360.png'), fullPage: true });
      // The computer's own page says what it is.
      await row.getByRole('link').click();
      await page.locator('#computer-note', { hasText: '这是本站的电脑棋手' }).waitFor();
    });

    assert.deepEqual(errors, [], 'no script errors on the pages');
  } finally {
    await browser.close();
  }
});
