// 四国 tables in the lobby, as people use them on 联众: a player opens a 对家 table from
// the lobby form's 四国 section and lands on the table's page; another player, watching
// the lobby on a phone, sees it appear with its settings and one filled seat of four;
// a third takes a seat with the quick button, and the list shows two.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, DESKTOP, PHONE, launch, register } from './support.mjs';

const suffix = () => Date.now().toString(36).slice(-5) + Math.floor(Math.random() * 100);

/** The 四国 section's settings of this test's table. */
async function chooseSettings(page) {
  const form = page.locator('#table-form');
  await form.getByRole('group', { name: '模式' }).getByRole('radio', { name: '对家' }).check();
  await form.getByRole('checkbox', { name: '炸弹满天飞' }).check();
  await form.getByRole('group', { name: '每步限时' }).getByRole('radio', { name: '60 秒' }).check();
  await form.getByRole('group', { name: '类型' }).getByRole('radio', { name: '友谊赛' }).check();
}

test('a 对家 table opened from the lobby is listed to others with who sits where', async () => {
  const browser = await launch();
  try {
    const pa = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    const pb = await (await browser.newContext({ viewport: PHONE })).newPage();
    const pc = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    const errors = [];
    pb.on('pageerror', (e) => errors.push(e.message));
    const a = `ta${suffix()}`;
    const b = `tb${suffix()}`;
    const c = `tc${suffix()}`;
    await register(pa, a);
    await register(pb, b);
    await register(pc, c);

    // Ben watches the lobby before the table opens: the list must update live.
    await pb.locator('#lobby-conn[data-state="live"]').waitFor();
    await chooseSettings(pa);
    await pa.locator('#table-form').getByRole('group', { name: '断线等待' }).getByRole('radio', { name: '2 分' }).check();
    await pa.click('#table-create');
    await pa.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
    const id = pa.url().split('/').pop();

    const row = pb.locator(`#open-tables li[data-table-id="${id}"]`);
    await row.waitFor({ timeout: 10000 });
    assert.equal(await row.locator('.ot-seat').count(), 4, 'four seats, the empty ones too');
    assert.equal(await row.locator('.ot-seat[data-filled="true"]').count(), 1, 'one filled seat');
    assert.ok((await row.locator('.ot-seat[data-seat="south"]').innerText()).includes(a), 'the creator sits south');
    const text = await row.innerText();
    for (const want of ['四国', '对家', '炸弹满天飞', '60 秒/步', '友谊赛', '1/4 人']) {
      assert.ok(text.includes(want), `the row says ${want}: ${text}`);
    }
    assert.ok(!text.includes('乱战') && !text.includes('友明'), `switches that are off are not shown: ${text}`);
    assert.equal(await pb.locator('#tables-empty').isVisible(), false);
    const wide = await pb.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= PHONE.width, `the lobby with a table fits 360 px (${wide})`);
    // As the form asked for it.
    const listed = await (await pb.request.get(`${BASE}/api/tables/open`)).json();
    const mine = listed.find((t) => t.id === id);
    assert.deepEqual(
      [mine.options.alliance, mine.options.bombs_on_front_row, mine.options.random_pieces, mine.grace_seconds, mine.rated],
      ['opposite', true, false, 120, false],
    );

    // Cleo asks for a table of the same settings: she sits at this one.
    await chooseSettings(pc);
    await pc.click('#table-quick');
    await pc.waitForURL(`${BASE}/game/${id}`);
    await row.locator('.ot-seat[data-filled="true"]').nth(1).waitFor({ timeout: 10000 });
    assert.ok((await row.locator('.ot-seat[data-seat="east"]').innerText()).includes(c), 'the first free seat');

    // A click on the row opens the table's page.
    await Promise.all([pb.waitForURL(`${BASE}/game/${id}`), row.locator('a.ot-link').click()]);
    assert.deepEqual(errors, [], 'the lobby ran without errors');
  } finally {
    await browser.close();
  }
});

test('the computer in the other seats makes a casual 人机四国 table, and a guest plays casual', async () => {
  const browser = await launch();
  try {
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    await register(page, `tcpu${suffix()}`);
    const form = page.locator('#table-form');
    await form.getByRole('group', { name: '其他座位' }).getByRole('radio', { name: '电脑 入门' }).check();
    assert.equal(await form.locator('input[name="rated"][value="false"]').isChecked(), true, 'casual');
    assert.equal(await page.locator('#table-quick').isDisabled(), true, 'quick pairing finds people');
    await page.click('#table-create');
    await page.waitForURL(/\/game\/[A-Za-z0-9]{8}$/);
    const id = page.url().split('/').pop();
    // Started at once: never listed as waiting.
    const listed = await (await page.request.get(`${BASE}/api/tables/open`)).json();
    assert.ok(!listed.some((t) => t.id === id), 'a running table is not listed');

    // A guest's 四国 section offers casual tables only (the server refuses rated ones).
    const guest = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    await guest.goto(`${BASE}/`);
    await guest.getByRole('button', { name: '游客试玩' }).click();
    await guest.locator('#guest-note').waitFor();
    const rated = guest.locator('#table-form input[name="rated"][value="true"]');
    assert.equal(await rated.isDisabled(), true);
    assert.equal(await guest.locator('#table-form input[name="rated"][value="false"]').isChecked(), true);
  } finally {
    await browser.close();
  }
});
