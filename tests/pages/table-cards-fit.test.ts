/**
 * The table overlay's cards with the longest texts an event allows — an 80-character event name, a 40-character
 * table name, 60-character player names — in both layouts, in real headless Chromium: every text stays inside
 * its card (fitted, wrapped or cut with "…"), none is chopped by the card's edge, and the summary's title ("Final")
 * is never the one cut to make room.
 */
import { describe, expect, it } from 'vitest';
import { EVENT_LIMITS } from '../../shared/protocol/event';
import { chromiumAvailable, settled } from '../helpers/browser';
import { createEvent, EVENT, recordStep, stepsToWin, tableMatch } from '../helpers/events';
import { api } from '../helpers/server';
import { OverlayHarness } from '../helpers/overlay-harness';

const hasChromium = chromiumAvailable();
const LONG_EVENT = {
  ...EVENT,
  name: 'A very long event name for a regional championship weekend, day two of three!!'.slice(0, EVENT_LIMITS.name),
  tables: [{ name: 'The big televised arena table number one'.slice(0, EVENT_LIMITS.tableName), id: 'tv' }],
  roster: [
    { name: 'Maximilian Alexander Wolfgang von Hohenberg-Sigmaringen III', country: 'DE' },
    { name: 'Bartholomew Christopherson-Vanderbilt Jr. of Westminster', country: 'GB-ENG' },
  ],
};

describe.skipIf(!hasChromium)('table cards with long texts', () => {
  const h = new OverlayHarness();
  h.install();

  it('keep every text inside the card in both layouts (intro and summary)', async () => {
    const ev = await createEvent(h.url, LONG_EVENT);
    const m = await tableMatch(h.url, ev, 'tv', ['p1', 'p2'], true);
    const press = (action: string) => api(h.url, `/api/events/${ev.id}/tables/tv/cards/${action}`, { method: 'POST', token: ev.organiserToken });
    for (const step of stepsToWin({ ...EVENT.defaults, players: ['A', 'B'] })) await recordStep(h.url, m, step);
    for (const layout of ['bar', 'corner']) {
      const page = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
      try {
        await page.goto(`${h.url}/overlay/table/${ev.id}/tv?layout=${layout}&anim=0`);
        for (const kind of ['intro', 'summary']) {
          expect((await press(kind)).status).toBe(200);
          await page.locator(`[data-f="card"][data-kind="${kind}"][data-up="1"]`).waitFor();
          await settled(page);
          const outside = await page.evaluate(() => {
            const card = document.querySelector('[data-f="card"][data-up="1"]')!.getBoundingClientRect();
            const out: string[] = [];
            for (const el of document.querySelectorAll<HTMLElement>('[data-f="card"][data-up="1"] *')) {
              const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim());
              if (!own) continue;
              const r = el.getBoundingClientRect();
              if (r.left < card.left - 1 || r.right > card.right + 1)
                out.push(`"${el.textContent!.trim()}" ${Math.round(r.left)}–${Math.round(r.right)} outside ${Math.round(card.left)}–${Math.round(card.right)}`);
            }
            return out;
          });
          expect(outside, `${layout} ${kind}`).toEqual([]);
          // The summary's title ("Final", "Score") is never the text that gives way to a long event name.
          if (kind === 'summary')
            expect(await page.locator('[data-f="card"][data-up="1"] [data-f="card-title"]').evaluate((e) => e.scrollWidth <= e.clientWidth), layout).toBe(true);
          await h.shot(page, `table-cards-fit-${kind}-${layout}`);
        }
      } finally {
        await page.close();
      }
    }
  });
});
