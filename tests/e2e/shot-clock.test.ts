/**
 * The shot clock end to end (issue 18) in real headless Chromium on two server instances sharing the real Redis
 * (own key prefix), a 14-1 match picked up mid-rack with its clock set at creation: the referee's console on instance 1; the OBS overlay (`/overlay/<id>`) and the full-screen
 * clock page (`/clock/<id>`) on instance 2. One clock runs through start, extension, a restart of instance 2
 * (its pages reconnect to the new process on the same port and still show the same clock), pause, resume and
 * expiry, then the console's foul menu records a time foul (D-32: `fouls: ["time"]`), which passes the turn and
 * opens the next clock period. Every screen is checked at each step through the selector contract
 * (`[data-f="shot-clock"]` with `data-status`, `[data-f="ext-A"]` with `data-left`). Waits are for the state the
 * test expects (no sleeping and comparing a running clock's seconds).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { chromiumAvailable, launchChromium, screenshotDir } from '../helpers/browser';
import { ensureBuilt } from '../helpers/global-setup';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, startTestServer } from '../helpers/server';
import { join } from 'node:path';

const hasChromium = chromiumAvailable();
const redis = await requireRedis();
/** Short allowances so the test reaches the warnings and expiry in seconds. */
const SETTINGS = {
  shotSeconds: 8,
  firstShotSeconds: 8,
  pushOutSeconds: 8,
  extensionSeconds: 4,
  extensionsPerPlayer: 1,
  extensionPeriod: { per: 'rack' },
  warningSeconds: 6,
  urgentSeconds: 3,
  showFromSeconds: null,
  autoStart: false,
  matchClock: { kind: 'played' },
};

interface Created {
  id: string;
  scorerToken: string;
  urls: { scorer: string };
}

describe.skipIf(!hasChromium || !redis.available)('shot clock end to end: console, overlay and clock page on two instances, with a restart', () => {
  const prefix = testPrefix('e2e-clock');
  let s1: RunningServer;
  let s2: RunningServer;
  let browser: Browser;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await ensureBuilt();
    s1 = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    s2 = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await s1?.close();
    await s2?.close();
    await dropPrefix(redis.url, prefix);
    expect(pageErrors).toEqual([]);
  });

  const open = async (url: string, viewport = { width: 1920, height: 1080 }): Promise<Page> => {
    const page = await browser.newPage({ viewport });
    page.on('pageerror', (e) => pageErrors.push(`${url}: ${e.message}`));
    await page.goto(url);
    return page;
  };
  /** The shared REST helper (tests/helpers/server.ts `api`), its body on a 2xx answer; throws with the body otherwise. */
  const call = async <T>(base: string, path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<T> => {
    const r = await api(base, path, init);
    if (r.status < 200 || r.status > 299) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as T;
  };
  /** Every page shows the clock with `status` (and, when given, player A's extensions left). */
  const allShow = async (pages: Page[], status: string, extA?: number) => {
    for (const page of pages) {
      await page.locator(`[data-f="shot-clock"][data-status="${status}"]`).first().waitFor({ state: 'attached', timeout: 15_000 });
      if (extA !== undefined) await page.locator(`[data-f="ext-A"][data-left="${extA}"]`).first().waitFor({ state: 'attached', timeout: 15_000 });
    }
  };
  const seconds = async (page: Page) => Number(((await page.locator('[data-f="shot-clock"]').first().textContent()) ?? '').replace(/\D+/g, ''));

  it('start, extension, restart, pause, resume, expiry and a time foul reach every screen', async () => {
    // A 14-1 match picked up mid-rack (no time foul on the break), its clock set in the create request.
    const m = await call<Created>(s1.url, '/api/matches', {
      method: 'POST',
      body: {
        discipline: '14-1',
        ruleset: 'nba',
        players: ['Ann Andersen', 'Kenji Watanabe'],
        targets: [100, 100],
        start: { score: [10, 12], turn: 'A', rack: 1, ballsOnTable: 9 },
        clock: { settings: SETTINGS },
      },
    });

    const console_ = await open(`${s1.url}${new URL(m.urls.scorer, s1.url).pathname}${new URL(m.urls.scorer, s1.url).hash}`, { width: 1280, height: 800 });
    await console_.locator('[data-testid=status][data-status=live]').waitFor({ timeout: 15_000 });
    const overlay = await open(`${s2.url}/overlay/${m.id}?anim=0`);
    const clockPage = await open(`${s2.url}/clock/${m.id}`);
    const watchers = [overlay, clockPage];
    await allShow([console_, clockPage], 'idle');

    // Start from the console: every screen runs, the same clock.
    await console_.getByTestId('clock-main').click();
    await allShow([console_, ...watchers], 'running', 1);
    // The clock page counts down by itself.
    const first = await seconds(clockPage);
    await clockPage.waitForFunction((s) => Number(document.querySelector('[data-f="shot-clock"]')!.textContent!.replace(/\D+/g, '')) < s, first, {
      timeout: 5000,
    });

    // The shooter's extension: A has none left on every screen.
    await console_.getByTestId('clock-extension').click();
    await allShow([console_, ...watchers], 'running', 0);

    // Restart instance 2 on the same port: its pages come back to the same running clock.
    const port = Number(new URL(s2.url).port);
    await s2.close();
    s2 = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix, port });
    await allShow(watchers, 'running', 0);

    // Pause: every screen stops at the same seconds; resume runs on.
    await console_.getByTestId('clock-main').click();
    await allShow([console_, ...watchers], 'paused');
    const paused = await call<{ clock: { remainingMs: number } }>(s2.url, `/api/matches/${m.id}`);
    const pausedSeconds = Math.ceil(paused.clock.remainingMs / 1000);
    for (const page of [console_, ...watchers]) await expect.poll(() => seconds(page), { timeout: 5000 }).toBe(pausedSeconds);
    await console_.getByTestId('clock-main').click();
    await allShow([console_, ...watchers], 'running');

    // Expiry: every screen says so; nothing was recorded by the clock itself.
    await allShow([console_, ...watchers], 'expired');
    expect((await call<{ version: number }>(s1.url, `/api/matches/${m.id}`)).version).toBe(0);
    await console_.screenshot({ path: join(screenshotDir(), 'shot-clock-console-expired.png') });

    // The time foul from the console's foul menu: recorded as `fouls: ["time"]`, B at the table, a new clock period.
    await console_.getByTestId('foul').click();
    await console_.getByTestId('foul-time').click();
    await expect.poll(async () => (await call<{ version: number }>(s1.url, `/api/matches/${m.id}`)).version, { timeout: 10_000 }).toBe(1);
    const steps = await call<{ steps: { step: { shot?: { fouls?: string[] } } }[] }>(s1.url, `/api/matches/${m.id}/steps`);
    expect(steps.steps[0]!.step).toEqual({ shot: { fouls: ['time'] } });
    const after = await call<{ state: { turn: string; score: number[] }; clock: { status: string; shooter: string } }>(s2.url, `/api/matches/${m.id}`);
    expect(after.state.turn).toBe('B');
    expect(after.state.score).toEqual([9, 12]); // −1 for the time foul (D-32)
    expect(after.clock).toMatchObject({ status: 'idle', shooter: 'B' });
    await allShow([console_, clockPage], 'idle');
  });
});
