/**
 * A refused subscription on every page (scorer, dashboard, watch), in real headless Chromium:
 * - `protocol-mismatch` (the page is from another build than the server): "This page is out of date" with a
 *   Reload button that reloads, no "live" chip, in en / ja / zh-TW;
 * - `rate-limited` (busy): a transient line with "Retry now", then the match once the client asks again by
 *   itself; `internal`: "Retry now" asks the server again at once;
 * - `/watch/<unknown id>` against the real server: "Match not found", no "live" chip.
 * The refusals come from a tiny Socket.IO peer on the pages' own origin (the built pages served by the real
 * static router), which acks `subscribe` with the refusal: no test-only path in the product.
 * Screenshots go to artifacts/screenshots (git-ignored).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../server/app';
import { staticRouter } from '../../server/transport/http/static';
import { newMatch, statsOf, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import type { ApiError } from '../../shared/protocol/errors';
import { chromiumAvailable, launchChromium, screenshotDir } from '../helpers/browser';
import { REPO_ROOT, startTestServer } from '../helpers/server';
import { ensureBuilt } from '../helpers/global-setup';

const run = chromiumAvailable();
const MISMATCH: ApiError = {
  code: 'protocol-mismatch',
  message: 'this page is from an older version of cuecast: reload the page (it sent protocol 2; the server speaks protocol 3)',
  field: 'protocol',
};
const BUSY: ApiError = { code: 'rate-limited', message: 'too many messages on this connection; slow down' };
const BROKEN: ApiError = { code: 'internal', message: 'could not read the match; retry' };
const match = newMatch(parseSetup({ discipline: '14-1', players: ['Ann', 'Bob'], start: { score: [12, 7], turn: 'A', ballsOnTable: 9 } }));

/** The pages' paths for a match id. */
const PAGES = {
  scorer: (id: string) => `/scorer/${id}?lang=en`,
  dashboard: (id: string) => `/dashboard/${id}?lang=en`,
  watch: (id: string) => `/watch/${id}?lang=en`,
};
type PageName = keyof typeof PAGES;

describe.skipIf(!run)('refused subscriptions on every page in Chromium', () => {
  let browser: Browser;
  let ctx: BrowserContext;
  let http: HttpServer;
  let io: Server;
  let peer = '';
  let real: RunningServer;
  let dataDir = '';
  let shots = '';
  /** `subscribe` requests the peer got, per match id. */
  const asked = new Map<string, number>();

  beforeAll(async () => {
    await ensureBuilt();
    const app = express();
    app.use(staticRouter(join(REPO_ROOT, 'web', 'dist')));
    http = createServer(app);
    io = new Server(http, { transports: ['websocket'] });
    io.on('connection', (socket) => {
      socket.on('subscribe', (req: { matchId: string; detail?: 'full' | 'scorebug' }, ack: (r: unknown) => void) => {
        const n = (asked.get(req.matchId) ?? 0) + 1;
        asked.set(req.matchId, n);
        if (req.matchId.startsWith('old-page')) return ack({ ok: false, error: MISMATCH });
        if (req.matchId.startsWith('broken')) return ack({ ok: false, error: BROKEN });
        if (req.matchId.startsWith('busy') && n === 1) return ack({ ok: false, error: BUSY });
        const snapshot = { ok: true, setup: match.setup, matchId: req.matchId, version: 5, state: view(match) };
        ack(req.detail === 'scorebug' ? { ...snapshot, detail: 'scorebug' } : { ...snapshot, detail: 'full', stats: statsOf(match) });
      });
    });
    await new Promise<void>((ok) => http.listen(0, '127.0.0.1', ok));
    peer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    dataDir = mkdtempSync(join(tmpdir(), 'cuecast-live-problem-'));
    real = await startTestServer({ dataDir });
    browser = await launchChromium();
    ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    shots = screenshotDir();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await io?.close();
    await real?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const open = async (url: string): Promise<Page> => {
    const page = await ctx.newPage();
    page.on('pageerror', (e) => console.error('[page error]', e.message));
    await page.goto(url);
    return page;
  };
  const problem = (page: Page) => page.locator('[data-testid=live-problem]');
  /** The connection chip of the page (the scorer's status pill, the pages' chip). */
  const chips = (page: Page, name: PageName) => page.locator(name === 'scorer' ? '[data-testid=status]' : '[data-f=status]').count();

  test('protocol-mismatch: "reload the page" with a Reload button that reloads, no live chip, on every page', { timeout: 90_000 }, async () => {
    for (const name of Object.keys(PAGES) as PageName[]) {
      const id = `old-page-${name}`;
      const page = await open(peer + PAGES[name](id));
      await problem(page).and(page.locator('[data-kind=reload]')).waitFor({ timeout: 10_000 });
      const text = ((await problem(page).textContent()) ?? '').replace(/\s+/g, ' ');
      expect(text, name).toContain('This page is out of date');
      expect(text, name).toContain('Reload the page');
      expect(text, name).not.toContain('Match not found');
      // Only the scorer keeps unsent steps (its outbox): only its hint says they wait for the reload.
      expect(text.includes('steps not sent yet stay on this device'), name).toBe(name === 'scorer');
      expect(await chips(page, name), name).toBe(0);
      expect(await page.getByText('Waiting for the match').count(), name).toBe(0);
      await page.screenshot({ path: join(shots, `live-problem-reload-${name}-390.png`), fullPage: true });
      // Reload reloads: a new page load subscribes again.
      const before = asked.get(id)!;
      await Promise.all([page.waitForEvent('load'), page.getByTestId('reload').click()]);
      await expect.poll(() => asked.get(id), { timeout: 10_000 }).toBeGreaterThan(before);
      await problem(page).and(page.locator('[data-kind=reload]')).waitFor({ timeout: 10_000 });
      await page.close();
    }
  });

  test('protocol-mismatch in Japanese and Chinese', { timeout: 60_000 }, async () => {
    for (const [lang, words] of [
      ['ja', 'ページを再読み込み'],
      ['zh-TW', '重新載入頁面'],
    ] as const) {
      for (const name of ['scorer', 'watch'] as const) {
        const page = await open(`${peer}${PAGES[name](`old-page-${lang}`).replace('lang=en', `lang=${lang}`)}`);
        await problem(page).waitFor({ timeout: 10_000 });
        expect(await page.getByTestId('reload').textContent(), `${name} ${lang}`).toBe(words);
        if (name === 'scorer') await page.screenshot({ path: join(shots, `live-problem-reload-scorer-${lang}-390.png`), fullPage: true });
        await page.close();
      }
    }
  });

  test('rate-limited: a transient "busy" line with Retry now, then the match once the client asks again', { timeout: 90_000 }, async () => {
    for (const name of Object.keys(PAGES) as PageName[]) {
      const id = `busy-${name}`;
      const page = await open(peer + PAGES[name](id));
      await problem(page).and(page.locator('[data-kind=busy]')).waitFor({ timeout: 10_000 });
      expect(await problem(page).textContent(), name).toContain('The server is busy');
      expect(await page.getByTestId('problem-retry').count(), name).toBe(1);
      if (name === 'dashboard') await page.screenshot({ path: join(shots, 'live-problem-busy-dashboard-390.png'), fullPage: true });
      // No reload, no tap: the client asks again after its back-off and the match shows.
      const score = name === 'scorer' ? page.getByTestId('score-A') : page.locator('[data-f="score-A"]');
      await score.first().waitFor({ timeout: 15_000 });
      expect(await problem(page).count(), name).toBe(0);
      expect(asked.get(id), name).toBe(2);
      await page.close();
    }
  });

  test('internal: "Retry now" asks the server again at once', { timeout: 60_000 }, async () => {
    for (const name of Object.keys(PAGES) as PageName[]) {
      const id = `broken-${name}`;
      // The page's timers stand still (Playwright's fake clock, paused before the load), so the client's own
      // back-off retry (2 s after the refusal) cannot fire: the one new ask can only come from the tap.
      const page = await ctx.newPage();
      page.on('pageerror', (e) => console.error('[page error]', e.message));
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1000);
      await page.goto(peer + PAGES[name](id));
      await problem(page).and(page.locator('[data-kind=server-error]')).waitFor({ timeout: 10_000 });
      expect(await problem(page).textContent(), name).toContain('could not read the match');
      const before = asked.get(id)!;
      await page.getByTestId('problem-retry').click();
      await expect.poll(() => asked.get(id), { timeout: 10_000 }).toBe(before + 1);
      expect(await problem(page).getAttribute('data-kind'), name).toBe('server-error');
      await page.close();
    }
  });

  test('/watch/<unknown id> on the real server: "Match not found", no live chip', { timeout: 60_000 }, async () => {
    for (const id of ['noSuchMatch1', 'x'.repeat(80)]) {
      const page = await open(`${real.url}/watch/${id}?lang=en`);
      await page.locator('[data-f="not-found"]').waitFor({ timeout: 10_000 });
      expect(await page.locator('[data-f="not-found"]').textContent()).toBe('Match not found');
      expect(await page.locator('[data-f=status]').count()).toBe(0);
      expect(await page.getByText('Waiting for the match').count()).toBe(0);
      if (id === 'noSuchMatch1') await page.screenshot({ path: join(shots, 'watch-not-found-390.png'), fullPage: true });
      await page.close();
    }
  });
});
