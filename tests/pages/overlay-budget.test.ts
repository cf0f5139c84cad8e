/**
 * The overlay's budgets in real Chromium against a real server — hard checks only where a machine's load
 * cannot change the answer; the timing figures are `npm run bench:pages`'s (bench/pages.bench.ts):
 * - the JavaScript the page loads in each language (every .js response, gzip -9) equals the files the built
 *   overlay.html names plus that language's table chunk, and stays within issue 17's 48 KB budget (OVERLAY_JS_BUDGET);
 *   the table overlay (`/overlay/table/…`, a page of its own) likewise: its script plus its language's on-air and
 *   cards chunks, within TABLE_OVERLAY_JS_CEILING; the OBS draw graphics (`/overlay/draw/…`) their one script,
 *   within DRAW_OVERLAY_JS_CEILING; the optional parts (overlay/src/parts.ts: the odds strip, the milestone pop-up,
 *   the debug chip, the table overlay's cards) are fetched when the URL asks for them (or a card goes up), never
 *   otherwise, and count in no budget;
 * - nothing runs while nothing changes: no timer or animation-frame callback fires and no animation runs in an
 *   idle window (boot settled; and again after a recorded shot started a change animation — counted as
 *   `Element.animate` calls, so the check never races the animation's end — and its caption was cleared);
 * - the first state is painted after the socket connects (a loose 2 s ceiling: a broken page, not a slow one).
 */
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  countPings,
  DRAW_OVERLAY_JS_CEILING,
  firstPaintMs,
  type Idle,
  IDLE_PROBE,
  idleWindow,
  OVERLAY_JS_BUDGET,
  type OverlayPage,
  type OverlayPart,
  overlayPartScript,
  overlayScripts,
  TABLE_OVERLAY_JS_CEILING,
} from '../helpers/pages-probes';
import { LANGS } from '../../web/src/lib/i18n';
import type { Step } from '../../shared/protocol/steps';
import { chromiumAvailable } from '../helpers/browser';
import { createEvent, tableMatch } from '../helpers/events';
import { OverlayHarness } from '../helpers/overlay-harness';
import { api } from '../helpers/server';

const hasChromium = chromiumAvailable();
const SETUP = { discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [100, 100] };
const BREAK: Step = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };
/**
 * Where the overlay's JS goes: `npm run bench:pages` prints the files and sizes (gzip -9) per language; docs/development.md
 * gives the figures. The one-match overlay: one script (Svelte's runtime, socket.io-client + engine.io with the
 * WebSocket transport only, the overlay's components and view model, formatter and t(), the scorebug client) plus
 * its language's on-air chunk. The table overlay's script adds table following (lib/live-rooms.ts) and the theme preset,
 * and loads two chunks (on-air, cards strings); the cards themselves are a part, fetched when one goes up.
 */
function expectIdle(i: Idle): void {
  expect(i.fired).toBe(0);
  expect(i.frames).toBe(0);
  expect(i.running).toBe(0);
  // Each Engine.IO heartbeat ping re-arms the client's connection watchdog (scheduled, never fired while connected).
  expect(i.scheduled).toBeLessThanOrEqual(i.pings);
}

describe.skipIf(!hasChromium)('overlay budgets', () => {
  const h = new OverlayHarness();
  h.install();

  /** Every .js response `tab` gets (path, gzip -9 bytes). */
  function jsResponses(tab: Page): Promise<{ url: string; gz: number }>[] {
    const js: Promise<{ url: string; gz: number }>[] = [];
    tab.on('response', (res) => {
      if (/\.m?js(\?|$)/.test(res.url())) js.push(res.body().then((b) => ({ url: new URL(res.url()).pathname, gz: gzipSync(b, { level: 9 }).length })));
    });
    return js;
  }

  /**
   * Load `path` (with `query`, `&…`) in each language until every `ready` selector is there and the network is idle:
   * the JS it fetched equals the files `page`'s build names plus the chunks of the optional `parts` it uses — no
   * other part's — and the page's own files (never a part) stay within `ceiling`.
   */
  async function expectScripts(
    path: string,
    page: OverlayPage,
    ready: string | string[],
    ceiling: number,
    chunks: number,
    parts: OverlayPart[] = [],
    query = '',
  ): Promise<void> {
    for (const lang of LANGS) {
      const tab = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
      const js = jsResponses(tab);
      try {
        await tab.goto(`${h.url}${path}?lang=${lang}${query}`);
        for (const sel of [ready].flat()) await tab.waitForSelector(sel, { state: 'attached' });
        await tab.waitForLoadState('networkidle'); // a part fetched late would be among the responses by now
        const loaded = await Promise.all(js);
        const built = overlayScripts(lang, undefined, page);
        const used = parts.map((p) => overlayPartScript(p, page));
        expect(loaded.map((f) => [f.url, f.gz]).sort()).toEqual([...built, ...used].map((f) => [f.path, f.gzip]).sort());
        const total = built.reduce((s, f) => s + f.gzip, 0);
        console.log(
          `[${page} budget] ${lang}: ${built.map((f) => `${f.path} ${f.raw} B raw / ${f.gzip} B gzip`).join('; ')}; total ${total} B gzip (budget ${OVERLAY_JS_BUDGET} B, ceiling ${ceiling} B)` +
            (used.length ? `; parts: ${used.map((f, i) => `${parts[i]} ${f.path} ${f.gzip} B gzip`).join('; ')}` : ''),
        );
        expect(built).toHaveLength(1 + chunks); // the page's script and its language's table parts, no other language
        expect(total).toBeGreaterThan(0);
        expect(total).toBeLessThanOrEqual(ceiling);
      } finally {
        await tab.close();
      }
    }
  }

  it('loads exactly the JS the built page names plus its language table, within the 48 KB budget in every language (OVERLAY_JS_BUDGET)', async () => {
    const m = await h.match(SETUP, [BREAK]);
    await expectScripts(`/overlay/${m.id}`, 'overlay', '[data-f="score-A"]', OVERLAY_JS_BUDGET, 1);
  });

  it('the one-match overlay fetches the odds, milestone and debug parts only when its URL asks for them', async () => {
    const m = await h.match(SETUP, [BREAK]);
    const ready = ['[data-f="score-A"]', '[data-f="odds"]', '[data-f="milestones"]', '[data-f="debug"]'];
    await expectScripts(
      `/overlay/${m.id}`,
      'overlay',
      ready,
      OVERLAY_JS_BUDGET,
      1,
      ['odds', 'milestones', 'debug'],
      '&captions=off&show=odds&milestones=auto&debug=1',
    );
    // One part alone brings no other.
    await expectScripts(`/overlay/${m.id}`, 'overlay', ['[data-f="score-A"]', '[data-f="odds"]'], OVERLAY_JS_BUDGET, 1, ['odds'], '&captions=off&show=odds');
  });

  it('the table overlay loads its own script and its language’s on-air and cards chunks, within its ceiling (TABLE_OVERLAY_JS_CEILING), and the cards part for the card up', async () => {
    const ev = await createEvent(h.url);
    await tableMatch(h.url, ev, 'table-1', ['p1', 'p2'], true);
    const path = `/overlay/table/${ev.id}/table-1`;
    await expectScripts(path, 'overlay-table', '[data-f="card"][data-kind="intro"]', TABLE_OVERLAY_JS_CEILING, 2, ['cards']);
    // cards=0: the intro is up on the table, but this overlay fetches no cards part (nor any other).
    await expectScripts(path, 'overlay-table', '[data-f="score-A"]', TABLE_OVERLAY_JS_CEILING, 2, [], '&cards=0');
    // Every optional part the URL asks for, and the card.
    const ready = ['[data-f="card"][data-kind="intro"]', '[data-f="odds"]', '[data-f="milestones"]', '[data-f="debug"]'];
    await expectScripts(
      path,
      'overlay-table',
      ready,
      TABLE_OVERLAY_JS_CEILING,
      2,
      ['cards', 'odds', 'milestones', 'debug'],
      '&captions=off&show=odds&milestones=auto&debug=1',
    );
  });

  it('the table overlay fetches the cards part when the first card goes up, not before', async () => {
    const ev = await createEvent(h.url);
    await tableMatch(h.url, ev, 'table-1', ['p1', 'p2'], true);
    const hide = await api(h.url, `/api/events/${ev.id}/tables/table-1/cards/hide`, { method: 'POST', token: ev.organiserToken });
    expect(hide.status).toBe(200);
    const tab = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
    const js = jsResponses(tab);
    const cards = overlayPartScript('cards', 'overlay-table').path;
    try {
      await tab.goto(`${h.url}/overlay/table/${ev.id}/table-1`);
      await tab.locator('[data-f="score-A"]').waitFor();
      await tab.waitForLoadState('networkidle');
      expect((await Promise.all(js)).map((f) => f.url)).not.toContain(cards);
      expect(await tab.locator('[data-f="table-overlay"]').getAttribute('data-card')).toBe('none');
      const intro = await api(h.url, `/api/events/${ev.id}/tables/table-1/cards/intro`, { method: 'POST', token: ev.organiserToken });
      expect(intro.status).toBe(200);
      await tab.locator('[data-f="card"][data-kind="intro"][data-up="1"]').waitFor();
      expect((await Promise.all(js)).map((f) => f.url)).toContain(cards);
    } finally {
      await tab.close();
    }
  });

  it('the OBS draw graphics load their own script only (words in shared/draw/labels.ts), within their ceiling (DRAW_OVERLAY_JS_CEILING)', async () => {
    const ev = await createEvent(h.url);
    const made = await api(h.url, `/api/events/${ev.id}/draw`, { token: ev.organiserToken, body: { format: 'single' } });
    expect(made.status).toBe(201);
    await expectScripts(`/overlay/draw/${ev.id}`, 'overlay-draw', '[data-f="bracket"] [data-match]', DRAW_OVERLAY_JS_CEILING, 0);
  });

  it('runs no timers, frames or animations while idle, also after an update animated and its caption left', async () => {
    const m = await h.match(SETUP, [BREAK]);
    const page = await h.browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.addInitScript(IDLE_PROBE);
    // Count the change animations started (Element.animate calls), so "did animate" does not race their end.
    await page.addInitScript(() => {
      const w = window as unknown as { __animated: number };
      const animate = Element.prototype.animate;
      w.__animated = 0;
      Element.prototype.animate = function (this: Element, ...args: Parameters<Element['animate']>) {
        w.__animated++;
        return animate.apply(this, args);
      };
    });
    const pings = countPings(page);
    try {
      await page.goto(`${h.url}/overlay/${m.id}?caption=1&captions=all`);
      await page.waitForFunction(() => performance.getEntriesByName('cuecast:first-state-painted').length > 0);
      await page.waitForTimeout(500);
      const boot = await idleWindow(page, pings, 3000);
      await h.record(m, { shot: { call: { ball: 3 }, pocketed: [3] } });
      await page.waitForFunction(() => document.querySelector('[data-f="score-B"]')?.textContent === '1');
      const during = await page.evaluate(() => (window as unknown as { __animated: number }).__animated);
      await page.locator('[data-f="caption"]').waitFor({ state: 'detached', timeout: 10_000 }); // caption=1 s, one timer
      await page.waitForTimeout(500); // the change animations last ≤ 320 ms
      const after = await idleWindow(page, pings, 3000);
      expectIdle(boot);
      expect(during).toBeGreaterThan(0); // the score change did start an animation (counted, not sampled)…
      expectIdle(after); // …and then everything stopped
    } finally {
      await page.close();
    }
  });

  it('paints the first state after the socket connects (ceiling 2 s; figures in bench:pages)', async () => {
    const m = await h.match(SETUP, [BREAK]);
    const page = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
    try {
      await page.goto(`${h.url}/overlay/${m.id}`);
      const ms = await firstPaintMs(page);
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThanOrEqual(2000);
    } finally {
      await page.close();
    }
  });
});
