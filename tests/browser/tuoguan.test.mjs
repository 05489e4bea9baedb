// 托管 in a two-player flip game, as the two players see it: the player to move presses
// 托管; both seat cards show the mark (the player's own at the bottom, the opponent's
// at the top); the computer makes the player's move, logged as 托管; the player presses
// 取消托管, the mark goes, and the next move is theirs to make again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, DESKTOP, launch, register, startGame, steps, whoseTurn } from './support.mjs';

test('a player hands the game to the computer, sees it move for them, and takes it back', async () => {
  const browser = await launch();
  try {
    const [pa, pb] = [await (await browser.newContext({ viewport: DESKTOP })).newPage(), await (await browser.newContext({ viewport: DESKTOP })).newPage()];
    const errors = [];
    for (const p of [pa, pb]) p.on('pageerror', (e) => errors.push(e.message));
    const s = Date.now().toString(36).slice(-5);
    await register(pa, `ta_${s}`);
    await register(pb, `tb_${s}`);
    const id = await startGame(pa, pb, { variant: 'flip', seconds_per_action: 60, rated: false });
    for (const p of [pa, pb]) await p.goto(`${BASE}/game/${id}`);
    const me = await whoseTurn([pa, pb]);
    const them = me === pa ? pb : pa;
    const before = await steps(me);

    // Not offered to the opponent as 取消托管, nor to me before I ask.
    await me.locator('#tuoguan').waitFor({ state: 'visible' });
    assert.equal(await me.locator('#untuoguan').isVisible(), false);
    await me.locator('#tuoguan').click();

    // Both pages mark my card: mine at the bottom, the opponent's at the top.
    await me.locator('#player-bottom .pc-tuoguan').waitFor({ state: 'visible' });
    assert.equal((await me.locator('#player-bottom .pc-tuoguan').innerText()).trim(), '托管');
    await them.locator('#player-top .pc-tuoguan').waitFor({ state: 'visible' });
    assert.equal(await them.locator('#player-bottom .pc-tuoguan').isVisible(), false, 'the opponent is not in 托管');
    await me.locator('#untuoguan').waitFor({ state: 'visible' });
    assert.equal(await me.locator('#tuoguan').isVisible(), false);

    // The computer makes my move: a step more, logged as 托管 on both pages.
    for (const p of [me, them]) {
      await p.waitForFunction((n) => Number.parseInt(document.querySelector('#steps')?.textContent ?? '0', 10) > n, before);
      await p.locator('#log li.log-tuoguan').first().waitFor();
    }
    assert.match(await me.locator('#log').innerText(), /开始托管/);
    assert.equal(await steps(me), before + 1, 'one step, then the opponent is to move');

    // I take it back: the mark goes on both pages, and the button is offered again.
    await me.locator('#untuoguan').click();
    await me.locator('#player-bottom .pc-tuoguan').waitFor({ state: 'hidden' });
    await them.locator('#player-top .pc-tuoguan').waitFor({ state: 'hidden' });
    await me.locator('#tuoguan').waitFor({ state: 'visible' });
    assert.match(await them.locator('#log').innerText(), /取消托管/);
    const turn = await whoseTurn([pa, pb]);
    assert.equal(turn, them, 'the opponent is to move; nobody moved for me since');
    assert.equal(await steps(me), before + 1);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
