/**
 * The table overlay (`/overlay/table/<eventId>/<table>`) in real headless Chromium against one server (embedded SQLite
 * store): what it shows around its matches — the two-instance run of a whole event is
 * tests/e2e/event-tables.test.ts.
 * - before the table has a match nothing is on air (every pixel transparent), and the match put on it appears
 *   without a reload; an unknown event or table shows the visible not-found card;
 * - the cards at 1080p in both layouts and themes: scores ≥ 64 px, names ≥ 40 px, values ≥ 28 px, labels
 *   ≥ 20 px, contrast ≥ 4.5:1 (screenshots at 1920×1080 and 1280×720 in artifacts/screenshots/table-card-*.png);
 * - the event's theme preset is the default and the URL's parameters win, also after the preset changes;
 *   `cards=0` shows none; the producer's caption buttons hide and show the caption;
 * - motion: a card's entrance and exit animate transform/opacity only, nothing with reduced motion, and
 *   nothing runs once it is over (no timer, frame or animation in an idle window).
 */
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { countPings, IDLE_PROBE, idleWindow } from '../helpers/pages-probes';
import { chromiumAvailable } from '../helpers/browser';
import { createEvent, EVENT, recordStep, stepsToWin, tableMatch, type CreatedEvent } from '../helpers/events';
import { api } from '../helpers/server';
import { expectLegible, texts } from '../helpers/legibility';
import { OverlayHarness } from '../helpers/overlay-harness';

const hasChromium = chromiumAvailable();
const WIN = stepsToWin({ ...EVENT.defaults, players: ['A', 'B'] });
const card = (page: Page, kind: 'intro' | 'summary') => page.locator(`[data-f="card"][data-kind="${kind}"][data-up="1"]`).waitFor();

describe.skipIf(!hasChromium)('table overlay in Chromium', () => {
  const h = new OverlayHarness();
  h.install();
  const press = (ev: CreatedEvent, table: string, action: string) =>
    api(h.url, `/api/events/${ev.id}/tables/${table}/cards/${action}`, { method: 'POST', token: ev.organiserToken }).then((r) => expect(r.status).toBe(200));

  /** Open the table overlay of `table` (every step captioned: `captions=all` unless given) and wait until the table's state is there. */
  async function open(ev: { id: string }, table: string, query = '', size = { width: 1920, height: 1080 }): Promise<Page> {
    const page = await h.browser.newPage({ viewport: size });
    const q = query.includes('captions=') ? query : `${query}${query.includes('?') ? '&' : '?'}captions=all`;
    await page.goto(`${h.url}/overlay/table/${ev.id}/${table}${q}`);
    await page.locator('[data-f="table-overlay"]:not([data-state="waiting"])').waitFor({ state: 'attached' });
    return page;
  }

  it('shows nothing before the table has a match, then the match put on it without a reload; an unknown event or table shows the not-found card', async () => {
    const ev = await createEvent(h.url);
    const page = await open(ev, 'table-1');
    try {
      expect(await page.getAttribute('[data-f="table-overlay"]', 'data-state')).toBe('table');
      expect(await page.locator('.stage *').count()).toBe(0);
      const png = PNG.sync.read(await page.screenshot({ omitBackground: true }));
      let opaque = 0;
      for (let i = 3; i < png.data.length; i += 4) if (png.data[i] !== 0) opaque++;
      expect(opaque).toBe(0);
      await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
      await tableMatch(h.url, ev, 'table-1', ['p1', 'p2'], true);
      await card(page, 'intro');
      expect(await page.locator('[data-f="name-A"]').textContent()).toBe('Ann Andersen'); // the scorebug under it: the full name fits
      expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    } finally {
      await page.close();
    }
    for (const [path, title] of [
      [`nope/table-1`, 'Event not found: nope'],
      [`${ev.id}/nope`, 'Table not found: nope'],
    ]) {
      const nf = await h.browser.newPage({ viewport: { width: 1280, height: 720 } });
      try {
        await nf.goto(`${h.url}/overlay/table/${path}`);
        const card = nf.locator('[data-f="not-found"]');
        await card.waitFor();
        expect(await card.locator('.nf-title').textContent()).toBe(title);
        expect(await card.getAttribute('data-code')).toBe('not-found');
        expect(await card.isVisible()).toBe(true);
      } finally {
        await nf.close();
      }
    }
  });

  it('cards are legible at 1080p in both layouts and themes (sizes, contrast), screenshots at 1080p and 720p', async () => {
    const ev = await createEvent(h.url, { ...EVENT, theme: {} });
    const m = await tableMatch(h.url, ev, 'tv-table', ['p3', 'p2'], true);
    for (const step of WIN) await recordStep(h.url, m, step);
    for (const layout of ['bar', 'corner'] as const) {
      for (const theme of ['dark', 'light'] as const) {
        const page = await open(ev, 'tv-table', `?layout=${layout}&theme=${theme}&anim=0`);
        try {
          for (const kind of ['intro', 'summary'] as const) {
            await press(ev, 'tv-table', kind);
            await card(page, kind);
            // Names fitted and flags drawn before measuring.
            await page.waitForFunction(() =>
              [...document.querySelectorAll<HTMLImageElement>('.card img[data-flag]')].every((i) => i.complete && i.naturalWidth > 0),
            );
            const all = await texts(page, '.card');
            if (kind === 'summary') expectLegible(all, `summary ${layout} ${theme}`, 12);
            else expectLegible(all, `intro ${layout} ${theme}`, 6, ['name', 'value', 'label']);
            expect(await page.locator('.card img[data-flag]').evaluateAll((i) => i.map((e) => e.getAttribute('data-flag')))).toEqual(['TW', 'GB-ENG']);
            for (const [w, ht] of [
              [1920, 1080],
              [1280, 720],
            ] as const) {
              if (theme === 'light' && ht === 720) continue;
              await page.setViewportSize({ width: w, height: ht });
              await h.shot(page, `table-card-${kind}-${layout}-${theme}-${w}x${ht}`);
            }
            await page.setViewportSize({ width: 1920, height: 1080 });
          }
        } finally {
          await page.close();
        }
      }
    }
  });

  it('the event’s theme preset is the default, the URL wins, a new preset applies without a reload; cards=0 shows no card; the caption buttons', async () => {
    const ev = await createEvent(h.url, { ...EVENT, theme: { theme: 'light', accent: 'ff8800' } });
    const m = await tableMatch(h.url, ev, 'table-1', ['p1', 'p2'], true);
    const preset = await open(ev, 'table-1', '?caption=0');
    const own = await open(ev, 'table-1', '?theme=dark&cards=0&caption=0');
    const stage = (p: Page) =>
      p
        .locator('.stage')
        .first()
        .evaluate((s) => [s.className.includes('theme-light') ? 'light' : 'dark', getComputedStyle(s).getPropertyValue('--accent').trim()]);
    try {
      await card(preset, 'intro');
      await own.locator('[data-f="score-A"]').waitFor();
      expect(await stage(preset)).toEqual(['light', '#ff8800']);
      expect(await stage(own)).toEqual(['dark', '#ff8800']); // the URL's theme wins, the preset's accent stays
      // cards=0: the intro is up on the table, but not on this overlay, and its scorebug stays on air.
      expect(await own.locator('[data-f="card"]').count()).toBe(0);
      expect(await own.locator('.gfx').evaluate((g) => getComputedStyle(g).opacity)).toBe('1');
      await preset.waitForFunction(() => getComputedStyle(document.querySelector('.gfx')!).opacity === '0'); // under the card (0.3 s fade)
      // A new preset reaches the page without a reload.
      const patched = await api(h.url, `/api/events/${ev.id}`, {
        method: 'PATCH',
        token: ev.organiserToken,
        body: { theme: { theme: 'dark', accent: '22aa44' } },
      });
      expect(patched.status).toBe(200);
      await preset.waitForFunction(() => getComputedStyle(document.querySelector('.stage')!).getPropertyValue('--accent').trim() === '#22aa44');
      expect(await stage(preset)).toEqual(['dark', '#22aa44']);
      // The caption: a step puts one up (caption=0 keeps it); the producer hides it and shows it again.
      await recordStep(h.url, m, WIN[0]!);
      const caption = own.locator('[data-f="caption"]');
      await caption.waitFor();
      await press(ev, 'table-1', 'caption-hide');
      await caption.waitFor({ state: 'hidden' });
      await press(ev, 'table-1', 'caption-toggle');
      await caption.waitFor({ state: 'visible' });
    } finally {
      await preset.close();
      await own.close();
    }
  });

  it('a card’s entrance and exit animate transform and opacity only, nothing with reduced motion, and nothing runs after', async () => {
    const ev = await createEvent(h.url);
    await tableMatch(h.url, ev, 'table-1', ['p1', 'p4'], true);
    const page = await open(ev, 'table-1');
    await page.addInitScript(IDLE_PROBE);
    const pings = countPings(page);
    const animated = () =>
      page.evaluate(() =>
        document
          .getAnimations()
          .flatMap((a) => (a instanceof CSSTransition ? [a.transitionProperty] : (a.effect as KeyframeEffect).getKeyframes().flatMap((k) => Object.keys(k)))),
      );
    try {
      await page.reload();
      await card(page, 'intro');
      await press(ev, 'table-1', 'hide');
      await page.locator('[data-f="card"][data-up="0"]').waitFor({ state: 'attached' });
      const exit = await animated();
      await press(ev, 'table-1', 'summary');
      await card(page, 'summary');
      const entrance = await animated();
      const props = new Set([...exit, ...entrance].filter((k) => !['offset', 'easing', 'composite', 'computedOffset'].includes(k)));
      expect(props.size).toBeGreaterThan(0);
      for (const p of props) expect(['opacity', 'translate', 'transform', 'visibility'], p).toContain(p);
      await page.waitForTimeout(600); // the longest change animation lasts 320 ms, the exit 300 ms
      const idle = await idleWindow(page, pings, 2500);
      expect(idle.fired).toBe(0);
      expect(idle.frames).toBe(0);
      expect(idle.running).toBe(0);
      // Reduced motion: the next card appears without any animation.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await press(ev, 'table-1', 'intro');
      await card(page, 'intro');
      expect(await page.evaluate(() => document.getAnimations().length)).toBe(0);
    } finally {
      await page.close();
    }
  });
});
