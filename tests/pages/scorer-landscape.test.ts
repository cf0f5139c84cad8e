/**
 * The scorer console on a landscape tablet (1280×800 and 1024×768) in real headless Chromium against a real
 * in-process server: two columns — the table state with Undo and the recent steps on the left, the controls on
 * the right — and Undo in view without scrolling, also with Rotation's foul list open (the tallest controls). At phone size the console stays one column with the controls between the score and Undo.
 * Screenshot: artifacts/screenshots/scorer-tablet-landscape-1280.png (kept as docs/screenshots/).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { chromiumAvailable } from '../helpers/browser';
import { PHONE, ScorerHarness } from '../helpers/scorer-harness';

const run = chromiumAvailable();
const h = new ScorerHarness('cuecast-scorer-landscape-');

/** Boxes of the score line, the controls (the shown panel), Undo and the recent steps, and the viewport. */
const layout = (page: Page) =>
  page.evaluate(() => {
    const box = (sel: string) => {
      const r = document.querySelector(sel)!.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    };
    return {
      score: box('.scoreline'),
      controls: box('.panel-host > .panel'),
      undo: box('[data-testid="undo"]'),
      recent: box('[data-testid="recent"]'),
      height: window.innerHeight,
      scrolls: document.documentElement.scrollHeight > window.innerHeight + 1,
    };
  });

describe.skipIf(!run)('scorer console on a landscape tablet in Chromium', () => {
  h.install();

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1024, height: 768 },
  ]) {
    test(`${viewport.width}×${viewport.height}: state and recent steps beside the controls, Undo always in view`, { timeout: 90_000 }, async () => {
      const m = await h.create({
        discipline: 'rotation',
        players: ['Ann Andersen', 'Jürgen Kraus'],
        start: { turn: 'A', onTable: [3, 4, 5, 6, 7, 9, 12, 15] },
      });
      for (const step of [
        { shot: { firstContact: 3, pocketed: [3] } },
        { shot: { firstContact: 4, pocketed: [4] } },
        { shot: { firstContact: 5, rail: true } },
      ])
        await h.recordAs(m, step);
      const ctx = await h.browser.newContext({ viewport, deviceScaleFactor: 1, hasTouch: true });
      try {
        const { page } = await h.openScorer(m.urls.scorer, ctx);
        await page.locator('.panel-host > .panel').first().waitFor();
        await page.locator('[data-testid="recent"] li').nth(2).waitFor();
        let l = await layout(page);
        // Two columns: the score line and the recent steps left of the controls, Undo under the score line.
        expect(l.score.right).toBeLessThanOrEqual(l.controls.left);
        expect(l.recent.right).toBeLessThanOrEqual(l.controls.left);
        expect(l.undo.right).toBeLessThanOrEqual(l.controls.left);
        expect(l.undo.top).toBeGreaterThanOrEqual(l.score.bottom);
        expect(l.undo.top).toBeLessThan(l.controls.bottom); // beside the controls, not below them
        expect(l.undo.bottom).toBeLessThanOrEqual(l.height);
        expect(l.scrolls).toBe(false);
        if (viewport.width === 1280) await page.screenshot({ path: join(h.shots, 'scorer-tablet-landscape-1280.png') });
        // The tallest controls: the foul list open. Undo stays in view; the page itself does not scroll.
        await page.locator('[data-testid="foul"][aria-expanded]').click();
        await page.locator('[data-testid="foul"][aria-expanded="true"]').waitFor();
        l = await layout(page);
        expect(l.undo.top).toBeGreaterThanOrEqual(0);
        expect(l.undo.bottom).toBeLessThanOrEqual(l.height);
        expect(l.scrolls).toBe(false);
        // Undo works from there.
        await page.getByTestId('undo').click();
        await expect.poll(async () => (await h.stateOf(m.id)).version, { timeout: 10_000 }).toBe(4);
      } finally {
        await ctx.close();
      }
    });
  }

  test('at phone size it stays one column: score, controls, then Undo', { timeout: 60_000 }, async () => {
    const m = await h.create({ discipline: '14-1', players: ['Ann', 'Bob'] });
    const { ctx, page } = await h.openScorer(m.urls.scorer);
    try {
      await page.locator('.panel-host > .panel').first().waitFor();
      const l = await layout(page);
      expect(page.viewportSize()).toEqual(PHONE);
      expect(l.controls.top).toBeGreaterThanOrEqual(l.score.bottom);
      expect(l.undo.top).toBeGreaterThanOrEqual(l.controls.bottom);
    } finally {
      await ctx.close();
    }
  });
});
