// History and finished games as players found them misleading (issue 20, finding 6): a
// casual game's row shows "—" rather than a score change that never applied, each
// player's history reads the result from their own side (胜 / 负). (That a finished game
// shows the score each player brought to it is checked by escape.test.mjs, on a rated
// game ended quickly by an escape.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, DESKTOP, launch, register, startGame } from './support.mjs';

const suffix = () => Date.now().toString(36).slice(-5) + Math.floor(Math.random() * 100);

/** Plays a one-second game nobody moves in, to its end by timeouts; its summary. */
async function timedOut(pa, pb, rated) {
  const id = await startGame(pa, pb, { variant: 'flip', seconds_per_action: 1, rated });
  for (const p of [pa, pb]) await p.goto(`${BASE}/game/${id}`);
  for (const p of [pa, pb]) await p.locator('#result').waitFor({ state: 'visible', timeout: 30000 });
  const summary = await (await pa.request.get(`${BASE}/api/games/${id}`)).json();
  assert.equal(summary.status, 'finished');
  assert.notEqual(summary.result, 'draw', 'a game lost on timeouts has a winner');
  return { id, summary };
}

const seatOf = (summary, name) => (summary.players.south.username === name ? 'south' : 'north');
const won = (summary, seat) => summary.result === seat;

test('history shows — for a casual game and each player\'s own result', async () => {
  const browser = await launch();
  try {
    const [ca, cb] = [await browser.newContext({ viewport: DESKTOP }), await browser.newContext({ viewport: DESKTOP })];
    const [pa, pb] = [await ca.newPage(), await cb.newPage()];
    const errors = [];
    for (const p of [pa, pb]) p.on('pageerror', (e) => errors.push(e.message));
    const s = suffix();
    const [a, b] = [`ha_${s}`, `hb_${s}`];
    await register(pa, a);
    await register(pb, b);

    const casual = await timedOut(pa, pb, false);

    // Each player's own history and the site's list as each player sees it: the result
    // read from their side, the casual game's changes as —.
    const { id, summary } = casual;
    for (const [page, me] of [[pa, a], [pb, b]]) {
      for (const list of [`/@/${me}/games`, '/games']) {
        await page.goto(`${BASE}${list}`);
        const row = page.locator(`tr.game-row[data-game-id="${id}"]`);
        assert.equal(await row.count(), 1, `${list} lists ${id} for ${me}`);
        const mine = won(summary, seatOf(summary, me));
        assert.equal(await row.locator('td.result').getAttribute('data-outcome'), mine ? 'win' : 'loss');
        assert.equal((await row.locator('td.result').innerText()).trim(), mine ? '胜' : '负');
        const deltas = await row.locator('.delta').evaluateAll((els) => els.map((e) => [e.dataset.delta, e.textContent.trim()]));
        assert.deepEqual(deltas, [['none', '—'], ['none', '—']], 'a casual game changes no score');
      }
    }

    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
