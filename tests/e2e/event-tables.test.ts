/**
 * Issue 12 end to end, in real headless Chromium: an event with two tables, four matches and a roster with
 * flags, on two server instances sharing one real Redis (own key prefix). The organiser and the scorers work
 * through instance 1 (REST, as the organiser's page, a Stream Deck and the scorer consoles do); the pages
 * watch through instance 2, except one spectator page on instance 1.
 * - The TV table's OBS overlay on instance 2 follows match 1 (automatic intro with flags, the intro down with
 *   the first step, flags in the scorebug, the intro and the caption from the REST button box, the automatic
 *   summary at the win), then match 2 on the same URL without a reload, with the new players' intro.
 * - The organiser's page (instance 2) shows both tables live while both are scored.
 * - A table switch made through instance 2 is seen by a spectator page on instance 1.
 * Screenshots (1920×1080) in artifacts/screenshots: event-tables-organiser.png, event-tables-overlay-flag.png,
 * event-tables-intro.png, event-tables-summary.png.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, screenshotDir } from '../helpers/browser';
import { createEvent, EVENT, recordStep, stepsToWin, tableMatch, type CreatedEvent } from '../helpers/events';
import { requireRedis, testPrefix } from '../helpers/redis';
import { api, twoInstances } from '../helpers/server';
import { ensureBuilt } from '../helpers/global-setup';

const hasChromium = chromiumAvailable();
const redis = await requireRedis();
const WIN = stepsToWin({ ...EVENT.defaults, players: ['A', 'B'] });
const FULL_HD = { width: 1920, height: 1080 };

/** The card up on a table overlay, or null: kind and the names it shows. */
function cardUp(page: Page): Promise<{ kind: string; names: string[] } | null> {
  return page.evaluate(() => {
    const c = document.querySelector('[data-f="card"][data-up="1"]');
    return c ? { kind: c.getAttribute('data-kind')!, names: [...c.querySelectorAll('[data-f^="card-name-"]')].map((n) => n.textContent!) } : null;
  });
}

/** Wait until every flag image on the page is drawn (served by the instance, nothing from elsewhere). */
const flagsDrawn = (page: Page) =>
  page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('img[data-flag]')].every((i) => i.complete && i.naturalWidth > 0));

describe.skipIf(!hasChromium || !redis.available)('an event with two tables end to end, two instances over one Redis', () => {
  const two = twoInstances(redis.url, testPrefix('e2e-event-tables'));
  let browser: Browser;
  let ev: CreatedEvent;
  let shots: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await ensureBuilt();
    browser = await launchChromium();
    shots = screenshotDir();
    ev = await createEvent(two.s1.url);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const open = async (url: string, size = FULL_HD): Promise<Page> => {
    const page = await browser.newPage({ viewport: size });
    page.on('pageerror', (e) => pageErrors.push(`${url}: ${e.message}`));
    await page.goto(url);
    return page;
  };
  const press = async (action: string, table = 'tv-table') => {
    const res = await api(two.s1.url, `/api/events/${ev.id}/tables/${table}/cards/${action}`, { method: 'POST', token: ev.organiserToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('runs the event: the table overlay follows match 1 then match 2 with cards, the organiser sees both tables live, a spectator on the other instance sees a table switch', async () => {
    // Four matches: Ann v Bob on the TV table now, Chen v Dora next; Bob v Chen on table 1 now, Dora v Ann next.
    const m1 = await tableMatch(two.s1.url, ev, 'tv-table', ['p1', 'p2'], true);
    const m2 = await tableMatch(two.s1.url, ev, 'tv-table', ['p3', 'p4']);
    const m3 = await tableMatch(two.s1.url, ev, 'table-1', ['p2', 'p3'], true);
    const m4 = await tableMatch(two.s1.url, ev, 'table-1', ['p4', 'p1']);

    // captions=all: the first step (a safety break) is captioned too (the default, notable, leaves a safety out).
    const overlay = await open(`${two.s2.url}/overlay/table/${ev.id}/tv-table?captions=all`);
    const organiser = await open(`${two.s2.url}/event/${ev.id}?lang=en#token=${ev.organiserToken}`);
    const spectator = await open(`${two.s1.url}/watch/table/${ev.id}/table-1?lang=en`, { width: 390, height: 844 });
    try {
      // Match 1: the automatic intro, with both flags and the full names, the event, the race and who breaks.
      await overlay.locator('[data-f="card"][data-kind="intro"][data-up="1"]').waitFor();
      await flagsDrawn(overlay);
      expect(await cardUp(overlay)).toEqual({ kind: 'intro', names: ['Ann Andersen', 'Bob Brown'] });
      expect(await overlay.locator('.card img[data-flag]').evaluateAll((i) => i.map((e) => e.getAttribute('data-flag')))).toEqual(['DK', 'GB-ENG']);
      expect(await overlay.locator('[data-f="card-title"]').textContent()).toBe('Friday League');
      expect(await overlay.locator('[data-f="card-centre"]').textContent()).toBe('Race to 3');
      expect(await overlay.locator('[data-f="card-breaker"]').textContent()).toBe('Ann Andersen to break');
      await overlay.waitForTimeout(400); // the entrance (320 ms) is over
      await overlay.screenshot({ path: join(shots, 'event-tables-intro.png'), omitBackground: true });
      await overlay.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

      // The first step takes the automatic intro down; the scorebug shows the flags beside the names.
      await recordStep(two.s1.url, m1, WIN[0]!);
      await overlay.locator('[data-f="card"][data-up="0"]').waitFor({ state: 'attached' });
      await overlay.waitForFunction(() => getComputedStyle(document.querySelector('.gfx')!).opacity === '1');
      expect(await overlay.locator('[data-f="name-A"]').textContent()).toBe('Ann Andersen'); // the full name fits the scorebug
      const flags = await overlay.locator('.gfx .panel img.flag').evaluateAll((is) => is.map((i) => i.getAttribute('src')));
      expect(flags).toEqual(['/flags/dk.svg', '/flags/gb-eng.svg']);
      await overlay.waitForFunction(() => performance.getEntriesByType('resource').filter((e) => /\/flags\/(dk|gb-eng)\.svg$/.test(e.name)).length >= 2);
      await overlay.locator('[data-f="caption"]').waitFor();
      await overlay.screenshot({ path: join(shots, 'event-tables-overlay-flag.png'), omitBackground: true });

      // The button box (REST through instance 1): the intro up and down again, the caption off and on.
      await press('toggle-intro');
      await overlay.locator('[data-f="card"][data-kind="intro"][data-up="1"]').waitFor();
      await overlay.waitForFunction(() => getComputedStyle(document.querySelector('.gfx')!).opacity === '0'); // the scorebug makes way (0.3 s fade)
      await press('toggle-intro');
      await overlay.locator('[data-f="card"][data-up="0"]').waitFor({ state: 'attached' });
      await press('caption-hide');
      await overlay.locator('[data-f="caption"]').waitFor({ state: 'hidden' });
      await press('caption-show');

      // Both tables scored through instance 1: the organiser's page on instance 2 follows both live.
      await organiser.waitForSelector('[data-testid="organiser"][data-role="organiser"]');
      for (const step of WIN.slice(0, 3)) await recordStep(two.s1.url, m3, step);
      await organiser.waitForFunction(() => document.querySelector('article[data-table="table-1"] [data-f="score-A"]')?.textContent === '1');
      await organiser.waitForFunction(() => document.querySelector('article[data-table="tv-table"] [data-f="score-A"]')?.textContent === '0');
      expect(await organiser.locator('article[data-table]').count()).toBe(2);
      expect(await organiser.locator('article[data-table="tv-table"] [data-f="name-A"]').textContent()).toBe('Ann Andersen');
      expect(await organiser.locator('article[data-table="table-1"] [data-f="name-A"]').textContent()).toBe('Bob Brown');
      await flagsDrawn(organiser);
      await organiser.screenshot({ path: join(shots, 'event-tables-organiser.png'), fullPage: true });

      // Match 1 won: the automatic summary (final score, high runs, innings, average, fouls).
      for (const step of WIN.slice(1)) await recordStep(two.s1.url, m1, step);
      await overlay.locator('[data-f="card"][data-kind="summary"][data-up="1"]').waitFor();
      expect(await overlay.locator('[data-f="card-title"]').textContent()).toBe('Final');
      expect(await overlay.locator('[data-f="card-score-A"]').textContent()).toBe('3');
      expect(await overlay.locator('[data-f="card-winner-A"]').count()).toBe(1);
      expect(await overlay.locator('[data-f="stat-high-run"]').evaluate((r) => [r.getAttribute('data-a'), r.getAttribute('data-b')])).toEqual(['3', '0']);
      expect(await overlay.locator('.c-row').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-f')))).toEqual([
        'stat-high-run',
        'stat-innings',
        'stat-average',
        'stat-fouls',
      ]);
      await organiser.locator(`[data-testid="finished"] li[data-match="${m1.id}"]`).waitFor();
      await overlay.waitForTimeout(400);
      await overlay.screenshot({ path: join(shots, 'event-tables-summary.png'), omitBackground: true });

      // Match 2 on the same URL, no reload: the organiser starts it (instance 1); the new players' intro.
      expect((await api(two.s1.url, `/api/events/${ev.id}/tables/tv-table/start`, { token: ev.organiserToken, body: {} })).status).toBe(200);
      await overlay.waitForFunction((id) => document.querySelector('[data-f="table-overlay"]')?.getAttribute('data-current') === id, m2.id);
      await overlay.locator('[data-f="card"][data-kind="intro"][data-up="1"]').waitFor();
      expect(await cardUp(overlay)).toEqual({ kind: 'intro', names: ['Chen Wei', 'Dora Díaz'] });
      expect(await overlay.locator('.card img[data-flag]').evaluateAll((i) => i.map((e) => e.getAttribute('data-flag')))).toEqual(['TW', 'ES']);
      expect(await overlay.locator('[data-f="name-A"]').textContent()).toBe('Chen Wei');
      expect(await overlay.locator('[data-f="score-A"]').textContent()).toBe('0');
      expect(await overlay.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
      await organiser.waitForFunction((id) => document.querySelector('article[data-table="tv-table"]')?.getAttribute('data-current') === id, m2.id);

      // A table switch through instance 2, seen by the spectator page on instance 1 (no reload).
      await spectator.waitForFunction(() => document.querySelector('[data-f="name-A"]')?.textContent === 'Bob Brown');
      await spectator.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
      expect((await api(two.s2.url, `/api/events/${ev.id}/tables/table-1/start`, { token: ev.organiserToken, body: {} })).status).toBe(200);
      await spectator.waitForFunction(() => document.querySelector('[data-f="name-A"]')?.textContent === 'Dora Díaz');
      expect(await spectator.getAttribute('[data-f="table-bar"]', 'data-current')).toBe(m4.id);
      expect(await spectator.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
      expect(pageErrors).toEqual([]);
    } finally {
      await Promise.all([overlay.close(), organiser.close(), spectator.close()]);
    }
  });
});
