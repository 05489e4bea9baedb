// Two people, two browser contexts: register, meet in the lobby, play by clicking
// until one side resigns, and both see the result and the score change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const BASE = process.env.JUNQI_URL;
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

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
// click the first one, otherwise try the next piece.
async function moveOne(page) {
  const pieces = page.locator('g.is-actionable:has(.piece[data-face="up"])');
  const n = await pieces.count();
  for (let i = 0; i < n; i++) {
    await pieces.nth(i).click();
    const dest = page.locator('g[data-square].is-dest');
    if ((await dest.count()) > 0) {
      await dest.first().click();
      return true;
    }
  }
  return false;
}

test('two players meet in the lobby and play a game to a resignation', async () => {
  assert.ok(BASE, 'JUNQI_URL names the server under test');
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
    headless: true,
  });
  try {
    const pa = await (await browser.newContext()).newPage();
    const pb = await (await browser.newContext()).newPage();
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
    // A move that would repeat asks for confirmation; a player here always confirms.
    for (const p of pages) p.on('dialog', (d) => d.accept());
    // Forty flips by clicking, then moves (or a flip when nothing can move) until fifty
    // steps have been played.
    for (let step = 0; step < 50 && !(await pa.locator('#result').isVisible()); step++) {
      const page = await whoseTurn(pages);
      const before = await steps(page);
      const moved = step >= 40 && (await moveOne(page));
      if (!moved) await flipOne(page);
      await waitForSteps(pages, before + 1);
    }

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
    const summary = await (await pa.request.get(`${BASE}/api/games/${id}`)).json();
    assert.equal(summary.status, 'finished');
    assert.ok(['resign', 'flag', 'no_moves', 'repetition'].includes(summary.reason), summary.reason);
  } finally {
    await browser.close();
  }
});
