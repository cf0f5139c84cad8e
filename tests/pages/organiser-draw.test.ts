/**
 * The organiser page's draw, roster import and webhooks, and the results page, in real Chromium against a
 * server over the real Redis (issue 27 §5–6):
 * - roster import: a bad row is shown as the server names it (row and column) and nothing is added; a good CSV
 *   adds its players to the roster on the page;
 * - the draw: created from the form (single elimination, random draw with seed 42: the seed is shown), the ready
 *   matches listed; a walkover entered for each semi-final; the final pinned to the TV table; autopilot resumed
 *   puts it on the TV table; a semi-final corrected: the page says which match the correction resets and, once
 *   confirmed, the final waits again with the new finalist;
 * - webhooks: a URL that is not http(s) is refused with the server's words; a receiver that is not there shows
 *   as failing (failures in a row, the last error);
 * - the results page follows the event without a reload: a match won on a table appears with its score and a
 *   link to its sheet; the high run shows.
 * Pictures (SHOTS=1: docs/screenshots/results/; ARTIFACTS=1: artifacts/screenshots/results/): organiser-draw-1440.png,
 * results-390.png, results-1440.png.
 */
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { chromiumAvailable, launchChromium } from '../helpers/browser';
import { PICTURES, pictureDir } from '../helpers/pictures';
import { createEvent, recordStep, stepsToWin, tableMatch, type CreatedEvent } from '../helpers/events';
import { ensureBuilt } from '../helpers/global-setup';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, SETUP, startTestServer } from '../helpers/server';

const hasChromium = chromiumAvailable();
const redis = await requireRedis();
const prefix = testPrefix('organiser-draw');

/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
  const port = (srv.address() as { port: number }).port;
  await new Promise((ok) => srv.close(ok));
  return port;
}

describe.skipIf(!hasChromium || !redis.available)('organiser draw controls and the results page in Chromium', () => {
  let s: RunningServer;
  let browser: Browser;
  let ev: CreatedEvent;
  const getDraw = async () => (await api(s.url, `/api/events/${ev.id}/draw`)).body.draw;
  const match = async (id: string) => (await getDraw()).draw.matches.find((m: { id: string }) => m.id === id);

  beforeAll(async () => {
    await ensureBuilt();
    s = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix, webhooks: { retryBaseMs: 100, retryMaxMs: 200, timeoutMs: 2000 } });
    browser = await launchChromium();
    ev = await createEvent(s.url, {
      name: 'Spring Open',
      date: '2026-04-01',
      defaults: { discipline: '14-1', ruleset: 'nba', targets: [3, 3] },
      tables: ['Table 1', 'TV table'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await dropPrefix(redis.url, prefix);
  });

  const open = async (page: Page) => {
    await page.goto(`${s.url}/event/${ev.id}?lang=en#token=${ev.organiserToken}`);
    await page.waitForSelector('[data-testid="organiser"][data-role="organiser"]');
  };

  it('imports the roster, creates and drives the draw (pin, walkovers, autopilot, a correction with its cascade), and shows a failing webhook', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1100 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await open(page);
      // Roster import: a bad row first (nothing imported), then the good file.
      await page.fill('[data-testid="roster-csv"]', 'name,country,rating\nAnn Andersen,DK,612\nBob Brown,GB-ENG,lots');
      await page.click('[data-testid="roster-import-go"]');
      const msg = page.locator('[data-testid="roster-import-message"]');
      await msg.waitFor();
      expect(await msg.textContent()).toContain('row 3, column rating');
      expect((await api(s.url, `/api/events/${ev.id}`)).body.roster).toEqual([]);
      await page.fill('[data-testid="roster-csv"]', 'name,country,rating\nAnn Andersen,DK,612\nBob Brown,GB-ENG,600\n"Chen, Wei",TW,590\nDora Díaz,ES,580');
      await page.click('[data-testid="roster-import-go"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="roster-import-message"]')?.textContent?.includes('4 players imported'));
      await page.locator('[data-testid="roster"] li[data-player="p4"]').waitFor();
      expect(await page.locator('[data-testid="roster"] li[data-player="p3"]').textContent()).toContain('Chen, Wei');

      // The draw: single elimination, a random draw from seed 42.
      await page.selectOption('[data-testid="draw-format"]', 'single');
      await page.selectOption('[data-testid="draw-seeding"]', 'random');
      await page.fill('[data-testid="draw-seed"]', '42');
      await page.fill('[data-testid="draw-race"]', '3');
      await page.click('[data-testid="draw-create"]');
      await page.waitForSelector('[data-testid="draw-summary"] [data-f="seed"]');
      expect(await page.textContent('[data-testid="draw-summary"] [data-f="seed"]')).toBe('Random draw, seed 42');
      const made = await getDraw();
      expect(made.definition.seeding).toEqual({ by: 'random', seed: 42 });
      expect(made.settings.autopilot).toBe(false);
      const ready = page.locator('[data-testid="ready"] li');
      expect(await ready.evaluateAll((li) => li.map((l) => l.getAttribute('data-match')))).toEqual(['R1-1', 'R1-2']);

      // A walkover for each semi-final (the first player goes on).
      for (const id of ['R1-1', 'R1-2']) {
        await page.locator(`[data-testid="ready"] li[data-match="${id}"] [data-testid="result-open"]`).click();
        await page.click('[data-testid="result-save"]');
        await page.locator(`[data-testid="decided"] li[data-match="${id}"]`).waitFor();
      }
      const r11 = await match('R1-1');
      expect(r11.result).toMatchObject({ kind: 'walkover', winner: r11.players[0] });

      // The final pinned to the TV table, then autopilot resumed: it goes on the TV table.
      await page.locator('[data-testid="ready"] li[data-match="F"]').waitFor();
      await page.locator('[data-testid="ready"] li[data-match="F"] [data-testid="pin"]').selectOption('tv-table');
      await expect.poll(async () => (await getDraw()).settings.pins).toEqual({ F: 'tv-table' });
      await page.click('[data-testid="autopilot-toggle"]');
      await page.locator('[data-testid="playing"] li[data-match="F"]').waitFor({ timeout: 10_000 });
      expect(await page.textContent('[data-testid="playing"] li[data-match="F"]')).toContain('TV table');
      expect((await match('F')).table).toBe('tv-table');

      // Correct R1-1 (the other player won it): the final has started, so the page names it and asks.
      await page.locator('[data-testid="decided"] li[data-match="R1-1"] [data-testid="correct-open"]').click();
      await page.selectOption('[data-testid="result-winner"]', r11.players[1]);
      await page.click('[data-testid="result-save"]');
      const cascade = page.locator('[data-testid="cascade"]');
      await cascade.waitFor();
      expect(await cascade.textContent()).toContain('puts Final back to waiting');
      expect((await match('R1-1')).result.winner).toBe(r11.players[0]); // nothing changed yet
      if (PICTURES) await page.screenshot({ path: join(pictureDir('results'), 'organiser-draw-1440.png'), fullPage: true });
      // Pause autopilot first so the final is not put straight back on a table, then confirm.
      await page.click('[data-testid="autopilot-toggle"]');
      await expect.poll(async () => (await getDraw()).settings.autopilot).toBe(false);
      await page.click('[data-testid="cascade-yes"]');
      await expect.poll(async () => (await match('R1-1')).result.winner).toBe(r11.players[1]);
      const final = await match('F');
      expect(final.status).toBe('ready');
      expect(final.players).toContain(r11.players[1]);
      await page.locator('[data-testid="ready"] li[data-match="F"]').waitFor();

      // Webhooks: ftp:// refused as the server says; a receiver that is not there shows as failing.
      await page.fill('[data-testid="webhook-url"]', 'ftp://example.com/hook');
      await page.click('[data-testid="webhook-add"]');
      await page.locator('[data-testid="webhook-error"]').waitFor();
      expect(await page.textContent('[data-testid="webhook-error"]')).toContain('http:// or https://');
      await page.fill('[data-testid="webhook-url"]', `http://127.0.0.1:${await closedPort()}/nobody-here`);
      await page.click('[data-testid="webhook-add"]');
      expect(await page.locator('[data-testid="webhook-secret"]').textContent()).toMatch(/whsec_/);
      // Something to deliver: a match starts on table 1.
      await tableMatch(s.url, ev, 'table-1', ['p1', 'p2'], true);
      await page.locator('[data-testid="webhooks"] li[data-failing="yes"]').waitFor({ timeout: 15_000 });
      expect(await page.textContent('[data-testid="webhooks"] li [data-f="state"]')).toMatch(/failing: \d+ in a row/);
      expect(await page.textContent('[data-testid="webhooks"] li [data-f="last-error"]')).toContain('ECONNREFUSED');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('the results page follows the event without a reload: a won match with its score and sheet link, the high run', async () => {
    const other = await createEvent(s.url);
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await phone.goto(`${s.url}/results/${other.id}?lang=en`);
      await phone.waitForSelector('[data-testid="matches"]');
      expect(await phone.textContent('[data-f="name"]')).toBe('Friday League');
      const m = await tableMatch(s.url, other, 'table-1', ['p1', 'p2'], true);
      await phone.locator(`tr[data-match="${m.id}"][data-status="playing"]`).waitFor();
      for (const step of stepsToWin({ ...SETUP, targets: [3, 3] })) await recordStep(s.url, m, step);
      await phone.locator(`tr[data-match="${m.id}"][data-status="done"]`).waitFor();
      expect(await phone.textContent(`tr[data-match="${m.id}"] [data-f="score"]`)).toBe('3 – 0');
      expect(await phone.getAttribute(`tr[data-match="${m.id}"] [data-f="sheet"]`, 'href')).toBe(`/dashboard/${m.id}`);
      await phone.locator('[data-f="high-run"]').waitFor();
      expect(await phone.textContent('[data-f="high-run"]')).toContain('Ann Andersen');
      if (PICTURES) await phone.screenshot({ path: join(pictureDir('results'), 'results-390.png'), fullPage: true });
      // The page does not scroll sideways on a phone (the tables scroll inside their card).
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    } finally {
      await phone.close();
    }
    const wide = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    try {
      await wide.goto(`${s.url}/results/${ev.id}?lang=en`);
      await wide.waitForSelector('[data-testid="standings"] tbody tr');
      expect(await wide.locator('[data-testid="standings"] tbody tr').count()).toBe(4);
      if (PICTURES) await wide.screenshot({ path: join(pictureDir('results'), 'results-1440.png'), fullPage: true });
      await wide.goto(`${s.url}/results/nope?lang=en`);
      await wide.waitForSelector('[data-f="error"]');
      expect(await wide.textContent('[data-f="error"]')).toContain('There is no event "nope"');
    } finally {
      await wide.close();
    }
  });
});
