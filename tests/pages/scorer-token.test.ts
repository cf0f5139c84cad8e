/**
 * The scorer token checked as the console opens (issue 9), in real headless Chromium at phone size against a
 * real in-process server:
 * - a valid token: the console records;
 * - a wrong token: read-only at once with the reason ("not valid for this match"), nothing can be recorded,
 *   the token is not kept (after a reload the console says "no scorer token"), a wrong pasted token is
 *   refused and the field stays, a valid pasted scorer link is checked, kept, and recording works;
 * - no token: read-only with "no scorer token"; pasting the bare token enables recording;
 * - a shot entered while the check could not reach the server, then refused for its token: held (never
 *   silently lost), sent once a valid token is pasted;
 * - an unknown match id: "Match not found", no green "live" chip, no endless "Loading".
 * Screenshots: artifacts/screenshots/scorer-token-*.png, scorer-not-found-390.png.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { chromiumAvailable } from '../helpers/browser';
import { ScorerHarness } from '../helpers/scorer-harness';

const run = chromiumAvailable();
const h = new ScorerHarness('cuecast-scorer-token-');
const { create, stateOf, settled, text, phone } = h;

const SETUP = { discipline: '14-1', players: ['Ann', 'Bob'], start: { turn: 'A', ballsOnTable: 12, score: [5, 7] } };
const storedToken = (page: Page, id: string) => page.evaluate((k) => localStorage.getItem(k), `cuecast.token.${id}`);

/** The console is read-only for `reason`: the token panel says why, no shot can be entered, undo is off. */
async function expectReadOnly(page: Page, reason: 'wrong' | 'missing'): Promise<void> {
  await page.locator(`[data-testid=token-panel][data-reason=${reason}]`).waitFor({ timeout: 10_000 });
  expect(await page.getByTestId('scorer').getAttribute('data-token')).toBe(reason);
  expect(await page.getByTestId('made').count()).toBe(0);
  expect(await page.getByTestId('miss').count()).toBe(0);
  expect(await page.getByTestId('undo').isDisabled()).toBe(true);
  expect(await page.getByTestId('score-A').count()).toBe(1); // the table is still shown
}

/** Type into the token field and submit it. */
async function paste(page: Page, value: string): Promise<void> {
  await page.getByTestId('token-input').fill(value);
  await page.getByTestId('token-use').click();
}

/** A new match opened with `token` while the check cannot reach the server (a proxy drops it): unverified, live. */
async function openUnchecked(token: string) {
  const m = await create(SETUP);
  const { ctx, page } = await phone();
  await page.route('**/scorer-check', (route) => route.abort('connectionrefused'));
  await page.goto(`${h.server.url}/scorer/${m.id}#token=${token}`);
  await page.locator('[data-testid=scorer][data-token=unverified]').waitFor({ timeout: 10_000 });
  await page.locator('[data-testid=status][data-status=live]').waitFor({ timeout: 10_000 });
  return { m, ctx, page };
}

describe.skipIf(!run)('scorer token check in Chromium', () => {
  h.install();

  test('valid token: recording enabled, the token kept', { timeout: 60_000 }, async () => {
    const m = await create(SETUP);
    const { ctx, page } = await h.openScorer(m.urls.scorer);
    await page.locator('[data-testid=scorer][data-token=valid]').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('token-panel').count()).toBe(0);
    await page.getByTestId('made').click();
    expect((await settled(page, m.id, 1)).score).toEqual([6, 7]);
    expect(await storedToken(page, m.id)).toBe(m.scorerToken);
    expect(page.url()).not.toContain(m.scorerToken); // stripped from the address bar
    await ctx.close();
  });

  test(
    'wrong token: read-only with the reason, nothing recorded, not kept; wrong paste refused; valid link pasted → enabled',
    { timeout: 90_000 },
    async () => {
      const m = await create(SETUP);
      const { ctx, page } = await h.openScorer(`${h.server.url}/scorer/${m.id}#token=not-the-right-token`);
      await expectReadOnly(page, 'wrong');
      expect(await text(page, 'token-reason')).toContain('this link’s token is not valid for this match');
      expect(await page.getByTestId('status').getAttribute('data-status')).toBe('live');
      await page.screenshot({ path: join(h.shots, 'scorer-token-wrong-390.png'), fullPage: true });
      // Keyboard shortcuts record nothing either.
      await page.keyboard.press('m');
      await page.keyboard.press('x');
      expect(await storedToken(page, m.id)).toBeNull();

      // Reload: the wrong token was not kept — the console has none.
      await page.reload();
      await expectReadOnly(page, 'missing');
      expect(await text(page, 'token-reason')).toContain('no scorer token');

      // A wrong pasted token: refused, not kept, the field stays.
      await paste(page, 'still-wrong');
      await page.locator('[data-testid=token-panel][data-paste=wrong]').waitFor();
      expect(await text(page, 'token-feedback')).toBe('That token is not valid for this match: not kept.');
      expect(await storedToken(page, m.id)).toBeNull();
      expect(await page.getByTestId('token-input').isVisible()).toBe(true);
      await page.screenshot({ path: join(h.shots, 'scorer-token-paste-wrong-390.png'), fullPage: true });

      // The whole scorer link pasted: checked, kept, the console reopens and records.
      await paste(page, m.urls.scorer);
      await page.locator('[data-testid=scorer][data-token=valid]').waitFor({ timeout: 10_000 });
      expect(await storedToken(page, m.id)).toBe(m.scorerToken);
      expect(await page.getByTestId('token-panel').count()).toBe(0);
      expect((await stateOf(m.id)).version).toBe(0); // nothing was recorded while read-only
      await page.getByTestId('miss').click();
      expect((await settled(page, m.id, 1)).turn).toBe('B');
      await ctx.close();
    },
  );

  test('missing token: read-only with the reason; the pasted bare token enables recording', { timeout: 60_000 }, async () => {
    const m = await create(SETUP);
    const { ctx, page } = await h.openScorer(`${h.server.url}/scorer/${m.id}?lang=ja`);
    await expectReadOnly(page, 'missing');
    expect(await text(page, 'token-reason')).toContain('記録用トークンがありません');
    await page.screenshot({ path: join(h.shots, 'scorer-token-missing-ja-390.png'), fullPage: true });
    await paste(page, `  ${m.scorerToken}  `);
    await page.locator('[data-testid=scorer][data-token=valid]').waitFor({ timeout: 10_000 });
    await page.getByTestId('made').click();
    expect((await settled(page, m.id, 1)).score).toEqual([6, 7]);
    await ctx.close();
  });

  test(
    'a shot queued while the check could not answer, then refused for its token, is held and sent once a valid token is given',
    { timeout: 90_000 },
    async () => {
      const { m, ctx, page } = await openUnchecked('a-wrong-token'); // the console records on, unverified
      await page.getByTestId('count-plus').click();
      await page.getByTestId('made').click(); // Ann +2: the server refuses the token
      await expectReadOnly(page, 'wrong');
      await page.locator('[data-testid=token-held][data-held="1"]').waitFor();
      expect(await text(page, 'status')).toBe('1 held — no valid token');
      expect(await page.getByTestId('queued-item').allTextContents()).toEqual(['Ann +2, run 2 · queued']);
      expect(await page.getByTestId('notice').count()).toBe(0); // nothing "refused and dropped"
      expect((await stateOf(m.id)).version).toBe(0);
      expect(await storedToken(page, m.id)).toBeNull();
      await page.screenshot({ path: join(h.shots, 'scorer-token-held-390.png'), fullPage: true });

      // Still held after a reload (the outbox is in the browser), and not sent.
      await page.unroute('**/scorer-check');
      await page.reload();
      await expectReadOnly(page, 'missing');
      await page.locator('[data-testid=token-held][data-held="1"]').waitFor();
      expect((await stateOf(m.id)).version).toBe(0);

      // The valid token pasted: the held shot goes out once.
      await paste(page, m.scorerToken);
      const s = await settled(page, m.id, 1);
      expect(s.score).toEqual([7, 7]);
      expect(await page.getByTestId('token-panel').count()).toBe(0);
      await ctx.close();
    },
  );

  test('held shots can be discarded', { timeout: 60_000 }, async () => {
    const { m, ctx, page } = await openUnchecked('another-wrong-token');
    await page.getByTestId('miss').click();
    await page.locator('[data-testid=token-held][data-held="1"]').waitFor({ timeout: 10_000 });
    await page.getByTestId('token-discard').click();
    await page.getByTestId('token-held').waitFor({ state: 'detached' });
    expect(await page.getByTestId('queued-item').count()).toBe(0);
    expect(await page.evaluate((k) => localStorage.getItem(k), `cuecast.outbox.${m.id}`)).toBeNull();
    expect(await text(page, 'status')).toBe('live');
    await ctx.close();
  });

  test('unknown match id: "Match not found", no live chip, no endless Loading', { timeout: 60_000 }, async () => {
    const { ctx, page } = await phone();
    await page.goto(`${h.server.url}/scorer/noSuchMatch1`);
    await page.getByTestId('not-found').waitFor({ timeout: 10_000 });
    expect(await text(page, 'not-found')).toContain('Match not found');
    expect(await text(page, 'not-found')).toContain('noSuchMatch1');
    expect(await page.getByTestId('status').count()).toBe(0);
    expect(await page.locator('.loading').count()).toBe(0);
    expect(await page.getByTestId('token-panel').count()).toBe(0);
    expect(await page.locator('[data-testid=not-found] a').getAttribute('href')).toBe('/');
    await page.screenshot({ path: join(h.shots, 'scorer-not-found-390.png'), fullPage: true });
    await ctx.close();
  });
});
