/**
 * The scorer console without a server, in real headless Chromium at phone size against a real in-process
 * server (second QA round):
 * - reloaded while the server is unreachable, it shows the last confirmed table (marked "offline — last
 *   known state") with the queued steps played on it, and takes new steps queued against the cached
 *   version; when the server is back the log holds them once, in order;
 * - a dead socket that still looks connected (its frames go nowhere): after the client's ack timeout the
 *   badge says "offline — 1 queued"; when the network is back ('online') the step is sent again at once;
 *   another scorer's step meanwhile turns the queued ones into a stale notice that names them in the
 *   engine's words;
 * - the browser going offline (context.setOffline) says "offline" at once, with a "retry now" button.
 * Screenshots go to artifacts/screenshots (git-ignored).
 */
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { chromiumAvailable } from '../helpers/browser';
import { ScorerHarness, staticOnly } from '../helpers/scorer-harness';

const run = chromiumAvailable();
const h = new ScorerHarness('cuecast-scorer-offline-', 15_000);
const { create, stateOf, stepsOf, settled, text, recordAs } = h;
const MINUS = '\u2212';

async function openScorer(url: string): Promise<{ ctx: BrowserContext; page: Page }> {
  // Test hook: while window.__deadNet is true the page's WebSocket frames go nowhere (the socket stays "open").
  return h.openScorer(url, undefined, (page) =>
    page.addInitScript(() => {
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (this: WebSocket, data: Parameters<WebSocket['send']>[0]) {
        if ((window as unknown as { __deadNet?: boolean }).__deadNet) return;
        send.call(this, data);
      };
    }),
  );
}

const outbox = (page: Page, id: string) =>
  page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? '[]'), `cuecast.outbox.${id}`) as Promise<{ stepId: string; expectedVersion: number }[]>;

describe.skipIf(!run)('scorer console without a server, in Chromium', () => {
  h.install();

  test('reload while the server is unreachable: the last known table, marked, and scoring goes on', { timeout: 60_000 }, async () => {
    const m = await create({ discipline: '14-1', players: ['Ann', 'Bob'], start: { turn: 'A', ballsOnTable: 12, score: [5, 7] } });
    const { ctx, page } = await openScorer(m.urls.scorer);
    await page.getByTestId('count-plus').click();
    await page.getByTestId('made').click(); // Ann +2, confirmed
    await settled(page, m.id, 1);

    const port = h.server.port;
    await h.server.close();
    await page.getByTestId('status').filter({ hasText: 'offline' }).waitFor({ timeout: 10_000 });
    await page.getByTestId('miss').click(); // queued against version 1: Bob to the table

    const pagesOnly = await staticOnly(port);
    await page.reload();
    // No "Loading match…": the cached table, marked as such, with the queued miss played on it.
    await page.getByTestId('cached-state').waitFor({ timeout: 10_000 });
    expect(await text(page, 'cached-state')).toMatch(/^offline — last known state \(saved \d/);
    expect(await page.locator('.loading').count()).toBe(0);
    expect([await text(page, 'score-A'), await text(page, 'score-B'), await text(page, 'turn')]).toEqual(['7', '7', 'Bob at the table']);
    expect(await text(page, 'status')).toBe('offline — 1 queued');

    // Bob keeps scoring: 3 balls, queued against the cached version as if the page had never reloaded.
    await page.getByTestId('count-plus').click();
    await page.getByTestId('count-plus').click();
    await page.getByTestId('made').click();
    await page.getByTestId('status').filter({ hasText: 'offline — 2 queued' }).waitFor();
    expect(await text(page, 'score-B')).toBe('10');
    expect((await outbox(page, m.id)).map((e) => e.expectedVersion)).toEqual([1, 2]);
    expect(await page.getByTestId('queued-item').allTextContents()).toEqual(['Ann misses, run ends at 2 · queued', 'Bob +3, run 3 · queued']);
    await page.screenshot({ path: join(h.shots, 'scorer-reload-offline-cached-390.png'), fullPage: true });
    const ids = (await outbox(page, m.id)).map((e) => e.stepId);
    await pagesOnly.close();

    await h.restartServer(port);
    const s = await settled(page, m.id, 3);
    await page.getByTestId('cached-state').waitFor({ state: 'detached' });
    expect((await stepsOf(m.id)).slice(1).map((e) => e.stepId)).toEqual(ids);
    expect([s.score, s.turn, s.ballsOnTable]).toEqual([[7, 10], 'B', 7]);
    expect(await text(page, 'score-B')).toBe('10');
    await ctx.close();
  });

  test('a dead socket that still looks connected: "offline — 1 queued" after the ack timeout; back online, sent at once', { timeout: 60_000 }, async () => {
    const m = await create({ discipline: '14-1', players: ['Ann', 'Bob'], start: { turn: 'A', ballsOnTable: 12 } });
    const { ctx, page } = await openScorer(m.urls.scorer);
    await page.getByTestId('shot-panel').waitFor();
    await page.evaluate(() => ((window as unknown as { __deadNet: boolean }).__deadNet = true));
    await page.getByTestId('made').click();
    expect(await text(page, 'status')).toBe('1 queued — sending…');
    // The client's record timeout is 5 s; the socket itself still reports "connected".
    await page.locator('[data-testid=status][data-status=offline][data-reason=no-answer]').waitFor({ timeout: 9_000 });
    expect(await text(page, 'status')).toBe('offline — 1 queued');
    expect(await page.getByTestId('retry').isVisible()).toBe(true);
    await page.screenshot({ path: join(h.shots, 'scorer-dead-socket-offline-390.png'), fullPage: true });
    expect((await stateOf(m.id)).version).toBe(0);

    // The network is back: the 'online' event resends at once (no waiting for the attempt in flight to time out).
    await page.evaluate(() => {
      (window as unknown as { __deadNet: boolean }).__deadNet = false;
      window.dispatchEvent(new Event('online'));
    });
    const t0 = Date.now();
    await page.locator('[data-testid=status][data-status=live][data-queued="0"]').waitFor({ timeout: 10_000 });
    expect(Date.now() - t0).toBeLessThan(4000); // at once: well under the 5 s record timeout the old attempt would wait for
    const log = await stepsOf(m.id);
    expect(log.map((e) => e.step)).toEqual([{ shot: { call: { made: true }, pocketed: 1 } }]);

    // Dead again; two steps queue, another scorer records meanwhile: the stale notice names them in the engine's words.
    await page.evaluate(() => ((window as unknown as { __deadNet: boolean }).__deadNet = true));
    await page.getByTestId('foul').click();
    await page.getByTestId('foul-scratch').click();
    await expect.poll(() => page.getByTestId('queued-item').count()).toBe(1);
    expect(await text(page, 'undo')).toBe(`↶ Undo: Ann \u2014 scratch ${MINUS}1`);
    await page.getByTestId('miss').click();
    await recordAs(m, { shot: { call: 'safety' } }, 'other-device-1');
    await page.evaluate(() => {
      (window as unknown as { __deadNet: boolean }).__deadNet = false;
      window.dispatchEvent(new Event('online'));
    });
    await page.getByTestId('notice').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('notice').getAttribute('data-kind')).toBe('stale');
    expect(await text(page, 'notice')).toContain(`not applied: Ann \u2014 scratch ${MINUS}1 \u00b7 Bob: ball in hand behind the head string; Bob misses.`);
    await page.screenshot({ path: join(h.shots, 'scorer-stale-words-390.png'), fullPage: true });
    const s = await settled(page, m.id, 2);
    expect([s.turn, s.score]).toEqual(['B', [1, 0]]);
    await ctx.close();
  });

  test('the browser goes offline: "offline" at once, with "retry now"; back online the queued step goes out', { timeout: 60_000 }, async () => {
    const m = await create({ discipline: '14-1', players: ['Ann', 'Bob'], start: { turn: 'A', ballsOnTable: 12 } });
    const { ctx, page } = await openScorer(m.urls.scorer);
    await page.getByTestId('shot-panel').waitFor();
    await ctx.setOffline(true);
    await page.locator('[data-testid=status][data-status=offline][data-reason=network]').waitFor({ timeout: 2_000 });
    await page.getByTestId('miss').click();
    expect(await text(page, 'status')).toBe('offline — 1 queued');
    await page.getByTestId('retry').click(); // no network: nothing to do, and nothing breaks
    expect(await text(page, 'status')).toBe('offline — 1 queued');
    await ctx.setOffline(false);
    const s = await settled(page, m.id, 1);
    expect(s.turn).toBe('B');
    await ctx.close();
  });
});
