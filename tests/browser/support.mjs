// Helpers shared by the browser tests (not a test file itself: node --test runs only
// *.test.mjs here).
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

export const BASE = process.env.JUNQI_URL;
export const JUNQI_BIN = process.env.JUNQI_BIN;
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const PHONE = { width: 360, height: 740 };
export const DESKTOP = { width: 1280, height: 800 };

export function launch() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: true });
}

export async function register(page, name) {
  await page.goto(`${BASE}/register`);
  await page.fill('#username', name);
  await page.fill('#password', 'correct horse battery');
  await page.click('#submit');
  await page.waitForURL(`${BASE}/`);
  await page.locator('#account-name', { hasText: name }).waitFor();
}

/** The step count the status bar shows ("12" or "12 / 300"). */
export async function steps(page) {
  const text = await page.locator('#steps').innerText();
  return Number.parseInt(text, 10);
}

/** The page whose status line says it is this player's turn. */
export async function whoseTurn(pages, tries = 200) {
  for (let i = 0; i < tries; i++) {
    for (const p of pages) {
      const status = await p.locator('#status').innerText();
      if (status.includes('轮到你')) return p;
    }
    await pages[0].waitForTimeout(50);
  }
  throw new Error('neither page shows its turn');
}

export async function waitForSteps(pages, n) {
  for (const p of pages) {
    await p.waitForFunction(
      (want) => Number.parseInt(document.querySelector('#steps')?.textContent ?? '0', 10) >= want,
      n,
    );
  }
}

export async function replayStep(page) {
  const text = await page.locator('#replay-step').innerText();
  const m = /^(\d+) \/ (\d+)$/.exec(text.trim());
  assert.ok(m, `replay step text ${JSON.stringify(text)}`);
  return { step: Number(m[1]), total: Number(m[2]) };
}

/** Square → piece for every piece on the board whose name the page shows. */
export function namedPieces(page) {
  return page.evaluate(() => {
    const out = {};
    for (const p of document.querySelectorAll('#board g[data-square] .piece[data-piece]')) {
      out[p.closest('g[data-square]').getAttribute('data-square')] = p.getAttribute('data-piece');
    }
    return out;
  });
}

/** A small seeded generator, so a failure can be reproduced. */
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Every JSON message the page's game socket receives, in order (playwright sees the
 * frames as the browser does).
 */
export function captureFrames(page) {
  const frames = [];
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/ws/game/')) return;
    ws.on('framereceived', (f) => {
      try {
        frames.push(JSON.parse(f.payload));
      } catch {
        // not JSON: not the server's
      }
    });
  });
  return frames;
}

/** The legal actions the server last sent this page: the latest state's or event's. */
export function latestLegal(frames) {
  for (let i = frames.length - 1; i >= 0; i--) {
    const m = frames[i];
    if (m.t === 'state') return (m.d.view && m.d.view.legal) || [];
    if (m.t === 'event') return m.d.legal || [];
  }
  return [];
}

/** Two players in a running game: Alice opens it through the API, Bob joins. */
export async function startGame(pa, pb, options) {
  const res = await pa.request.post(`${BASE}/api/games`, { data: options });
  assert.equal(res.status(), 201, await res.text());
  const { id } = await res.json();
  const join = await pb.request.post(`${BASE}/api/games/${id}/join`);
  assert.equal(join.status(), 200, await join.text());
  return id;
}

/**
 * Answers "yes" to every question the game page asks in its own sheet (认输, a move
 * the server warns would repeat, a losing pass), as a player who always confirms; the
 * questions asked are kept in `window.__asked` (take them with `takeAsked`).
 */
export async function autoConfirm(page) {
  await page.addInitScript(() => {
    const asked = [];
    Object.assign(window, { __asked: asked });
    new MutationObserver(() => {
      const sheet = document.getElementById('confirm-sheet');
      if (!sheet || sheet.hidden) return;
      asked.push(document.getElementById('confirm-text')?.textContent ?? '');
      document.getElementById('confirm-ok')?.click();
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['hidden'] });
  });
}

/** The questions the page asked since the last call (see `autoConfirm`). */
export function takeAsked(page) {
  return page.evaluate(() => (window.__asked ? window.__asked.splice(0) : []));
}
