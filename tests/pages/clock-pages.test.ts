/**
 * The shot clock off air in real headless Chromium against one real server (embedded SQLite store), the clock
 * driven over REST as a referee's button box would:
 * - `/clock/<matchId>`: "no shot clock" until the clock is turned on, then the face live; started, it counts
 *   down (a change of second awaited, never slept for); paused, the seconds stand and the page arms no timer;
 *   an extension takes the shooter's marker; warning (amber), urgent (red) and expired (0, "Time") as the view's
 *   seconds say; the three languages; 1920×1080, 1280×720 and a phone: the seconds large and the whole face on
 *   screen without scrolling;
 * - `/clock/table/<eventId>/<table>`: follows the table's current match through a switch (*start next*), with the
 *   organiser's table clock buttons;
 * - the dashboard, the spectator page and the table screen (`/tableside/...`) show the same clock.
 * Screenshots on request (tests/helpers/pictures.ts: `SHOTS=1` into docs/screenshots/shot-clock/, `ARTIFACTS=1` into
 * artifacts/): clock-page-1920x1080.jpeg (running), clock-page-warning-1920x1080.jpeg, tableside-clock-1920x1080.jpeg;
 * the other sizes and languages always in artifacts/screenshots/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { chromiumAvailable, launchChromium, screenshotDir, settled } from '../helpers/browser';
import { createEvent, tableMatch, type CreatedEvent } from '../helpers/events';
import { countPings, IDLE_PROBE, idleWindow } from '../helpers/pages-probes';
import { PICTURES, pictureDir } from '../helpers/pictures';
import { api, createMatch, recordBreak, startTestServer } from '../helpers/server';
import { ensureBuilt } from '../helpers/global-setup';

const hasChromium = chromiumAvailable();
const FULL_HD = { width: 1920, height: 1080 };
const HD = { width: 1280, height: 720 };
const PHONE = { width: 390, height: 844 };
/** Short periods so a test reaches warning, urgent and zero within seconds (shotClockSettingsProblem: ≥ 1 s). */
const SHORT = {
  shotSeconds: 8,
  firstShotSeconds: 8,
  pushOutSeconds: 8,
  extensionSeconds: 3,
  extensionsPerPlayer: 1,
  extensionPeriod: { per: 'match' },
  warningSeconds: 6,
  urgentSeconds: 3,
  showFromSeconds: 3,
  autoStart: false,
  matchClock: { kind: 'played' },
};
const SETUP = { discipline: '14-1', ruleset: 'nba', players: ['Ann Andersen', 'Bob Brown'], targets: [100, 100] };

type M = { id: string; scorerToken: string };

async function clockOn(url: string, m: M, body: unknown): Promise<void> {
  const res = await api(url, `/api/matches/${m.id}/clock`, { method: 'PUT', token: m.scorerToken, body });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
}
async function press(url: string, m: M, action: string): Promise<void> {
  const res = await api(url, `/api/matches/${m.id}/clock/${action}`, { token: m.scorerToken, body: {} });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
}

const seconds = (page: Page) => page.evaluate(() => Number(document.querySelector('[data-f="clock-seconds"]')?.textContent ?? NaN));
const status = (page: Page, s: string, root = 'body') =>
  page.waitForFunction(([s, root]) => document.querySelector(`${root} [data-f="shot-clock"]`)?.getAttribute('data-status') === s, [s, root] as const);
const level = (page: Page, l: string) => page.waitForFunction((l) => document.querySelector('[data-f="shot-clock"]')?.getAttribute('data-level') === l, l);
/** Wait until the shown second drops below `from` (the page's own timer moved it). */
const counted = (page: Page, from: number, root = 'body') =>
  page.waitForFunction(
    ([from, root]) => {
      const s = Number(document.querySelector(`${root} [data-f="shot-clock"] [data-f="clock-seconds"]`)?.textContent ?? NaN);
      return s < from;
    },
    [from, root] as const,
  );

describe.skipIf(!hasChromium)('shot clock pages in Chromium', () => {
  let browser: Browser;
  let server: RunningServer;
  let dataDir: string;
  const errors: string[] = [];

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'cuecast-clock-'));
    server = await startTestServer({ dataDir });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
    expect(errors).toEqual([]);
  });

  const open = async (path: string, viewport = FULL_HD, probe = false): Promise<{ page: Page; pings: { n: number } }> => {
    const page = await browser.newPage({ viewport });
    page.on('pageerror', (e) => errors.push(`${path}: ${e.message}`));
    if (probe) await page.addInitScript(IDLE_PROBE);
    const pings = countPings(page);
    await page.goto(`${server.url}${path}`);
    return { page, pings };
  };

  it('/clock/<id>: no clock, then counts down, pauses without a timer, extension, warning, urgent, expired', async () => {
    const m = await createMatch(server.url, SETUP);
    await recordBreak(server.url, m); // the clock does not run for a break (D-32a)
    const { page, pings } = await open(`/clock/${m.id}?lang=en`, FULL_HD, true);
    try {
      await page.locator('[data-f="clock-page"] [data-f="no-clock"]').waitFor();
      expect(await page.locator('[data-f="no-clock"]').textContent()).toBe('No shot clock for this match');

      await clockOn(server.url, m, { settings: SHORT });
      await status(page, 'idle');
      expect(await seconds(page)).toBe(8);
      expect(await page.locator('[data-f="clock-word"]').textContent()).toBe('Ready');
      // Off air the clock shows whatever "on air from" says; the shooter (A breaks) is named and marked.
      expect(await page.locator('[data-f="shooter"]').textContent()).toContain('Ann Andersen');
      expect(await page.getAttribute('[data-f="ext-A"]', 'data-left')).toBe('1');
      expect(await page.getAttribute('[data-f="ext-B"]', 'data-left')).toBe('1');

      await press(server.url, m, 'start');
      await status(page, 'running');
      const first = await seconds(page);
      expect(first).toBeLessThanOrEqual(8);
      await counted(page, first);
      expect(await page.locator('[data-f="match-clock"]').textContent()).toBe('Match time 0 min');

      await press(server.url, m, 'pause');
      await status(page, 'paused');
      const held = await seconds(page);
      const idle = await idleWindow(page, pings, 1500);
      expect(await seconds(page)).toBe(held);
      expect(idle.scheduled, 'timers armed while paused (socket.io heartbeats aside)').toBeLessThanOrEqual(idle.pings);
      expect(await page.locator('[data-f="clock-word"]').textContent()).toBe('Paused');

      // The extension while paused adds its seconds at once and takes A's marker.
      await press(server.url, m, 'extension');
      await page.waitForFunction(() => document.querySelector('[data-f="ext-A"]')?.getAttribute('data-left') === '0');
      expect(await seconds(page)).toBe(held + 3);
      expect(await page.locator('[data-f="ext-A"] i.on').count()).toBe(0);
      expect(await page.locator('[data-f="ext-B"] i.on').count()).toBe(1);

      await press(server.url, m, 'resume');
      await level(page, 'warning');
      expect(await seconds(page)).toBeLessThanOrEqual(6);
      const face = page.locator('[data-f="clock-face"]');
      expect(await face.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(255, 176, 0)');
      expect(await face.evaluate((e) => getComputedStyle(e).color)).toBe('rgb(0, 0, 0)');
      if (PICTURES) await page.screenshot({ path: join(pictureDir('shot-clock'), 'clock-page-warning-1920x1080.jpeg'), type: 'jpeg', quality: 85 });
      await level(page, 'urgent');
      expect(await seconds(page)).toBeLessThanOrEqual(3);
      expect(await face.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(215, 0, 21)');
      await status(page, 'expired');
      expect(await seconds(page)).toBe(0);
      expect(await page.locator('[data-f="clock-word"]').textContent()).toBe('Time');
      expect(await page.getAttribute('[data-f="shot-clock"]', 'data-level')).toBe('urgent');
    } finally {
      await page.close();
    }
  });

  it('/clock/<id> in three languages, at 1920×1080, 1280×720 and on a phone: large seconds, all on screen', async () => {
    const m = await createMatch(server.url, { ...SETUP, players: ['Ann Andersen', '王小明'] });
    await recordBreak(server.url, m);
    await clockOn(server.url, m, { preset: 'pro' });
    await press(server.url, m, 'start');
    const running = await open(`/clock/${m.id}?lang=en`);
    try {
      await status(running.page, 'running');
      await settled(running.page);
      if (PICTURES) await running.page.screenshot({ path: join(pictureDir('shot-clock'), 'clock-page-1920x1080.jpeg'), type: 'jpeg', quality: 85 });
    } finally {
      await running.page.close();
    }
    await press(server.url, m, 'pause');
    const words = { en: 'Paused', ja: '一時停止', 'zh-TW': '暫停' } as const;
    for (const [lang, word] of Object.entries(words)) {
      for (const [name, size] of Object.entries({ '1920x1080': FULL_HD, '1280x720': HD, phone: PHONE })) {
        const { page } = await open(`/clock/${m.id}?lang=${lang}`, size);
        try {
          await status(page, 'paused');
          await settled(page);
          expect(await page.locator('html').getAttribute('lang')).toBe(lang);
          expect(await page.locator('[data-f="clock-word"]').textContent()).toBe(word);
          const box = (await page.locator('[data-f="clock-seconds"]').boundingBox())!;
          // From 5 m: the digits over half the screen's height on a landscape monitor, a fifth of a phone's.
          expect(box.height, `${lang} ${name}`).toBeGreaterThanOrEqual(size === PHONE ? size.height * 0.2 : size.height * 0.45);
          const fits = await page.evaluate(() => {
            const el = document.scrollingElement!;
            const outside = [...document.querySelectorAll('[data-f="clock-face"] *')].flatMap((e) => {
              const r = e.getBoundingClientRect();
              const ok = r.left >= -1 && r.top >= -1 && r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1;
              return ok ? [] : [`${e.className} ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)}`];
            });
            return { scroll: el.scrollHeight <= innerHeight + 1 && el.scrollWidth <= innerWidth + 1, outside };
          });
          expect(fits, `${lang} ${name}`).toEqual({ scroll: true, outside: [] });
          expect(await page.locator('[data-f="clock-player-B"]').textContent()).toContain('王小明');
          await page.screenshot({ path: join(screenshotDir(), `clock-page-${lang}-${name}.png`) });
        } finally {
          await page.close();
        }
      }
    }
  });

  it('/clock without a match, an unknown match and an unknown table say so', async () => {
    const cases = [
      ['/clock?lang=en', '[data-f="missing"]'],
      ['/clock/table/nope?lang=en', '[data-f="missing"]'],
      ['/clock/no-such-match?lang=en', '[data-f="not-found"]'],
      ['/clock/table/no-such-event/table-1?lang=en', '[data-f="table-error"]'],
    ] as const;
    for (const [path, sel] of cases) {
      const { page } = await open(path, HD);
      try {
        await page.locator(`[data-f="clock-page"] ${sel}`).waitFor();
      } finally {
        await page.close();
      }
    }
  });

  it('/clock/table/<eventId>/<table> follows the table through a match switch; the organiser presses the table clock', async () => {
    const ev: CreatedEvent = await createEvent(server.url);
    const m1 = await tableMatch(server.url, ev, 'table-1', ['p1', 'p2'], true);
    await recordBreak(server.url, m1);
    await clockOn(server.url, m1, { preset: 'league' });
    const { page } = await open(`/clock/table/${ev.id}/table-1?lang=en`);
    try {
      await page.locator(`[data-f="clock-page"] [data-match="${m1.id}"] [data-f="shot-clock"]`).waitFor();
      expect(await seconds(page)).toBe(45);
      expect(await page.locator('[data-f="shooter"]').textContent()).toContain('Ann Andersen');
      const m2 = await tableMatch(server.url, ev, 'table-1', ['p3', 'p4']);
      const started = await api(server.url, `/api/events/${ev.id}/tables/table-1/start`, { token: ev.organiserToken, body: {} });
      expect(started.status, JSON.stringify(started.body)).toBeLessThan(300);
      await page.locator(`[data-match="${m2.id}"] [data-f="no-clock"]`).waitFor();
      expect(await page.locator(`[data-match="${m1.id}"]`).count()).toBe(0);
      await recordBreak(server.url, m2);
      await clockOn(server.url, m2, { settings: { ...SHORT, shotSeconds: 20, firstShotSeconds: 20 } });
      await status(page, 'idle');
      expect(await page.locator('[data-f="shooter"]').textContent()).toContain('Chen');
      const res = await api(server.url, `/api/events/${ev.id}/tables/table-1/clock/start`, { token: ev.organiserToken, body: {} });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      await status(page, 'running');
      await counted(page, 20);
    } finally {
      await page.close();
    }
  });

  it('the dashboard, the spectator page and the table screen show the clock', async () => {
    const ev: CreatedEvent = await createEvent(server.url);
    const m = await tableMatch(server.url, ev, 'tv-table', ['p1', 'p2'], true);
    await recordBreak(server.url, m);
    await clockOn(server.url, m, { preset: 'pro' });
    await press(server.url, m, 'start');
    await press(server.url, m, 'extension');
    const pages = [
      [`/dashboard/${m.id}?lang=en`, FULL_HD],
      [`/watch/${m.id}?lang=ja`, PHONE],
      [`/tableside/${ev.id}/tv-table?lang=en`, FULL_HD],
    ] as const;
    for (const [path, size] of pages) {
      const { page } = await open(path, size);
      try {
        await status(page, 'running');
        const from = await seconds(page);
        expect(from, path).toBeGreaterThan(30); // 60 s + the 30 s extension, less the pages before
        await counted(page, from);
        expect(await page.getAttribute('[data-f="ext-A"]', 'data-left'), path).toBe('0');
        expect(await page.getAttribute('[data-f="ext-B"]', 'data-left'), path).toBe('1');
        expect(await page.locator('[data-f="shooter"]').textContent(), path).toContain('Ann');
        if (path.startsWith('/tableside')) {
          const row = (await page.locator('[data-f="clock-row"]').boundingBox())!;
          expect(row.y + row.height, 'the clock row is on screen').toBeLessThanOrEqual(size.height);
          expect((await page.locator('[data-f="clock-seconds"]').boundingBox())!.height).toBeGreaterThanOrEqual(60);
          await settled(page);
          if (PICTURES) await page.screenshot({ path: join(pictureDir('shot-clock'), 'tableside-clock-1920x1080.jpeg'), type: 'jpeg', quality: 85 });
        } else {
          await page.screenshot({ path: join(screenshotDir(), `clock-${path.split('/')[1]}.png`) });
        }
      } finally {
        await page.close();
      }
    }
    // Paused: the dashboard shows the held seconds with the word, and no timer runs for it.
    await press(server.url, m, 'pause');
    const { page, pings } = await open(`/dashboard/${m.id}?lang=zh-TW`, FULL_HD, true);
    try {
      await status(page, 'paused');
      expect(await page.locator('[data-f="clock-word"]').textContent()).toBe('暫停');
      const held = await seconds(page);
      const idle = await idleWindow(page, pings, 1500);
      expect(await seconds(page)).toBe(held);
      expect(idle.scheduled).toBeLessThanOrEqual(idle.pings);
    } finally {
      await page.close();
    }
  });
});
