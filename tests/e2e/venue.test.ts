/**
 * The venue screens end to end in real headless Chromium, on two server instances sharing the real Redis (own
 * key prefix): the organiser and the scorers work through instance 1 (REST), the screens watch instance 2.
 * - An event with three tables: the hall board (`/venue/<eventId>`, 1920×1080 and 1280×720) shows every table
 *   live (flags, names, scores ≥ 48 px at 1080p, race, who is at the table, on 2 fouls) and each next match;
 *   a table screen (`/tableside/<eventId>/<table>`) shows its table's match large. A recorded shot reaches
 *   both; a match switch (*Start next match*) reaches both without a reload; a finished match shows in the
 *   board's results. Every text reads at 4.5:1 or more.
 * - An event with ten tables: the board shows 8 per page and turns to the second page by itself (`?every=5`).
 * - Sponsors: a logo uploaded while the screens are open shows on the board between pages and on the table
 *   screen between matches, from this server only; a change (another logo, the first removed) reaches both
 *   without a reload.
 * Screenshots: artifacts/screenshots/venue-board-1920x1080.png, venue-board-1280x720.png,
 * venue-tableside-1920x1080.png (kept in docs/screenshots/).
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Step } from '../../shared/protocol/steps';
import { chromiumAvailable, launchChromium, screenshotDir } from '../helpers/browser';
import { createEvent, recordStep, stepsToWin, tableMatch, type CreatedEvent } from '../helpers/events';
import { pngOf, uploadSponsor } from '../helpers/images';
import { requireRedis, testPrefix } from '../helpers/redis';
import { api, twoInstances } from '../helpers/server';
import { texts } from '../helpers/legibility';
import { ensureBuilt } from '../helpers/global-setup';

const hasChromium = chromiumAvailable();
const redis = await requireRedis();
const FULL_HD = { width: 1920, height: 1080 };
const DEFAULTS = { discipline: '14-1', ruleset: 'nba', targets: [3, 3] } as const;
const WIN = stepsToWin({ ...DEFAULTS, players: ['A', 'B'] });
/** B on two fouls: A's legal safety break, B scratches, A misses, B scratches. */
const TWO_FOULS_B: Step[] = [
  { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } },
  { shot: { call: { made: false }, cueBall: 'scratch' } },
  { shot: { call: { made: false } } },
  { shot: { call: { made: false }, cueBall: 'scratch' } },
];
const VENUE_EVENT = {
  name: 'Hall Open',
  date: '2026-04-18',
  defaults: DEFAULTS,
  theme: { theme: 'dark', accent: 'ff8800' },
  tables: ['TV table', 'Table 2', 'Table 3'],
  roster: [
    { name: 'Ann Andersen', short: 'Ann', country: 'DK' },
    { name: 'Jürgen Kraus', country: 'DE' },
    { name: 'Chen Wei', short: 'Chen', country: 'TW' },
    { name: 'Dora Díaz', country: 'ES' },
    { name: 'Emi Sato', country: 'JP' },
    { name: 'Finn Murphy', country: 'IE' },
    { name: 'Greta Olsen', country: 'NO' },
    { name: 'Hugo Martin', country: 'FR' },
  ],
};

const flagsDrawn = (page: Page) =>
  page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('img[data-flag]')].every((i) => i.complete && i.naturalWidth > 0));
const textOf = (page: Page, sel: string) => page.locator(sel).first().textContent();

describe.skipIf(!hasChromium || !redis.available)('venue screens end to end, two instances over one Redis', () => {
  const two = twoInstances(redis.url, testPrefix('e2e-venue'));
  let browser: Browser;
  let ev: CreatedEvent;
  let shots: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await ensureBuilt();
    browser = await launchChromium();
    shots = screenshotDir();
    ev = await createEvent(two.s1.url, VENUE_EVENT);
  });
  afterAll(async () => {
    await browser?.close();
    expect(pageErrors).toEqual([]);
  });

  const open = async (url: string, size = FULL_HD): Promise<Page> => {
    const page = await browser.newPage({ viewport: size });
    page.on('pageerror', (e) => pageErrors.push(`${url}: ${e.message}`));
    await page.goto(url);
    return page;
  };

  it(
    'shows three tables on the hall board and one on its table screen; a shot, a match switch and a result reach both without a reload',
    { timeout: 120_000 },
    async () => {
      const tv = await tableMatch(two.s1.url, ev, 'tv-table', ['p1', 'p2'], true);
      const t2 = await tableMatch(two.s1.url, ev, 'table-2', ['p3', 'p4'], true);
      const t3 = await tableMatch(two.s1.url, ev, 'table-3', ['p5', 'p6'], true);
      const tvNext = await tableMatch(two.s1.url, ev, 'tv-table', ['p7', 'p8']);
      for (const step of TWO_FOULS_B) await recordStep(two.s1.url, t2, step);

      const board = await open(`${two.s2.url}/venue/${ev.id}?lang=en`);
      const screen = await open(`${two.s2.url}/tableside/${ev.id}/tv-table?lang=en`);
      await board.locator('article.tile').nth(2).waitFor();
      await screen.locator('[data-f="name-A"]').waitFor();
      for (const p of [board, screen]) await p.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

      // The board: three tiles with the players, flags, scores, race; the next match of the TV table; B on two fouls at table 2.
      expect(await board.locator('article.tile').evaluateAll((els) => els.map((e) => e.getAttribute('data-table')))).toEqual([
        'tv-table',
        'table-2',
        'table-3',
      ]);
      const tvTile = board.locator('article[data-table="tv-table"]');
      expect(await tvTile.locator('[data-f="name-A"]').textContent()).toBe('Ann Andersen');
      expect(await tvTile.locator('[data-f="name-B"]').textContent()).toBe('Jürgen Kraus');
      expect(await tvTile.locator('[data-f="race"]').textContent()).toBe('Race to 3');
      expect(await tvTile.locator('[data-f="next"]').textContent()).toContain('Greta Olsen – Hugo Martin');
      await board.locator('article[data-table="table-2"] [data-f="two-fouls-B"]').waitFor();
      expect(await board.locator('article[data-table="table-2"] [data-f="score-B"]').textContent()).toBe('−2');
      await flagsDrawn(board);
      expect(await tvTile.locator('img[data-flag]').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('data-flag')))).toEqual(['DK', 'DE', 'NO', 'FR']);
      // Readable from 5 m: every score at least 48 px at 1080p; every text at 4.5:1.
      const scoreSizes = await board.locator('[data-f^="score-"]').evaluateAll((els) => els.map((e) => parseFloat(getComputedStyle(e).fontSize)));
      expect(scoreSizes).toHaveLength(6);
      for (const size of scoreSizes) expect(size).toBeGreaterThanOrEqual(48);
      for (const x of await texts(board, '[data-testid="hall-board"]')) expect(x.contrast, `board: "${x.text}"`).toBeGreaterThanOrEqual(4.5);

      // The table screen: the TV table's match large, the next match under it.
      expect(await textOf(screen, '[data-f="table-name"]')).toBe('TV table');
      expect(await textOf(screen, '[data-f="name-B"]')).toBe('Jürgen Kraus');
      expect(await textOf(screen, '[data-f="next"]')).toContain('Greta Olsen – Hugo Martin');
      expect(parseFloat(await screen.locator('[data-f="score-A"]').evaluate((e) => getComputedStyle(e).fontSize))).toBeGreaterThanOrEqual(96);
      for (const x of await texts(screen, '[data-testid="table-screen"]')) expect(x.contrast, `screen: "${x.text}"`).toBeGreaterThanOrEqual(4.5);

      // A recorded shot on the TV table (through instance 1) reaches both screens.
      for (const step of WIN.slice(0, 3)) await recordStep(two.s1.url, tv, step);
      await board.waitForFunction(() => document.querySelector('article[data-table="tv-table"] [data-f="score-A"]')?.textContent === '1');
      await screen.waitForFunction(() => document.querySelector('[data-f="score-A"]')?.textContent === '1');
      expect(await screen.locator('.player.at [data-f="name-A"]').count()).toBe(1);
      await flagsDrawn(screen);
      await board.screenshot({ path: join(shots, 'venue-board-1920x1080.png') });
      await screen.screenshot({ path: join(shots, 'venue-tableside-1920x1080.png') });

      // Table 3's match is won: the board lists it in the results.
      for (const step of WIN) await recordStep(two.s1.url, t3, step);
      await board.locator(`[data-testid="results"] li[data-match="${t3.id}"]`).waitFor();
      expect(await board.locator(`[data-testid="results"] li[data-match="${t3.id}"]`).textContent()).toContain('Emi Sato');

      // The organiser starts the TV table's next match: both screens switch, no reload.
      const started = await api(two.s1.url, `/api/events/${ev.id}/tables/tv-table/start`, { token: ev.organiserToken, body: {} });
      expect(started.status).toBe(200);
      await board.waitForFunction((id) => document.querySelector('article[data-table="tv-table"]')?.getAttribute('data-current') === id, tvNext.id);
      await screen.waitForFunction(() => document.querySelector('[data-f="name-A"]')?.textContent === 'Greta Olsen');
      expect(await board.locator('article[data-table="tv-table"] [data-f="name-A"]').textContent()).toBe('Greta Olsen');
      expect(await textOf(screen, '[data-f="score-A"]')).toBe('0');
      expect(await textOf(screen, '[data-f="next"]')).toBe('');
      for (const p of [board, screen]) expect(await p.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

      // 1280×720: the same board fits (no scrolling, nothing cut off sideways).
      await board.setViewportSize({ width: 1280, height: 720 });
      await board.waitForFunction(() => document.documentElement.scrollHeight <= innerHeight + 1 && document.documentElement.scrollWidth <= innerWidth + 1);
      await board.screenshot({ path: join(shots, 'venue-board-1280x720.png') });
      await Promise.all([board.close(), screen.close()]);
    },
  );

  it(
    'shows a sponsor uploaded meanwhile on the board between pages and on a table screen between matches; a change reaches both without a reload',
    { timeout: 120_000 },
    async () => {
      // Table 3's match was won in the first test: between matches.
      const board = await open(`${two.s2.url}/venue/${ev.id}?lang=en&every=5`);
      const screen = await open(`${two.s2.url}/tableside/${ev.id}/table-3?lang=en`);
      const foreign: string[] = [];
      for (const p of [board, screen]) {
        p.on('request', (r) => {
          if (!r.url().startsWith(two.s2.url) && !r.url().startsWith('data:')) foreign.push(r.url());
        });
      }
      await board.locator('article.tile').first().waitFor();
      await screen.locator('[data-f="table-name"]').waitFor();
      for (const p of [board, screen]) await p.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
      expect(await board.locator('[data-testid="sponsor"]').count()).toBe(0);

      const first = await uploadSponsor(two.s1.url, ev.id, ev.organiserToken, pngOf(120, 60, [20, 90, 200]), 'Blue Chalk', 5);
      const sponsorShown = (p: Page, id: string) =>
        p.waitForFunction(
          (sid) => {
            const img = document.querySelector<HTMLImageElement>(`[data-testid="sponsor"][data-sponsor="${sid}"] img`);
            return !!img && img.complete && img.naturalWidth === 120;
          },
          id,
          { timeout: 30_000 },
        );
      await sponsorShown(screen, first);
      expect(await textOf(screen, '[data-f="final"]')).toContain('Emi Sato 3 – 0 Finn Murphy');
      await sponsorShown(board, first);
      await board.screenshot({ path: join(shots, 'venue-board-sponsor-1920x1080.png') });
      await screen.screenshot({ path: join(shots, 'venue-tableside-sponsor-1920x1080.png') });

      // A change: another logo, the first removed. Both follow without a reload.
      const second = await uploadSponsor(two.s1.url, ev.id, ev.organiserToken, pngOf(120, 60, [200, 40, 20]), 'Red Cue', 5);
      const removed = await api(two.s1.url, `/api/events/${ev.id}/sponsors/${first}`, { method: 'DELETE', token: ev.organiserToken });
      expect(removed.status).toBe(200);
      await sponsorShown(screen, second);
      await sponsorShown(board, second);
      for (const p of [board, screen]) expect(await p.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
      expect(foreign).toEqual([]);
      await Promise.all([board.close(), screen.close()]);
    },
  );

  it('shows 8 tables per page and turns to the next page by itself when they do not fit', { timeout: 120_000 }, async () => {
    const big = await createEvent(two.s1.url, { ...VENUE_EVENT, name: 'Big Open', tables: Array.from({ length: 10 }, (_, i) => `Table ${i + 1}`) });
    const board = await open(`${two.s2.url}/venue/${big.id}?lang=en&every=5`);
    await board.locator('article.tile').first().waitFor();
    expect(await board.getAttribute('[data-testid="hall-board"]', 'data-pages')).toBe('2');
    expect(await board.locator('article.tile').count()).toBe(8);
    expect(await textOf(board, '[data-f="page"]')).toBe('1 / 2');
    await board.waitForFunction(() => document.querySelector('[data-testid="hall-board"]')?.getAttribute('data-page') === '1', undefined, { timeout: 30_000 });
    expect(await board.locator('article.tile').evaluateAll((els) => els.map((e) => e.getAttribute('data-table')))).toEqual(['table-9', 'table-10']);
    await board.close();
  });
});
