/**
 * "What it takes" in real Chromium against a real server (shared/win-probability.ts):
 * - the dashboard's panel shows each player's win chance and points needed as the model computes them from the
 *   state and the statistics, and updates with a shot; Rotation shows the points left against 61 and the match;
 * - `show=odds` on the OBS overlay draws the strip (14-1: chances and needs, Rotation: points left, 61, match),
 *   in the overlay's language, inside the scorebug's box on the frame; without `show=odds` nothing; it gives
 *   way to a caption; the table overlay draws it too;
 * - with `SHOTS=1` / `ARTIFACTS=1`: composites over the pool-table picture at 1080p and 720p (docs/screenshots/odds/).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { applyStep, newMatch, statsOf, view, type Match } from '../../shared/index';
import type { Step } from '../../shared/protocol/steps';
import { whatItTakes } from '../../shared/win-probability';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { chromiumAvailable } from '../helpers/browser';
import { onTable, saveComposite } from '../helpers/composite';
import { createEvent, tableMatch } from '../helpers/events';
import { field, OverlayHarness, waitForText } from '../helpers/overlay-harness';
import { FOR_DOCS, PICTURES, pictureDir } from '../helpers/pictures';

const hasChromium = chromiumAvailable();
const STRAIGHT = { discipline: '14-1', ruleset: 'nba', players: ['Ann Andersen', 'Bo Berg'], targets: [50, 50] };
const STRAIGHT_STEPS: Step[] = [
  { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } },
  { shot: { call: { made: true }, pocketed: 1 } },
  { shot: { call: { made: true }, pocketed: 1 } },
  { shot: { call: { made: true }, pocketed: 1 } },
  { shot: { call: 'safety' } },
  { shot: { call: { made: true }, pocketed: 1 } },
  { shot: { call: { ball: 2 } } },
];
const ROTATION = { discipline: 'rotation', players: ['Ann Andersen', 'Bo Berg'], targets: [120, 120] };
const ROTATION_STEPS: Step[] = [
  { shot: { firstContact: 1, pocketed: [1, 15], breakRails: { objectBalls: 4 } } },
  { shot: { firstContact: 2, pocketed: [2, 14] } },
  { shot: { firstContact: 3 } },
];

function engine(setup: unknown, steps: Step[]): Match {
  let m: Match = newMatch(parseSetup(setup));
  for (const [i, s] of steps.entries()) {
    const r = applyStep(m, s);
    if (!r.ok) throw new Error(`step ${i}: ${r.error.message}`);
    m = r.match;
  }
  return m;
}
const pct = (v: number) => `${Math.round(v * 100)} %`;

describe.skipIf(!hasChromium)('what it takes in Chromium', () => {
  const h = new OverlayHarness();
  h.install();

  async function dashboard(id: string, version: number): Promise<Page> {
    const page = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.goto(`${h.url}/dashboard/${id}?lang=en`);
    await page.waitForFunction((v) => document.querySelector('main[data-version]')?.getAttribute('data-version') === String(v), version);
    return page;
  }
  /** The dashboard's chance text of `key` once the panel shows the engine's figure. */
  const dashChance = (page: Page, key: 'A' | 'B') => page.locator(`[data-f="odds-${key}-chance"]`).textContent();

  it('dashboard, 14-1: win chance and points needed as the model computes them, updated by a shot, text ≥ 18 px', async () => {
    const m = await h.match(STRAIGHT, STRAIGHT_STEPS.slice(0, 6));
    const page = await dashboard(m.id, 6);
    try {
      let want = engine(STRAIGHT, STRAIGHT_STEPS.slice(0, 6));
      let w = whatItTakes(view(want), want.setup, { stats: statsOf(want).players });
      if (w.discipline !== '14-1') throw new Error('14-1 expected');
      expect(await dashChance(page, 'A')).toBe(pct(w.chance[0]));
      expect(await dashChance(page, 'B')).toBe(pct(w.chance[1]));
      expect(await page.locator('[data-f="odds-A-needs"]').textContent()).toBe(`needs ${w.needed[0]}`);
      expect(await page.locator('[data-f="odds-B-needs"]').textContent()).toBe(`needs ${w.needed[1]}`);
      const before = w.chance[0];
      // A misses: B to the table; the panel follows the new state.
      await h.record(m, STRAIGHT_STEPS[6]!);
      want = engine(STRAIGHT, STRAIGHT_STEPS);
      w = whatItTakes(view(want), want.setup, { stats: statsOf(want).players });
      if (w.discipline !== '14-1') throw new Error('14-1 expected');
      expect(w.chance[0]).not.toBe(before);
      await page.waitForFunction((t) => document.querySelector('[data-f="odds-A-chance"]')?.textContent === t, pct(w.chance[0]));
      expect(await dashChance(page, 'B')).toBe(pct(w.chance[1]));
      const sizes = await page.$$eval('[data-f="odds"] *', (els) =>
        els
          .filter((e) => e.childNodes.length && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim()))
          .map((e) => parseFloat(getComputedStyle(e).fontSize)),
      );
      expect(sizes.length).toBeGreaterThan(5);
      expect(Math.min(...sizes)).toBeGreaterThanOrEqual(18);
    } finally {
      await page.close();
    }
  });

  it('dashboard, Rotation: points left against 61 and the match', async () => {
    const m = await h.match(ROTATION, ROTATION_STEPS);
    const page = await dashboard(m.id, ROTATION_STEPS.length);
    try {
      // 120 − 1 − 15 − 2 − 14 = 88 left; A has 32 in the rack: 29 to 61; B none: 61.
      expect(await page.locator('[data-f="odds-left"]').textContent()).toBe('On the table 88');
      expect(await page.locator('[data-f="odds-A-rack"]').textContent()).toBe('61 in 29');
      expect(await page.locator('[data-f="odds-B-rack"]').textContent()).toBe('61 in 61');
      expect((await page.locator('[data-f="odds-A-match"]').textContent())!.replace(/\s+/g, ' ').trim()).toBe('needs 88 · this rack');
      expect((await page.locator('[data-f="odds-B-match"]').textContent())!.replace(/\s+/g, ' ').trim()).toBe('needs 120 · +1 racks');
    } finally {
      await page.close();
    }
  });

  it('overlay: show=odds draws the strip with the model figures, in the language asked; none without it; it gives way to a caption', async () => {
    const m = await h.match(STRAIGHT, STRAIGHT_STEPS);
    const want = engine(STRAIGHT, STRAIGHT_STEPS);
    const w = whatItTakes(view(want), want.setup);
    if (w.discipline !== '14-1') throw new Error('14-1 expected');
    const page = await h.open(m.id, '?show=odds&captions=off');
    try {
      await waitForText(page, 'odds-A-value', pct(w.chance[0]));
      expect(await field(page, 'odds-B-value')).toBe(pct(w.chance[1]));
      expect(await field(page, 'odds-A-sub')).toBe(`needs ${w.needed[0]}`);
      const box = (await page.locator('[data-f="odds"]').boundingBox())!;
      expect(box.height).toBeLessThanOrEqual(48);
      expect(box.x).toBeGreaterThanOrEqual(192 * 0.5);
      expect(box.x + box.width).toBeLessThanOrEqual(1920 - 96);
      expect(box.y).toBeGreaterThanOrEqual(54);
      expect(box.y + box.height).toBeLessThanOrEqual(1080 - 54);
      const bug = (await page.locator('[data-f="scorebug"] .main').boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(bug.y);
    } finally {
      await page.close();
    }
    const ja = await h.open(m.id, '?show=odds&captions=off&lang=ja&layout=corner');
    try {
      await waitForText(ja, 'odds-A-sub', `あと${w.needed[0]}`);
    } finally {
      await ja.close();
    }
    const none = await h.open(m.id, '?captions=off');
    try {
      expect(await none.locator('[data-f="odds"]').count()).toBe(0);
    } finally {
      await none.close();
    }
    // A caption kept on air (caption=0) takes the strip's place until the next one.
    const cap = await h.open(m.id, '?show=odds&captions=all&caption=0');
    try {
      await h.record(m, { shot: { call: { made: true }, pocketed: 1 } });
      await cap.locator('.caption').first().waitFor();
      expect(await cap.locator('[data-f="odds"]').count()).toBe(0);
    } finally {
      await cap.close();
    }
  });

  it('overlay: Rotation with show=odds shows the points left and each way to 61 and the match', async () => {
    const m = await h.match(ROTATION, ROTATION_STEPS);
    const page = await h.open(m.id, '?show=odds&captions=off&lang=zh-TW');
    try {
      await waitForText(page, 'odds-lead', '88');
      expect(await field(page, 'odds-A-value')).toBe('距61 29');
      expect(await field(page, 'odds-B-sub')).toBe('勝利還差 120');
    } finally {
      await page.close();
    }
  });

  it('table overlay: show=odds draws the strip for the table match', async () => {
    const ev = await createEvent(h.url);
    await tableMatch(h.url, ev, 'table-1', ['p1', 'p2'], true);
    const page = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
    try {
      await page.goto(`${h.url}/overlay/table/${ev.id}/table-1?show=odds&captions=off&cards=0`);
      await page.locator('[data-f="odds"]').waitFor();
      // Both players of the table's match, each with the points they need.
      for (const p of ['A', 'B']) expect(await field(page, `odds-${p}-sub`)).toMatch(/^needs \d+$/);
    } finally {
      await page.close();
    }
  });

  it.skipIf(!PICTURES)('composites over the pool-table picture at 1080p and 720p', async () => {
    const dir = pictureDir('odds');
    const s = await h.match(STRAIGHT, STRAIGHT_STEPS);
    const r = await h.match(ROTATION, ROTATION_STEPS);
    for (const [name, id, query] of [
      ['odds-14-1-bar', s.id, '?show=odds&captions=off'],
      ['odds-14-1-corner-ja', s.id, '?show=odds&captions=off&layout=corner&lang=ja'],
      ['odds-rotation-bar', r.id, '?show=odds&captions=off'],
    ] as const) {
      const page = await h.open(id, query);
      try {
        await page.locator('[data-f="odds"]').waitFor();
        await onTable(page);
        await saveComposite(h.browser, await page.screenshot(), join(dir, name), FOR_DOCS);
      } finally {
        await page.close();
      }
    }
  });
});
