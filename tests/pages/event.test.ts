/**
 * Events in real Chromium against two server instances sharing the real Redis:
 * - the launcher's "New event" opens the form, which creates one event however often *Create event* is pressed
 *   (tables, roster with a flag) and opens the organiser's page;
 * - the organiser's page (opened on instance 2) shows two tables live with flags while matches are scored
 *   through instance 1 (score, who is at the table, on two fouls), starts a table's next match with its
 *   button, and shows each table's OBS link as a QR code that decodes to the link; read-only without the token;
 * - `/watch/table/…` (instance 2) follows match 1, then match 2 on the same page without a reload when the
 *   organiser starts the next match through instance 1; `/dashboard/table/…` too.
 * Screenshots: artifacts/screenshots/event-organiser-1440.png, event-new-390.png, watch-table-390.png.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { applyStep, newMatch, type Match } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { TARGET_MAX } from '../../shared/protocol/limits';
import { defaultTargets } from '../../shared/protocol/setup';
import type { Step } from '../../shared/protocol/steps';
import { chromiumAvailable, decodeQr, launchChromium, screenshotDir } from '../helpers/browser';
import { createEvent, EVENT, recordStep, stepsToWin, tableMatch, type CreatedEvent } from '../helpers/events';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { pngOf } from '../helpers/images';
import { api, startTestServer } from '../helpers/server';
import { ensureBuilt } from '../helpers/global-setup';
import { texts } from '../helpers/legibility';
import { linkOrigin } from '../../web/src/lib/lan';

const hasChromium = chromiumAvailable();
const redis = await requireRedis();
const prefix = testPrefix('event-pages');
const SETUP = { ...EVENT.defaults, players: ['A', 'B'] };
const WIN = stepsToWin(SETUP);

/** Steps that leave player B on two fouls: A's legal safety break, then B scratches, A misses, B scratches. */
function twoFoulsForB(): Step[] {
  const steps: Step[] = [
    { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } },
    { shot: { call: { made: false }, cueBall: 'scratch' } },
    { shot: { call: { made: false } } },
    { shot: { call: { made: false }, cueBall: 'scratch' } },
  ];
  let m: Match = newMatch(parseSetup(SETUP));
  for (const s of steps) {
    const r = applyStep(m, s);
    if (!r.ok) throw new Error(r.error.message);
    m = r.match;
  }
  if (!m.core.fouls || m.core.fouls[1] !== 2) throw new Error('B is not on two fouls');
  return steps;
}

const text = (page: Page, sel: string) => page.locator(sel).first().textContent();

describe.skipIf(!hasChromium || !redis.available)('event pages in Chromium on two instances', () => {
  let s1: RunningServer;
  let s2: RunningServer;
  let browser: Browser;
  let ev: CreatedEvent;

  beforeAll(async () => {
    await ensureBuilt();
    s1 = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    s2 = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    browser = await launchChromium();
    ev = await createEvent(s1.url);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([s1?.close(), s2?.close()]);
    await dropPrefix(redis.url, prefix);
  });

  it('creates an event from the launcher’s "New event" form and hands over the organiser link', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 900 } });
    try {
      await page.goto(`${s2.url}/?lang=en`);
      await page.click('[data-testid="new-event-link"]');
      await page.waitForURL('**/event**');
      await page.fill('[data-testid="event-name"]', 'Club night');
      await page.fill('[data-testid="event-tables"]', 'Table 1\nTV table');
      await page.fill('[data-testid="roster-name"]', 'Mika Mäkinen');
      await page.selectOption('[data-testid="roster-country"]', 'FI');
      await page.waitForFunction(() => ((document.querySelector('img[data-flag="FI"]') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0);
      await page.screenshot({ path: join(screenshotDir(), 'event-new-390.png'), fullPage: true });
      // Three quick presses (issue 29): one event, and the organiser's page opens by itself.
      const before = ((await api(s2.url, '/api/events')).body as { events: unknown[] }).events.length;
      await page.locator('[data-testid="event-create"]').click({ clickCount: 3, delay: 5 });
      await page.waitForURL('**/event/*');
      await page.waitForSelector('[data-testid="organiser"][data-role="organiser"]');
      expect(page.url()).not.toContain('token'); // stripped from the address once saved
      const after = ((await api(s2.url, '/api/events')).body as { events: { id: string; name: string }[] }).events;
      expect(after.length).toBe(before + 1);
      expect(after.filter((e) => e.name === 'Club night')).toHaveLength(1);
      expect(await text(page, '[data-f="event-name"]')).toBe('Club night');
      expect(await page.locator('article[data-table]').count()).toBe(2);
      expect(await page.locator('[data-testid="roster"] img[data-flag="FI"]').count()).toBe(1);
    } finally {
      await page.close();
    }
  });

  it('shows two tables live, switches a table to its next match with its button, and shows the OBS link as a QR code', async () => {
    const m1 = await tableMatch(s1.url, ev, 'table-1', ['p1', 'p2'], true);
    const m2 = await tableMatch(s1.url, ev, 'tv-table', ['p3', 'p4'], true);
    const m3 = await tableMatch(s1.url, ev, 'tv-table', ['p2', 'p3']);
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    try {
      await page.goto(`${s2.url}/event/${ev.id}?lang=en#token=${ev.organiserToken}`);
      await page.waitForSelector('[data-testid="organiser"][data-role="organiser"]');
      const t1 = page.locator('article[data-table="table-1"]');
      const tv = page.locator('article[data-table="tv-table"]');
      expect(await t1.locator('[data-f="name-A"]').textContent()).toBe('Ann Andersen');
      expect(await tv.locator('[data-f="name-B"]').textContent()).toBe('Dora Díaz');
      expect(await tv.locator('[data-f="next"]').textContent()).toContain('Bob Brown – Chen Wei');
      // Flags are drawn (served by the instance, not fetched from elsewhere).
      await page.waitForFunction(() => [...document.querySelectorAll('article img[data-flag]')].every((i) => (i as HTMLImageElement).naturalWidth > 0));
      expect(await t1.locator('img[data-flag]').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('data-flag')))).toEqual(['DK', 'GB-ENG']);

      // Both tables scored through instance 1: the page follows both live.
      for (const step of WIN.slice(0, 3)) await recordStep(s1.url, m1, step);
      for (const step of twoFoulsForB()) await recordStep(s1.url, m2, step);
      await page.waitForFunction(() => document.querySelector('article[data-table="table-1"] [data-f="score-A"]')?.textContent === '1');
      await tv.locator('[data-f="two-fouls-B"]').waitFor();
      expect(await t1.locator('.player.at [data-f="name-A"]').count()).toBe(1); // Ann at the table
      expect(await tv.locator('[data-f="score-B"]').textContent()).toBe('−2'); // a true minus sign
      await page.screenshot({ path: join(screenshotDir(), 'event-organiser-1440.png'), fullPage: true });

      // The OBS link of the TV table as a QR code.
      await tv.locator('[data-testid="qr-pick"]').selectOption('obs');
      // The page is on 127.0.0.1 and so is the server: no LAN address reaches it (GET /api/lan offers none), so the
      // OBS link keeps the page's origin (a server started with HOST=0.0.0.0 offers its LAN address: lan.unit.test).
      const obsOrigin = linkOrigin(new URL(s2.url), []).origin;
      expect(await decodeQr(tv.locator('[data-testid="qr"]'))).toBe(`${obsOrigin}/overlay/table/${ev.id}/tv-table`);

      // Start the next match on the TV table over its unfinished match: the page asks first; No changes nothing.
      await tv.locator('[data-testid="start-next"]').click();
      const confirm = tv.locator('[data-testid="confirm-start"]');
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain('Chen Wei – Dora Díaz is not finished (0 – −2)');
      await tv.locator('[data-testid="confirm-start-no"]').click();
      await confirm.waitFor({ state: 'detached' });
      expect(await tv.getAttribute('data-current')).toBe(m2.id);
      // Yes: the table switches; Undo puts the unfinished match back (the started one next again); then for good.
      await tv.locator('[data-testid="start-next"]').click();
      await tv.locator('[data-testid="confirm-start-yes"]').click();
      await page.waitForFunction((id) => document.querySelector('article[data-table="tv-table"]')?.getAttribute('data-current') === id, m3.id);
      await tv.locator('[data-testid="undo-start"]').click();
      await page.waitForFunction(
        ([a, b]) => {
          const el = document.querySelector('article[data-table="tv-table"]');
          return el?.getAttribute('data-current') === a && el?.getAttribute('data-next') === b;
        },
        [m2.id, m3.id],
      );
      expect(await tv.locator('[data-f="score-B"]').textContent()).toBe('−2');
      expect(await tv.locator('[data-testid="undo-start"]').count()).toBe(0);
      await tv.locator('[data-testid="start-next"]').click();
      await tv.locator('[data-testid="confirm-start-yes"]').click();
      await page.waitForFunction((id) => document.querySelector('article[data-table="tv-table"]')?.getAttribute('data-current') === id, m3.id);
      expect(await tv.locator('[data-f="name-A"]').textContent()).toBe('Bob Brown');
      expect(await tv.locator('[data-testid="cards"]').getAttribute('data-show')).toBe('intro');
      // The match that left the table is listed as finished once won.
      for (const step of WIN.slice(3)) await recordStep(s1.url, m1, step);
      await page.locator(`[data-testid="finished"] li[data-match="${m1.id}"]`).waitFor();
      expect(await page.locator(`[data-testid="finished"] li[data-match="${m1.id}"]`).textContent()).toContain('Ann Andersen won');
      await page.screenshot({ path: join(screenshotDir(), 'event-organiser-switched-1440.png'), fullPage: true });
    } finally {
      await page.close();
    }
  });

  it('makes the next match with who breaks and the race, resets the form, and reads at 4.5:1 in light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await browser.newPage({ viewport: { width: 1440, height: 1000 }, colorScheme });
      try {
        await page.goto(`${s2.url}/event/${ev.id}?lang=en#token=${ev.organiserToken}`);
        await page.waitForSelector('[data-testid="organiser"][data-role="organiser"]');
        const t1 = page.locator('article[data-table="table-1"]');
        if (colorScheme === 'light') {
          await t1.locator('[data-testid="assign"] summary').click();
          await t1.locator('[data-testid="pick-a"]').selectOption('p4');
          await t1.locator('[data-testid="pick-b"]').selectOption('p1');
          expect(await t1.locator('[data-testid="pick-breaker"] option').allTextContents()).toEqual(['Dora Díaz', 'Ann Andersen']);
          await t1.locator('[data-testid="pick-breaker"]').selectOption('B');
          // The race field's placeholder is the race the event's defaults give (targets [3, 3]); its bound is TARGET_MAX.
          expect(await t1.locator('[data-testid="pick-race"]').getAttribute('placeholder')).toBe('3');
          expect(await t1.locator('[data-testid="pick-race"]').getAttribute('max')).toBe(String(TARGET_MAX));
          await t1.locator('[data-testid="pick-race"]').fill('7');
          // The two buttons say what they do (issue 29: both read "Assign").
          expect(await t1.locator('[data-testid="assign-make"]').textContent()).toBe('Make next match');
          expect(await t1.locator('[data-testid="assign-existing"]').textContent()).toBe('Use this match next');
          await t1.locator('[data-testid="assign-make"]').click();
          await page.waitForFunction(() =>
            document.querySelector('article[data-table="table-1"] [data-f="next"]')?.textContent?.includes('Dora Díaz – Ann Andersen'),
          );
          const next = await t1.getAttribute('data-next');
          const made = (await api(s1.url, `/api/matches/${next}`)).body;
          expect(made.setup).toMatchObject({ players: ['Dora Díaz', 'Ann Andersen'], breaker: 'B', targets: [7, 7] });
          expect(await t1.locator('[data-testid="pick-a"]').inputValue()).toBe('');
          expect(await t1.locator('[data-testid="pick-race"]').inputValue()).toBe('');
          expect(await t1.locator('[data-testid="pick-breaker"]').inputValue()).toBe('A');
          // Defaults without targets: the rules' default race for the discipline and format (defaultTargets), live.
          const patch = (defaults: unknown) => api(s1.url, `/api/events/${ev.id}`, { method: 'PATCH', token: ev.organiserToken, body: { defaults } });
          const placeholder = (want: string) =>
            page.waitForFunction(
              (want) => document.querySelector('article[data-table="table-1"] [data-testid="pick-race"]')?.getAttribute('placeholder') === want,
              want,
            );
          try {
            expect((await patch({ discipline: 'rotation', options: { format: 'single-rack-61' } })).status).toBe(200);
            await placeholder(String(defaultTargets('rotation', 'single-rack-61')[0])); // 61 (R-3a)
            expect((await patch({ discipline: 'rotation' })).status).toBe(200);
            await placeholder(String(defaultTargets('rotation')[0])); // 120
            expect((await patch({ discipline: '14-1', ruleset: 'nba' })).status).toBe(200);
            await placeholder(String(defaultTargets('14-1')[0])); // 100
          } finally {
            expect((await patch(EVENT.defaults)).status).toBe(200);
          }
          await placeholder('3');
        }
        // Every text on the page (tables, cards, links, finished, roster) at 4.5:1 against what is behind it.
        const all = await texts(page, '[data-testid="organiser"]');
        expect(all.length, colorScheme).toBeGreaterThan(20);
        for (const x of all) expect(x.contrast, `${colorScheme}: "${x.text}"`).toBeGreaterThanOrEqual(4.5);
        await page.screenshot({ path: join(screenshotDir(), `event-organiser-${colorScheme}-1440.png`), fullPage: true });
      } finally {
        await page.close();
      }
    }
  });

  it('uploads a sponsor logo from the page (the type read from the content), moves it in the order and removes it', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    try {
      await page.goto(`${s2.url}/event/${ev.id}?lang=en#token=${ev.organiserToken}`);
      await page.waitForSelector('[data-testid="organiser"][data-role="organiser"]');
      const box = page.locator('[data-testid="sponsors"]');
      // Not an image, though named logo.png: refused, naming the image, and the form keeps its fields.
      await box.locator('[data-testid="sponsor-name"]').fill('Fake');
      await box
        .locator('[data-testid="sponsor-file"]')
        .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('<html>not a logo</html>') });
      await box.locator('[data-testid="sponsor-upload"]').click();
      await box.locator('[data-testid="sponsor-error"]').waitFor();
      expect(await box.locator('[data-testid="sponsor-error"]').textContent()).toContain('image: not a PNG, JPEG, WebP or SVG image');
      for (const [name, rgb] of [
        ['Blue Chalk', [20, 90, 200]],
        ['Red Cue', [200, 40, 20]],
      ] as const) {
        await box.locator('[data-testid="sponsor-name"]').fill(name);
        await box
          .locator('[data-testid="sponsor-file"]')
          .setInputFiles({ name: 'logo.bin', mimeType: 'application/octet-stream', buffer: pngOf(60, 30, [...rgb]) });
        await box.locator('[data-testid="sponsor-upload"]').click();
        await box.locator('li[data-sponsor]', { hasText: name }).waitFor();
        expect(await box.locator('[data-testid="sponsor-name"]').inputValue()).toBe(''); // the form resets
      }
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLImageElement>('[data-testid="sponsors"] li img')].every((i) => i.complete && i.naturalWidth === 60),
      );
      const names = () => box.locator('li[data-sponsor] .name').allTextContents();
      expect(await names()).toEqual(['Blue Chalk', 'Red Cue']);
      await box.locator('li[data-sponsor]', { hasText: 'Red Cue' }).getByRole('button', { name: 'Move up' }).click();
      await expect.poll(names).toEqual(['Red Cue', 'Blue Chalk']);
      await box.locator('li[data-sponsor]', { hasText: 'Red Cue' }).locator('[data-testid="sponsor-remove"]').click();
      await expect.poll(names).toEqual(['Blue Chalk']);
      expect((await api(s1.url, `/api/events/${ev.id}`)).body.sponsors.map((x: { name: string; type: string }) => [x.name, x.type])).toEqual([
        ['Blue Chalk', 'image/png'],
      ]);
    } finally {
      await page.close();
    }
  });

  it('is read-only without the token, and a wrong token is refused and forgotten', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    try {
      await page.goto(`${s2.url}/event/${ev.id}?lang=en#token=not-the-token`);
      await page.waitForSelector('[data-testid="organiser"][data-role="read-only"] [data-testid="token-form"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="token-form"] p')?.textContent?.includes('not the organiser token'));
      expect(await page.locator('[data-testid="start-next"], [data-testid="assign"], [data-testid="cards"]').count()).toBe(0);
      expect(await page.evaluate((id) => localStorage.getItem(`cuecast.organiser.${id}`), ev.id)).toBeNull();
      await page.fill('[data-testid="token-input"]', ev.organiserToken);
      await page.click('[data-testid="token-form"] button');
      await page.waitForSelector('[data-testid="organiser"][data-role="organiser"]');
    } finally {
      await page.close();
    }
  });

  for (const kind of ['watch', 'dashboard'] as const) {
    it(`/${kind}/table/… follows match 1, then match 2 without a reload`, async () => {
      const m1 = await tableMatch(s1.url, ev, 'table-1', ['p3', 'p1'], true);
      const page = await browser.newPage({ viewport: kind === 'watch' ? { width: 390, height: 844 } : { width: 1280, height: 900 } });
      try {
        await page.goto(`${s2.url}/${kind}/table/${ev.id}/table-1?lang=en`);
        await page.waitForFunction(() => document.querySelector('[data-f="name-A"]')?.textContent === 'Chen Wei');
        await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
        expect(await text(page, '[data-f="table-bar"]')).toContain('Table 1');
        await recordStep(s1.url, m1, WIN[0]!);
        const m2 = await tableMatch(s1.url, ev, 'table-1', ['p4', 'p2']);
        await page.waitForFunction(() => document.querySelector('[data-f="table-next"]')?.textContent?.includes('Dora Díaz – Bob Brown'));
        const started = await api(s1.url, `/api/events/${ev.id}/tables/table-1/start`, { token: ev.organiserToken, body: {} });
        expect(started.status).toBe(200);
        await page.waitForFunction(() => document.querySelector('[data-f="name-A"]')?.textContent === 'Dora Díaz');
        expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
        expect(await page.getAttribute('[data-f="table-bar"]', 'data-current')).toBe(m2.id);
        expect(await text(page, '[data-f="score-A"]')).toBe('0');
        if (kind === 'watch') await page.screenshot({ path: join(screenshotDir(), 'watch-table-390.png'), fullPage: true });
      } finally {
        await page.close();
      }
    });
  }
});
