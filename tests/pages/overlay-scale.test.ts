/**
 * The `scale` parameter (0.5 – 2) in real headless Chromium: the graphics grow or shrink as asked, but never
 * beyond the 90 % action-safe area of the 1920×1080 canvas (x 96–1824, y 54–1026) — the bottom bar, the moment
 * card and the table overlay's cards stop at the largest size that fits; the corner bug grows up to 2. A moment
 * enters at its scale (its entrance moves it with `translate`, leaving the scale alone).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../helpers/browser';
import { createEvent, EVENT, recordStep, stepsToWin, tableMatch } from '../helpers/events';
import { api } from '../helpers/server';
import { OverlayHarness } from '../helpers/overlay-harness';

const hasChromium = chromiumAvailable();
const SAFE = { left: 96, top: 54, right: 1824, bottom: 1026 };
const SETUP = { discipline: 'rotation', players: ['Ann Lee', 'Bob Smith'], targets: [120, 120] };

/** The bounding box of `sel` on the 1920×1080 page (the stage is unscaled at that size). */
const box = (page: Page, sel: string) =>
  page
    .locator(sel)
    .first()
    .evaluate((e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width };
    });

function expectInside(b: { left: number; top: number; right: number; bottom: number }, ctx: string): void {
  expect(b.left, ctx).toBeGreaterThanOrEqual(SAFE.left - 1);
  expect(b.top, ctx).toBeGreaterThanOrEqual(SAFE.top - 1);
  expect(b.right, ctx).toBeLessThanOrEqual(SAFE.right + 1);
  expect(b.bottom, ctx).toBeLessThanOrEqual(SAFE.bottom + 1);
}

describe.skipIf(!hasChromium)('overlay scale', () => {
  const h = new OverlayHarness();
  h.install();

  it('the scorebug and a moment stay inside the safe area at every scale, and still scale as asked where they fit', async () => {
    const m = await h.match(SETUP, [{ shot: { pocketed: [1, 9] } }, { shot: { pocketed: [2] } }]);
    const widths: Record<string, number> = {};
    for (const scale of [0.5, 1, 1.5, 2]) {
      for (const layout of ['bar', 'corner&corner=tl', 'corner&corner=br']) {
        const page = await h.open(m.id, `?layout=${layout}&scale=${scale}&caption=0&anim=0`);
        try {
          const ctx = `scale=${scale} layout=${layout}`;
          await page.locator('[data-f="caption"]').waitFor();
          const b = await box(page, '.gfx');
          expectInside(b, ctx);
          widths[`${layout} ${scale}`] = b.width;
        } finally {
          await page.close();
        }
      }
    }
    expect(widths['bar 0.5']).toBeCloseTo(600, 0); // the 1200 px bar at half size
    expect(widths['bar 1.5']).toBeGreaterThan(widths['bar 1']!); // as large as fits
    expect(widths['corner&corner=tl 2']).toBeCloseTo(2 * widths['corner&corner=tl 1']!, 0);

    // A moment (the match won) at scale 2: inside the safe area, and at its scale from its first frame.
    const straight = { discipline: '14-1', ruleset: 'nba', players: ['Ann Lee', 'Bob Smith'], targets: [3, 3] };
    const lead = [
      { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } },
      ...[3, 5].map((b) => ({ shot: { call: { ball: b }, pocketed: [b] } })),
    ] as const;
    for (const layout of ['bar', 'corner&corner=br']) {
      const r = await h.match(straight, [...lead]);
      const page = await h.open(r.id, `?layout=${layout}&scale=2&moment=60`);
      try {
        await h.record(r, { shot: { call: { ball: 7 }, pocketed: [7] } });
        await page.locator('[data-f="moment"]').waitFor();
        const first = await box(page, '[data-f="moment"]');
        await page.waitForTimeout(600); // the entrance is over
        const settled = await box(page, '[data-f="moment"]');
        expectInside(settled, `moment ${layout}`);
        expect(Math.abs(first.width - settled.width), `moment ${layout} enters at its scale`).toBeLessThan(2);
      } finally {
        await page.close();
      }
    }
  });

  it('the table overlay’s intro and summary cards stay inside the safe area at scale 2 (bar and corners)', async () => {
    const ev = await createEvent(h.url);
    const m = await tableMatch(h.url, ev, 'table-1', ['p1', 'p2'], true);
    for (const step of stepsToWin({ ...EVENT.defaults, players: ['A', 'B'] })) await recordStep(h.url, m, step);
    for (const layout of ['bar', 'corner&corner=br', 'corner&corner=tl']) {
      const page = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
      try {
        await page.goto(`${h.url}/overlay/table/${ev.id}/table-1?layout=${layout}&scale=2&anim=0`);
        for (const kind of ['intro', 'summary']) {
          expect((await api(h.url, `/api/events/${ev.id}/tables/table-1/cards/${kind}`, { method: 'POST', token: ev.organiserToken })).status).toBe(200);
          await page.locator(`[data-f="card"][data-kind="${kind}"][data-up="1"]`).waitFor();
          expectInside(await box(page, '[data-f="card"][data-up="1"]'), `${kind} ${layout}`);
        }
      } finally {
        await page.close();
      }
    }
  });
});
