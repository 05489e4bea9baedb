// What just happened, as the other player sees it (issue 9, findings 5 and 10): an attack
// slides the piece along every station of the route the server sent, the square where a
// piece was lost flashes, and a caption names both pieces ("旅长 吃掉 排长"); the
// player cards show a display name (昵称) beside the login name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, DESKTOP, captureFrames, launch, latestLegal, register, rng, startGame, steps,
  waitForSteps, whoseTurn,
} from './support.mjs';

const CHINESE = {
  marshal: '司令', general: '军长', major_general: '师长', brigadier: '旅长', colonel: '团长',
  major: '营长', captain: '连长', lieutenant: '排长', engineer: '工兵', bomb: '炸弹',
  mine: '地雷', flag: '军旗',
};

// Records, from the page's first script on, every slide (its keyframes' stations), every
// flash where a piece was lost (its square) and every caption shown over the board.
function watchMoments() {
  /** @type {{slides: string[][], losses: string[], captions: string[]}} */
  const seen = { slides: [], losses: [], captions: [] };
  Object.assign(window, { __moments: seen });
  new MutationObserver((muts) => {
    for (const m of muts) {
      if (m.target instanceof Element && m.target.id === 'board-caption' && m.target.textContent) {
        seen.captions.push(m.target.textContent);
      }
      for (const n of m.addedNodes) {
        if (!(n instanceof Element)) continue;
        if (n.classList.contains('ghost')) {
          queueMicrotask(() => {
            const a = n.getAnimations()[0];
            seen.slides.push(a ? a.effect.getKeyframes().map((k) => String(k.transform)) : []);
          });
        }
        if (n.classList.contains('flash-loss')) {
          seen.losses.push(n.closest('g[data-square]')?.getAttribute('data-square') ?? '?');
        }
      }
    }
  }).observe(document, { subtree: true, childList: true });
}

test('an attack slides along its route, flashes the loss and names both pieces; 昵称 on the cards', async () => {
  assert.ok(BASE, 'JUNQI_URL names the server under test');
  const browser = await launch();
  try {
    const pages = [];
    const names = [];
    const errors = [];
    const suffix = Date.now().toString(36).slice(-6);
    for (const who of ['ma', 'mb']) {
      const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      page.on('pageerror', (e) => errors.push(e.message));
      await page.addInitScript(watchMoments);
      await register(page, `${who}_${suffix}`);
      pages.push(page);
      names.push(`${who}_${suffix}`);
    }
    const [pa, pb] = pages;
    const set = await pa.request.patch(`${BASE}/api/me`, { data: { display_name: '小明' } });
    assert.equal(set.status(), 200, await set.text());
    const id = await startGame(pa, pb, { variant: 'flip', seconds_per_action: 60, rated: false });
    const frames = new Map(pages.map((p) => [p, captureFrames(p)]));
    for (const p of pages) await p.goto(`${BASE}/game/${id}`);

    // Bob's page shows Alice by her display name, with her login name beside it.
    const card = pb.locator('.player-card', { hasText: '小明' });
    await card.waitFor();
    assert.equal((await card.locator('.pc-login').innerText()).trim(), names[0]);

    const rand = rng(5);
    let attack = null;
    for (let n = 0; n < 280 && !attack; n++) {
      const page = await whoseTurn(pages);
      const other = page === pa ? pb : pa;
      const before = await steps(page);
      await page.waitForFunction(() => document.querySelectorAll('#board g.is-actionable').length > 0);
      const legal = latestLegal(frames.get(page));
      const occupied = await page.evaluate(() => [...document.querySelectorAll('#board g[data-square]')]
        .filter((g) => g.querySelector('.piece')).map((g) => g.getAttribute('data-square')));
      const attacks = legal.filter((a) => a.move && occupied.includes(a.move.to));
      const pick = attacks.length ? attacks[0] : legal[Math.floor(rand() * legal.length)];
      if (pick.flip) {
        await page.locator(`#board g[data-square="${pick.flip}"]`).click();
      } else {
        await page.locator(`#board g[data-square="${pick.move.from}"]`).click();
        await page.locator(`#board g[data-square="${pick.move.to}"]`).click();
      }
      await waitForSteps(pages, before + 1);
      const ev = [...frames.get(other)].reverse().find((m) => m.t === 'event' && m.d.kind !== 'offer_draw');
      if (ev && ev.d.kind === 'move' && ev.d.combat) attack = { ev: ev.d, page: other };
      if (await pa.locator('#result').isVisible()) break;
    }
    assert.ok(attack, 'an attack was played');
    const { ev, page } = attack;
    // The other player's page: a slide through every station of the route…
    await page.waitForFunction((len) => window.__moments.slides.some((s) => s.length === len), ev.route.length);
    // …the loser's square flashes (the attacked square: whoever lost, it was fought on)…
    await page.waitForFunction((sq) => window.__moments.losses.includes(sq), ev.to);
    // …and the caption names both pieces.
    const a = CHINESE[ev.mover.piece];
    const b = CHINESE[ev.target.piece];
    const want = ev.combat === 'attacker_wins'
      ? (ev.target.piece === 'flag' ? `${a} 扛旗` : `${a} 吃掉 ${b}`)
      : ev.combat === 'defender_wins' ? `${a} 撞上 ${b}` : `${a} 与 ${b} 同归于尽`;
    const captions = await page.evaluate(() => window.__moments.captions);
    assert.ok(captions.includes(want), `caption ${JSON.stringify(want)} among ${JSON.stringify(captions)}`);
    assert.deepEqual(errors, [], 'no script errors');
  } finally {
    await browser.close();
  }
});
