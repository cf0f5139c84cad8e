/**
 * The scorer console's service worker (web/scorer-worker-plugin.ts, registered by web/src/scorer/offline-worker.ts),
 * in real headless Chromium against a real in-process server that the test really stops and starts again (same
 * data folder, same port), so a reload cannot reach it:
 * - opened online, the worker installs and controls the console; with the server stopped, a reload shows the
 *   console from the worker (the last known table, not the browser's error page), a shot queues, and once the
 *   server is back the queued shot reaches the log exactly once;
 * - the page is network first: with the server up, a reload gets the server's (changed) scorer.html, not the
 *   worker's copy;
 * - the OBS overlay is never cached: `Cache-Control: no-store`, not controlled by the worker, nothing of it in
 *   the worker's cache, and a reload with the server stopped fails;
 * - the worker script is served `no-cache`.
 * The server serves a copy of web/dist (staticDir; overlay/dist as it is), so the test can change "the build" without touching others'.
 * Screenshot: artifacts/screenshots/scorer-worker-offline-reload-390.png (git-ignored).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../server/app';
import { chromiumAvailable, launchChromium, screenshotDir, settled as laidOut } from '../helpers/browser';
import { ensureBuilt } from '../helpers/global-setup';
import { PHONE, type Created } from '../helpers/scorer-harness';
import { REPO_ROOT, startTestServer } from '../helpers/server';

const run = chromiumAvailable();

describe.skipIf(!run)('the scorer console from its service worker, in Chromium', () => {
  let browser: Browser;
  let server: RunningServer | null = null;
  let dataDir = '';
  let webDir = '';

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'cuecast-scorer-worker-data-'));
    webDir = mkdtempSync(join(tmpdir(), 'cuecast-scorer-worker-web-'));
    cpSync(join(REPO_ROOT, 'web', 'dist'), webDir, { recursive: true });
    server = await startTestServer({ dataDir, staticDir: [webDir, join(REPO_ROOT, 'overlay', 'dist')] });
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    for (const d of [dataDir, webDir]) if (d) rmSync(d, { recursive: true, force: true });
  });

  const base = () => server!.url;
  /** Stop the server (nothing answers on its port any more); resolves with the port. */
  const stop = async (): Promise<number> => {
    const port = server!.port;
    await server!.close();
    server = null;
    return port;
  };
  /** Start it again on `port` with the same data and pages. */
  const restart = async (port: number) => {
    server = await startTestServer({ dataDir, staticDir: [webDir, join(REPO_ROOT, 'overlay', 'dist')], port });
  };
  const json = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const res = await fetch(`${base()}${path}`, init);
    const body = (await res.json()) as T;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  const create = (setup: object) =>
    json<Created>('/api/matches', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(setup) });
  const matchOf = (id: string) => json<{ version: number; state: { score: number[]; turn: string } }>(`/api/matches/${id}`);
  const stepsOf = async (id: string) => (await json<{ steps: { stepId: string }[] }>(`/api/matches/${id}/steps`)).steps;
  const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
  const outboxIds = (page: Page, id: string) =>
    page.evaluate((k) => (JSON.parse(localStorage.getItem(k) ?? '[]') as { stepId: string }[]).map((e) => e.stepId), `cuecast.outbox.${id}`);
  /** Every URL held in the page's Cache Storage (what the worker precached), as paths. */
  const cachedPaths = (page: Page) =>
    page.evaluate(async () => {
      const paths: string[] = [];
      for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) paths.push(new URL(req.url).pathname);
      return paths.sort();
    });

  async function phone(): Promise<{ ctx: BrowserContext; page: Page }> {
    const ctx = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1, hasTouch: true, isMobile: true });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => console.error('[page error]', e.message));
    return { ctx, page };
  }

  /** Open the scorer link, wait until it is live and the worker controls it (installed: its precache is complete). */
  async function openControlled(m: Created): Promise<{ ctx: BrowserContext; page: Page }> {
    const opened = await phone();
    await opened.page.goto(m.urls.scorer.replace(/^https?:\/\/[^/]+/, base()));
    await opened.page.locator('[data-testid=status][data-status=live]').waitFor({ timeout: 10_000 });
    await opened.page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    return opened;
  }

  /** The server at `version` and the console with nothing queued. */
  async function confirmed(page: Page, id: string, version: number): Promise<void> {
    await expect.poll(async () => (await matchOf(id)).version, { timeout: 15_000 }).toBe(version);
    await page.locator('[data-testid=status][data-status=live][data-queued="0"]').waitFor({ timeout: 15_000 });
  }

  test('the worker script is served no-cache, as JavaScript, and precaches the console only', async () => {
    const res = await fetch(`${base()}/scorer-sw.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    // The precache list (Workbox's `{url:"…",revision:…}` entries): exactly the files scorer.html loads, the
    // page itself and the favicons; no other page's HTML or assets.
    const manifest = [...(await res.text()).matchAll(/\{url:"([^"]+)",revision:/g)].map((x) => x[1]!).sort();
    const html = readFileSync(join(webDir, 'scorer.html'), 'utf8');
    const loads = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((x) => x[1]!);
    expect(loads.length).toBeGreaterThan(2);
    expect(manifest).toEqual([...loads, 'scorer.html', 'favicon.ico', 'favicon.svg'].sort());
  });

  test('reloaded with the server stopped: the console from the worker, a queued shot reaches the log once when it is back', { timeout: 90_000 }, async () => {
    const m = await create({ discipline: '14-1', players: ['Ann', 'Bob'], start: { turn: 'A', ballsOnTable: 12, score: [5, 7] } });
    const { ctx, page } = await openControlled(m);
    const cached = await cachedPaths(page);
    expect(cached).toContain('/scorer.html');
    expect(cached.filter((p) => /overlay|dashboard|watch|index|\/api\//.test(p))).toEqual([]);

    await page.getByTestId('count-plus').click();
    await page.getByTestId('made').click(); // Ann +2, confirmed online
    await confirmed(page, m.id, 1);

    const port = await stop();
    await page.locator('[data-testid=status][data-status=offline]').waitFor({ timeout: 10_000 });
    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await page.getByTestId('cached-state').waitFor({ timeout: 10_000 });
    expect(await page.title()).toBe(`cuecast · scorer · ${m.id}`);
    expect(await text(page, 'cached-state')).toMatch(/^offline — last known state \(saved \d/);
    expect([await text(page, 'score-A'), await text(page, 'score-B'), await text(page, 'turn')]).toEqual(['7', '7', 'Ann at the table']);

    await page.getByTestId('miss').click(); // queued against version 1
    await page.getByTestId('status').filter({ hasText: 'offline — 1 queued' }).waitFor();
    expect([await text(page, 'score-A'), await text(page, 'turn')]).toEqual(['7', 'Bob at the table']);
    const queued = await outboxIds(page, m.id);
    expect(queued).toHaveLength(1);
    await laidOut(page);
    await page.screenshot({ path: join(screenshotDir(), 'scorer-worker-offline-reload-390.png'), fullPage: true });

    await restart(port);
    await confirmed(page, m.id, 2);
    await page.getByTestId('cached-state').waitFor({ state: 'detached' });
    const after = await matchOf(m.id);
    expect([after.version, after.state.score, after.state.turn]).toEqual([2, [7, 7], 'B']);
    const ids = (await stepsOf(m.id)).map((s) => s.stepId);
    expect(ids.filter((id) => id === queued[0])).toHaveLength(1);
    expect(ids).toHaveLength(2);

    // Online again, a reload sends nothing twice: still two steps.
    await page.reload();
    await page.locator('[data-testid=status][data-status=live][data-queued="0"]').waitFor({ timeout: 10_000 });
    expect(await outboxIds(page, m.id)).toEqual([]);
    expect((await stepsOf(m.id)).map((s) => s.stepId)).toEqual(ids);
    await ctx.close();
  });

  test("network first: with the server up, a reload gets the server's scorer.html, not the worker's copy", { timeout: 60_000 }, async () => {
    const m = await create({ discipline: '14-1', players: ['Ann', 'Bob'] });
    const { ctx, page } = await openControlled(m);
    const file = join(webDir, 'scorer.html');
    const original = readFileSync(file, 'utf8');
    try {
      writeFileSync(file, original.replace('<head>', '<head>\n    <meta name="cuecast-build" content="next" />'));
      await page.reload();
      await page.locator('[data-testid=status][data-status=live]').waitFor({ timeout: 10_000 });
      expect(await page.locator('meta[name=cuecast-build]').getAttribute('content')).toBe('next');
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    } finally {
      writeFileSync(file, original);
    }
    await ctx.close();
  });

  test(
    'the OBS overlay keeps no cache: no-store, never controlled by the worker, and a reload with the server stopped fails',
    { timeout: 60_000 },
    async () => {
      const m = await create({ discipline: '14-1', players: ['Ann', 'Bob'] });
      // The same browser profile as a console with the worker installed.
      const { ctx, page } = await openControlled(m);
      const overlay = await ctx.newPage();
      const res = await overlay.goto(`${base()}/overlay/${m.id}`);
      expect(res?.status()).toBe(200);
      expect(res?.headers()['cache-control']).toBe('no-store');
      expect(res?.fromServiceWorker()).toBe(false);
      await laidOut(overlay);
      expect(await overlay.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
      const tableOverlay = await fetch(`${base()}/overlay/table/e1/1`);
      expect(tableOverlay.headers.get('cache-control')).toBe('no-store');
      // Other pages are revalidated on every load and are not the worker's either.
      const dashboard = await ctx.newPage();
      expect((await dashboard.goto(`${base()}/dashboard/${m.id}`))?.headers()['cache-control']).toBe('no-cache');
      expect(await dashboard.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
      expect((await cachedPaths(page)).filter((p) => /overlay/.test(p))).toEqual([]);

      const port = await stop();
      try {
        await expect(overlay.reload()).rejects.toThrow(/ERR_CONNECTION_REFUSED/);
      } finally {
        await restart(port);
      }
      await ctx.close();
    },
  );
});
