// A rated escape as its winner reads it (issue 20, findings 5 and 6): the score row names
// the rule behind it (对方逃跑, the band of lost pieces and what it is worth, the sum),
// and the finished game shows the score each player brought to it, not today's. The
// suite's server waits 60 s before an escape; this test starts its own with a grace of
// 2 s, on a port and database of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { DESKTOP, JUNQI_BIN, launch, whoseTurn } from './support.mjs';

const PORT = 30000 + Math.floor(Math.random() * 20000);
const BASE = `http://127.0.0.1:${PORT}`;
const DB = `/tmp/junqi-escape-test-${PORT}.db`;
// As the page writes a change: +4, ±0, −10 (a minus sign, not a hyphen).
const signed = (n) => (n > 0 ? `+${n}` : n === 0 ? '±0' : `−${-n}`);

async function started() {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${BASE}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the escape test server did not start');
}

async function register(page, name) {
  await page.goto(`${BASE}/register`);
  await page.fill('#username', name);
  await page.fill('#password', 'correct horse battery');
  await page.click('#submit');
  await page.waitForURL(`${BASE}/`);
}

test('a rated escape: the winner reads the rule behind the score; the game keeps the scores brought to it', async (t) => {
  if (!JUNQI_BIN) {
    t.skip('JUNQI_BIN is not set: no server of its own to start');
    return;
  }
  const server = spawn(JUNQI_BIN, ['--bind', `127.0.0.1:${PORT}`, '--database-url', DB, '--no-rate-limits', '--grace-seconds', '2'],
    { stdio: 'ignore' });
  const browser = await launch();
  try {
    await started();
    const [pa, pb] = [await (await browser.newContext({ viewport: DESKTOP })).newPage(), await (await browser.newContext({ viewport: DESKTOP })).newPage()];
    const errors = [];
    for (const p of [pa, pb]) p.on('pageerror', (e) => errors.push(e.message));
    const s = Date.now().toString(36).slice(-5);
    const [a, b] = [`ea_${s}`, `eb_${s}`];
    await register(pa, a);
    await register(pb, b);
    const res = await pa.request.post(`${BASE}/api/games`, { data: { variant: 'flip', seconds_per_action: 60, rated: true } });
    assert.equal(res.status(), 201, await res.text());
    const { id } = await res.json();
    assert.equal((await pb.request.post(`${BASE}/api/games/${id}/join`)).status(), 200);
    for (const p of [pa, pb]) await p.goto(`${BASE}/game/${id}`);
    await whoseTurn([pa, pb]);
    // Bob leaves for good: after the 2 s grace he has escaped.
    await pb.goto('about:blank');
    await pa.locator('#result').waitFor({ state: 'visible', timeout: 30000 });
    const summary = await (await pa.request.get(`${BASE}/api/games/${id}`)).json();
    assert.equal(summary.reason, 'escape');
    const aSeat = summary.players.south.username === a ? 'south' : 'north';
    const bSeat = aSeat === 'south' ? 'north' : 'south';
    assert.equal(summary.result, aSeat, 'the one who stayed wins');

    // The winner's row says the rule, the band and the sum; the escaper's says 逃跑.
    const why = async (seat) => (await pa.locator(`#result li[data-seat="${seat}"] .rs-why`).innerText()).trim();
    const mine = await why(aSeat);
    assert.match(mine, /对方逃跑/, mine);
    assert.match(mine, /失子 [0-9–≥ ]+ 枚为 \d+ 倍底分/, mine);
    assert.ok(mine.endsWith(`= ${signed(summary.score[aSeat])}`), mine);
    const theirs = await why(bSeat);
    assert.match(theirs, /逃跑/, theirs);
    assert.ok(theirs.endsWith(`= ${signed(summary.score[bSeat])}`), theirs);
    assert.notEqual(summary.score[bSeat], 0, 'the escaper pays');

    // Opened again later, the game's cards show what each brought to it (both started at
    // the same score), not the escaper's score of today.
    const now = (await (await pa.request.get(`${BASE}/api/players/${b}`)).json()).score;
    const brought = summary.players[bSeat].score;
    assert.notEqual(now, brought, 'the escape moved his score');
    await pa.reload();
    await pa.locator('#result').waitFor({ state: 'visible' });
    const card = pa.locator('#player-top');
    assert.equal((await card.locator('.pc-name').innerText()).trim(), b);
    assert.match(await card.locator('.pc-rank').innerText(), new RegExp(`(^|· )${brought} 分$`));
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.kill();
    for (const f of [DB, `${DB}-wal`, `${DB}-shm`]) rmSync(f, { force: true });
  }
});
