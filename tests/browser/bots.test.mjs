// Bot accounts in Chromium: the /bot page marks the account as a bot, makes a token that
// is shown once and never again, and revokes it (the token then gets 401); a bot's name
// carries the 机器人 badge in the header, the lobby and the game page's seat cards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, register } from './support.mjs';

/** One API call with a bot's token, as an outside program makes it. */
async function asBot(token, method, path, body) {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json().catch(() => null) };
}

/** Creates a token on the /bot page and answers it, as the page showed it once. */
async function makeToken(page, name) {
  await page.fill('#token-name', name);
  await page.click('#token-create');
  await page.locator('#token-new').waitFor();
  return (await page.locator('#token-value').innerText()).trim();
}

test('the bot page: a token shown once, revoked, and the badge wherever the bot is', async () => {
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const suffix = Date.now().toString(36).slice(-5);
    const botName = `pgbot_${suffix}`;
    await register(page, botName);
    await page.goto(`${BASE}/bot`);
    await page.click('#make-bot');
    await page.locator('#token-form').waitFor();
    await page.locator('#account-name + .kind-badge.kind-bot', { hasText: '机器人' }).waitFor();

    const token = await makeToken(page, 'laptop');
    assert.match(token, /^junqi_bot_[0-9a-f]{64}$/);
    assert.equal((await asBot(token, 'GET', '/api/me')).json.username, botName);
    await page.reload();
    assert.ok(!(await page.content()).includes(token), 'the token is not shown again');
    const item = page.locator('.token-item', { hasText: 'laptop' });
    await item.waitFor();
    await item.locator('.revoke-token').click();
    await item.waitFor({ state: 'detached' });
    const refused = await asBot(token, 'GET', '/api/me');
    assert.equal(refused.status, 401);
    assert.equal(refused.json.error.code, 'bad_token');

    // A person sees the bot's open game in the lobby, and its badge on the seat card.
    const second = await makeToken(page, 'server');
    const made = await asBot(second, 'POST', '/api/games', { variant: 'flip', seconds_per_action: 60, rated: false });
    assert.equal(made.status, 201);
    const id = made.json.id;
    const person = await browser.newPage();
    await register(person, `pgperson_${suffix}`);
    const row = person.locator(`li.open-game[data-game-id="${id}"]`);
    await row.locator('.kind-badge.kind-bot', { hasText: '机器人' }).waitFor();
    await row.locator('.join-game').click();
    await person.waitForURL(`${BASE}/game/${id}`);
    await person.locator('.player-card .pc-kind:not([hidden])', { hasText: '机器人' }).waitFor();
    assert.equal(await person.locator('.player-card .pc-kind:not([hidden])').count(), 1, 'only the bot has a badge');
  } finally {
    await browser.close();
  }
});
