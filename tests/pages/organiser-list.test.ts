/**
 * The organiser's page in real headless Chromium against one server (embedded SQLite store):
 * - a match that left its table before it was won (the organiser put another match on) is listed with the
 *   finished ones, its score and "not finished", instead of vanishing from the page;
 * - an unknown event says so without a "live" connection chip (as the match pages do).
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../helpers/browser';
import { createEvent, EVENT, recordStep, stepsToWin, tableMatch } from '../helpers/events';
import { OverlayHarness } from '../helpers/overlay-harness';

const hasChromium = chromiumAvailable();
const WIN = stepsToWin({ ...EVENT.defaults, players: ['A', 'B'] });

describe.skipIf(!hasChromium)('organiser page lists', () => {
  const h = new OverlayHarness();
  h.install();

  it('lists a match taken off its table unfinished beside the won ones; a won match still on its table says "now"', async () => {
    const ev = await createEvent(h.url);
    const left = await tableMatch(h.url, ev, 'table-1', ['p1', 'p2'], true);
    await recordStep(h.url, left, WIN[0]!);
    await recordStep(h.url, left, WIN[1]!);
    await recordStep(h.url, left, WIN[2]!); // 1 – 0, then the organiser puts another match on
    const won = await tableMatch(h.url, ev, 'table-1', ['p3', 'p4'], true);
    for (const step of WIN) await recordStep(h.url, won, step);
    const page = await h.browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(`${h.url}/event/${ev.id}#token=${ev.organiserToken}`);
      const list = page.locator('[data-testid="finished"]');
      await list.locator(`li[data-match="${won.id}"]`).waitFor();
      await list.locator(`li[data-match="${left.id}"]`).waitFor({ timeout: 5000 });
      const unfinished = (await list.locator(`li[data-match="${left.id}"]`).textContent())!.replace(/\s+/g, ' ');
      expect(unfinished).toContain('Ann Andersen');
      expect(unfinished).toContain('1 – 0');
      expect(unfinished).toContain('not finished');
      const finished = (await list.locator(`li[data-match="${won.id}"]`).textContent())!.replace(/\s+/g, ' ');
      expect(finished).toContain('Chen Wei won');
      expect(finished).toContain('Now');
    } finally {
      await page.close();
    }
  });

  it('an unknown event: "Event not found" and no "live" chip', async () => {
    const page = await h.browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(`${h.url}/event/nosuchevent`);
      await page.locator('[data-f="event-error"]').waitFor();
      expect(await page.locator('[data-f="event-error"]').textContent()).toContain('Event not found: nosuchevent');
      expect(await page.locator('[data-f="status"]').count()).toBe(0);
    } finally {
      await page.close();
    }
  });
});
