/**
 * The table overlay's production extras in real headless Chromium against one server (embedded SQLite store):
 * - OBS scene switching (`obsWon`, `obsIntro`) through a stand-in of obs-browser's `window.obsstudio`, injected
 *   before the page's scripts, that records every call: the match won → the won scene; the table's next match
 *   starting (its intro card) → the intro scene; what the page finds when it loads switches nothing; a control
 *   level below "advanced" → no switch; no parameters → OBS is not even asked; a stand-in that throws and no
 *   OBS at all → no page error;
 * - the sponsor slot beside the scorebug: a logo uploaded while the page is on air appears without a reload,
 *   from this server only, the next one follows after its seconds; the slot stays inside the 90 % action-safe
 *   area and clear of the scorebug, the caption and the moment, in both layouts, at size m and l;
 *   `sponsors=0` shows none.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable, settled } from '../helpers/browser';
import { createEvent, EVENT, recordStep, stepsToWin, tableMatch, type CreatedEvent } from '../helpers/events';
import { pngOf, uploadSponsor } from '../helpers/images';
import { OverlayHarness } from '../helpers/overlay-harness';
import { api } from '../helpers/server';

const hasChromium = chromiumAvailable();
const WIN = stepsToWin({ ...EVENT.defaults, players: ['A', 'B'] });

/** What the OBS stand-in saw: `level` for each getControlLevel, `scene:<name>` for each setCurrentScene. */
type ObsWindow = Window & { obsCalls: string[] };

/** A stand-in of obs-browser's API answering control level `level` (asynchronously, as OBS does); `throws`: every call throws. */
function obsStandIn(level: number, throws = false): [fn: (a: { level: number; throws: boolean }) => void, arg: { level: number; throws: boolean }] {
  return [
    ({ level, throws }) => {
      const w = window as unknown as ObsWindow & { obsstudio: unknown };
      w.obsCalls = [];
      w.obsstudio = {
        pluginVersion: '2.24.0',
        getControlLevel(cb: (l: number) => void) {
          w.obsCalls.push('level');
          if (throws) throw new Error('stand-in: getControlLevel failed');
          setTimeout(() => cb(level), 0);
        },
        setCurrentScene(name: string) {
          w.obsCalls.push(`scene:${name}`);
        },
      };
    },
    { level, throws },
  ];
}

describe.skipIf(!hasChromium)('table overlay: OBS scenes and the sponsor slot, in Chromium', () => {
  const h = new OverlayHarness();
  h.install();

  /** Open the table overlay of `table` with `query` and wait until the table's state is there. */
  async function open(ev: { id: string }, table: string, query: string, before?: ReturnType<typeof obsStandIn>): Promise<{ page: Page; errors: string[] }> {
    const page = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    if (before) await page.addInitScript(before[0], before[1]);
    await page.goto(`${h.url}/overlay/table/${ev.id}/${table}${query}`);
    await page.locator('[data-f="table-overlay"][data-state="table"]').waitFor({ state: 'attached' });
    return { page, errors };
  }
  const calls = (page: Page) => page.evaluate(() => (window as unknown as ObsWindow).obsCalls);
  /** Wait until `page` shows match `id` on the table with card `card` up. */
  const showing = (page: Page, id: string, card: string) =>
    page.locator(`[data-f="table-overlay"][data-current="${id}"][data-card="${card}"]`).waitFor({ state: 'attached', timeout: 30_000 });

  it('switches OBS to the won scene when the match is won and to the intro scene when the next match starts, only with the permission', async () => {
    const ev = await createEvent(h.url);
    const m1 = await tableMatch(h.url, ev, 'tv-table', ['p1', 'p2'], true); // its intro card is up already
    const scenes = `?obsWon=${encodeURIComponent('Intermission')}&obsIntro=${encodeURIComponent('Match intro: TV')}`;
    const advanced = await open(ev, 'tv-table', scenes, obsStandIn(4));
    const basic = await open(ev, 'tv-table', scenes, obsStandIn(3));
    const noParams = await open(ev, 'tv-table', '', obsStandIn(5));
    const throwing = await open(ev, 'tv-table', scenes, obsStandIn(5, true));
    const outside = await open(ev, 'tv-table', scenes);
    const pages = [advanced, basic, noParams, throwing, outside];
    try {
      for (const p of pages) await showing(p.page, m1.id, 'intro');
      // What was so when the page loaded (the intro card up) switches nothing.
      expect(await calls(advanced.page)).toEqual([]);

      for (const step of WIN) await recordStep(h.url, m1, step);
      await expect.poll(() => calls(advanced.page), { timeout: 30_000 }).toEqual(['level', 'scene:Intermission']);

      // The next match put on the table and started: its intro card goes up, OBS goes to the intro scene.
      const m2 = await tableMatch(h.url, ev, 'tv-table', ['p3', 'p4']);
      const started = await api(h.url, `/api/events/${ev.id}/tables/tv-table/start`, { token: ev.organiserToken, body: {} });
      expect(started.status).toBe(200);
      await expect.poll(() => calls(advanced.page), { timeout: 30_000 }).toEqual(['level', 'scene:Intermission', 'level', 'scene:Match intro: TV']);

      // Every other page saw the same two moments (the next match's intro is on each), and switched nothing.
      for (const p of [basic, noParams, throwing, outside]) await showing(p.page, m2.id, 'intro');
      await expect.poll(() => calls(basic.page), { timeout: 30_000 }).toEqual(['level', 'level']); // asked, level 3: no switch
      expect(await calls(noParams.page)).toEqual([]); // no scene named: OBS is not asked
      expect(await calls(throwing.page)).toEqual(['level', 'level']);
      expect(await outside.page.evaluate(() => 'obsstudio' in window)).toBe(false);
      for (const p of pages) expect(p.errors).toEqual([]);
      // The overlay carried on: the new match's scorebug is on air under its card.
      for (const p of [throwing, outside]) expect(await p.page.locator('[data-f="name-A"]').textContent()).toBe('Chen Wei');
    } finally {
      for (const p of pages) await p.page.close();
    }
  }, 300_000);

  /** The sponsor slot's box and the boxes it must stay clear of (scorebug rows, caption, moment), in page px. */
  async function slotBoxes(page: Page) {
    return page.evaluate(() => {
      const box = (el: Element) => {
        const r = el.getBoundingClientRect();
        return { what: el.className.split(' ')[0]!, x: r.x, y: r.y, r: r.right, b: r.bottom };
      };
      const slot = document.querySelector('[data-f="sponsor-slot"]')!;
      const others = [...document.querySelectorAll('[data-f="scorebug"] .main, [data-f="scorebug"] .info, .caption, .moment')].filter(
        (e) => e.getBoundingClientRect().width > 0,
      );
      return { slot: box(slot), where: slot.getAttribute('data-where'), others: others.map(box) };
    });
  }

  it("rotates the event's sponsors in a slot beside the scorebug, from this server only, inside the action-safe area; sponsors=0 shows none", async () => {
    const ev: CreatedEvent = await createEvent(h.url);
    const m = await tableMatch(h.url, ev, 'tv-table', ['p1', 'p2'], true);
    await recordStep(h.url, m, WIN[0]!); // the intro card leaves with the first step: the scorebug and its caption are on air
    const { page, errors } = await open(ev, 'tv-table', '?captions=all');
    const off = await open(ev, 'tv-table', '?captions=all&sponsors=0');
    const hosts = new Set<string>();
    page.on('request', (r) => hosts.add(new URL(r.url()).origin));
    try {
      await page.locator('[data-f="score-A"]').waitFor();
      expect(await page.locator('[data-f="sponsor-slot"]').count()).toBe(0); // no sponsor yet: no slot

      // Uploaded while on air: the logo appears without a reload.
      const first = await uploadSponsor(h.url, ev.id, ev.organiserToken, pngOf(240, 96, [20, 90, 200]), 'Blue Chalk', 2);
      const logo = page.locator(`[data-f="sponsor-logo"][data-sponsor="${first}"]`);
      await logo.waitFor({ timeout: 30_000 });
      await page.waitForFunction(() => (document.querySelector('[data-f="sponsor-logo"]') as HTMLImageElement | null)?.complete === true);
      expect(await logo.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.alt, new URL(img.src).origin])).toEqual([240, 'Blue Chalk', h.url]);

      // A second logo: after the first one's 2 s the slot shows it.
      const second = await uploadSponsor(h.url, ev.id, ev.organiserToken, pngOf(120, 120, [200, 40, 20]), 'Red Cue', 2);
      await page.locator(`[data-f="sponsor-logo"][data-sponsor="${second}"]`).waitFor({ timeout: 30_000 });
      expect([...hosts]).toEqual([h.url]);
      expect(errors).toEqual([]);

      // sponsors=0: the same table, the same sponsors, no slot.
      await off.page.locator('[data-f="score-A"]').waitFor();
      await off.page.waitForFunction(() => document.querySelector('[data-f="table-overlay"]') !== null);
      await settled(off.page);
      expect(await off.page.locator('[data-f="sponsor-slot"]').count()).toBe(0);
    } finally {
      await page.close();
      await off.page.close();
    }

    // Where it sits: inside the action-safe area (96 px left/right, 54 px top/bottom at 1080p), clear of the
    // scorebug, the caption and the moment; beside the bar at size m, above its right end at size l.
    const cases: [string, string][] = [
      ['?captions=all&caption=0', 'beside'],
      ['?captions=all&caption=0&size=l', 'above'],
      ['?captions=all&caption=0&hide=info', 'beside'],
      ['?captions=all&caption=0&layout=corner', 'beside'],
      ['?captions=all&caption=0&layout=corner&corner=br&size=l', 'beside'],
      ['?captions=all&caption=0&layout=corner&corner=tr&size=l&scale=2', 'beside'],
    ];
    const opened = [];
    for (const [query] of cases) opened.push(await open(ev, 'tv-table', query));
    try {
      for (const p of opened) await p.page.locator('[data-f="sponsor-logo"]').waitFor({ timeout: 30_000 });
      await recordStep(h.url, m, WIN[1]!); // a step: its caption line goes up on every page (and stays: caption=0)
      for (const [i, [query, where]] of cases.entries()) {
        const page = opened[i]!.page;
        await page.locator('[data-f="caption"]').waitFor({ timeout: 30_000 });
        // The logo on air is loaded and drawn inside its slot.
        await page.waitForFunction(() => {
          const img = document.querySelector<HTMLImageElement>('[data-f="sponsor-logo"]');
          return !!img && img.complete && img.naturalWidth > 0 && img.getBoundingClientRect().width > 40;
        });
        await settled(page);
        const b = await slotBoxes(page);
        expect(b.where, query).toBe(where);
        expect(
          b.others.some((o) => o.what === 'caption'),
          query,
        ).toBe(true);
        expect(b.slot.x, query).toBeGreaterThanOrEqual(96 - 0.5);
        expect(b.slot.r, query).toBeLessThanOrEqual(1824 + 0.5);
        expect(b.slot.y, query).toBeGreaterThanOrEqual(54 - 0.5);
        expect(b.slot.b, query).toBeLessThanOrEqual(1026 + 0.5);
        expect(b.slot.r - b.slot.x, query).toBeGreaterThan(100); // a logo box a viewer can make out
        for (const o of b.others) {
          const apart = o.r <= b.slot.x + 0.5 || o.x >= b.slot.r - 0.5 || o.b <= b.slot.y + 0.5 || o.y >= b.slot.b - 0.5;
          expect(apart, `${query}: the slot covers ${o.what} (${JSON.stringify(o)} vs ${JSON.stringify(b.slot)})`).toBe(true);
        }
        if (i <= 1 || i === 3)
          await page.screenshot({ path: `${h.shots}/table-overlay-sponsor-${i}-1920x1080.png`, omitBackground: true, animations: 'disabled' });
      }
    } finally {
      for (const p of opened) await p.page.close();
    }
  }, 300_000);
});
