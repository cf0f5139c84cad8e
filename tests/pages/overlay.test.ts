/**
 * The OBS overlay in real headless Chromium against a real server (embedded SQLite store):
 * values after recorded shots at 1920×1080, 1280×720 and 800×600 with a transparent background (screenshot
 * pixels), a hostile player name shown as text, URL parameters (layout, theme, lang, side, hide, safe, debug),
 * the one caption line with a pending choice, a resync when the page becomes visible, and a server killed and
 * restarted under the overlay: last state kept, then current again without a reload.
 * Shooter, captions over time, moments, names and the not-found card: overlay-live.test.ts; sizes, contrast
 * and the screenshot matrix: overlay-look.test.ts. Screenshots: artifacts/screenshots.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { caption } from '../../web/src/lib/format';
import { nameForms } from '../../web/src/lib/names';
import '../../web/src/lib/i18n-air'; // every language's on-air strings, for the formatter
import type { Step } from '../../shared/protocol/steps';
import { chromiumAvailable, OBS_ENGINE } from '../helpers/browser';
import { spawnServer, type ChildServer, createMatch, api } from '../helpers/server';
import { engineState, field, OverlayHarness, waitForText } from '../helpers/overlay-harness';

const hasChromium = chromiumAvailable();
const SETUP = { discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [100, 100] };
/** A safety break, Bob runs 2 and misses, Ann scratches, Bob plays safe, Ann fouls again: Ann on two fouls. */
const STEPS: Step[] = [
  { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } },
  { shot: { call: { ball: 3 }, pocketed: [3] } },
  { shot: { call: { ball: 5 }, pocketed: [5] } },
  { shot: { call: { ball: 7 } } },
  { shot: { call: { ball: 1 }, cueBall: 'scratch' } },
  { shot: { call: 'safety' } },
  { shot: { call: { ball: 2 }, rail: false } },
];

/**
 * Decode a PNG in a blank page and return the RGBA of the given points (Chromium decodes; no PNG library).
 */
async function pixels(browser: Browser, png: Buffer, points: [number, number][]): Promise<number[][]> {
  const p = await browser.newPage();
  try {
    return await p.evaluate(
      async ({ b64, points }) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.width;
        c.height = img.height;
        const ctx = c.getContext('2d')!;
        ctx.drawImage(img, 0, 0);
        return points.map(([x, y]) => [...ctx.getImageData(x, y, 1, 1).data]);
      },
      { b64: png.toString('base64'), points },
    );
  } finally {
    await p.close();
  }
}

describe.skipIf(!hasChromium)('OBS overlay in Chromium', () => {
  const h = new OverlayHarness();
  h.install();

  it('shows the engine values after recorded shots at 1920×1080, 1280×720 and 800×600, on a transparent background', async () => {
    const m = await h.match(SETUP, STEPS);
    const want = engineState(SETUP, STEPS);
    expect(want.onTwoFouls[0]).toBe(true);
    for (const [w, ht] of [
      [1920, 1080],
      [1280, 720],
      [800, 600],
    ] as const) {
      // caption=0 keeps the caption on air from boot, so the picture shows it.
      const page = await h.open(m.id, '?caption=0', { width: w, height: ht });
      try {
        await waitForText(page, 'score-B', String(want.score[1]));
        expect(await field(page, 'name-A')).toBe('Ann');
        expect(await field(page, 'name-B')).toBe('Bob');
        expect(await field(page, 'score-A')).toBe('\u22122'); // −2 with a true minus sign
        expect(await field(page, 'score-B')).toBe('2');
        expect(await field(page, 'centre')).toBe('Race to 100');
        expect(await field(page, 'target-A')).toBeNull(); // the race shows once, not again beside each score
        expect(await field(page, 'two-fouls-A')).toBe('On 2 fouls');
        expect(await page.getAttribute('[data-f="fouls-A"]', 'data-n')).toBe('2');
        expect(await page.locator('[data-f="fouls-A"] i.on').count()).toBe(2); // filled markers
        expect(await page.getAttribute('[data-f="fouls-B"]', 'data-n')).toBe('0');
        expect(await field(page, 'balls')).toBe(String(want.ballsOnTable));
        expect(await field(page, 'rack')).toBe('1');
        // The run box beside the shooter once a run has started, none before (issue 29).
        expect(await field(page, 'run')).toBe(want.run > 0 ? String(want.run) : null);
        expect(await page.locator(`.panel[data-player="${want.turn}"] [data-f="run"]`).count()).toBe(want.run > 0 ? 1 : 0);
        expect(await field(page, 'highrun-B')).toBe(String(want.highRun[1]));
        expect(await page.getAttribute(`[data-f="turn-${want.turn}"]`, 'data-on')).toBe('1');
        expect(want.last).toMatchObject({ by: 'A', foul: 'foul', fouls: ['no-rail'], penalty: 1, standingFouls: 2 }); // the engine's facts…
        // …in the pages' words, through the one caption function (nothing pending: the event alone), naming Ann.
        expect(await field(page, 'caption')).toBe('Ann \u2014 no rail \u22121, on two fouls');
        expect(await field(page, 'caption')).toBe(caption(want, 'en', true));
        expect(await page.locator('.caption').count()).toBe(1); // one line, never two stacked
        expect(await field(page, 'debug')).toBeNull(); // no connection chip without debug=1
        // No scrollbars, nothing outside the viewport.
        const scroll = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight }));
        expect(scroll.sw).toBeLessThanOrEqual(w);
        expect(scroll.sh).toBeLessThanOrEqual(ht);
        // The bar sits inside the 90% action-safe area of the scaled canvas.
        const box = await page.locator('.gfx').boundingBox();
        const s = Math.min(w / 1920, ht / 1080);
        const ox = (w - 1920 * s) / 2;
        const oy = (ht - 1080 * s) / 2;
        expect(box!.x).toBeGreaterThanOrEqual(ox + 96 * s - 1);
        expect(box!.x + box!.width).toBeLessThanOrEqual(ox + 1824 * s + 1);
        expect(box!.y + box!.height).toBeLessThanOrEqual(oy + 1026 * s + 1);

        const png = await h.shot(page, `overlay-bar-${w}x${ht}`);
        const inBar = [Math.round(box!.x + box!.width * 0.25), Math.round(box!.y + box!.height - 4)] as [number, number];
        const [corner, middle, bar] = await pixels(h.browser, png, [[5, 5], [Math.round(w / 2), Math.round(ht / 3)], inBar]);
        expect(corner![3]).toBe(0); // fully transparent around the graphics
        expect(middle![3]).toBe(0);
        expect(bar![3]).toBe(255); // the graphics themselves are opaque
      } finally {
        await page.close();
      }
    }
  });

  it('shows a player named <img src=x onerror=alert(1)> as text', async () => {
    const evil = '<img src=x onerror=alert(1)>';
    const m = await h.match({ ...SETUP, players: [evil, 'Bob'] });
    const page = await h.browser.newPage({ viewport: { width: 1280, height: 720 } });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    try {
      for (const layout of ['bar', 'corner']) {
        await page.goto(`${h.url}/overlay/${m.id}?layout=${layout}`);
        await page.locator('[data-f="name-A"]').waitFor();
        expect(await page.getAttribute('[data-f="name-A"]', 'title')).toBe(evil);
        expect(nameForms(evil)).toContain(await field(page, 'name-A')); // the text, maybe a shorter form of it
        expect(await page.locator('img').count()).toBe(0);
        expect(await page.evaluate(() => document.querySelector('[data-f="name-A"]')!.children.length)).toBe(0);
      }
      await h.shot(page, 'overlay-xss-name');
      expect(dialogs).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('applies layout, theme, colours, lang, side, hide, show, size, safe and debug parameters; debug=1 names values it does not know', async () => {
    const setup = { discipline: 'rotation', players: ['Ann', 'Bob'], targets: [120, 90] };
    const steps: Step[] = [{ shot: { pocketed: [1, 9] } }, { shot: { pocketed: [2] } }];
    const m = await h.match(setup, steps);
    const want = engineState(setup, steps);
    const page = await h.open(m.id, '?layout=corner&corner=tr&theme=light&accent=ff8800&lang=ja&side=B&hide=highrun&safe=1&debug=1');
    try {
      await waitForText(page, 'score-A', String(want.score[0]));
      // side=B: Bob is the first panel; Rotation shows lowest ball, balls left and points left.
      const order = await page.$$eval('.panel', (els) => els.map((e) => (e as HTMLElement).dataset.player));
      expect(order).toEqual(['B', 'A']);
      expect(await field(page, 'lowest')).toBe(String(want.lowestBall));
      expect(await field(page, 'points-left')).toBe(String(want.pointsLeft));
      expect(await field(page, 'balls')).toBe(String(want.ballsOnTable));
      expect(await field(page, 'target-B')).toBe('/90'); // handicap: own targets…
      expect(await field(page, 'centre')).toBe('90/120点先取'); // …and both targets in the race box, in display order
      expect(await field(page, 'highrun-A')).toBeNull(); // hide=highrun
      expect(await page.locator('.guide').count()).toBe(2); // safe=1
      expect(await field(page, 'debug')).toMatch(/^ライブ · v2$/); // debug=1, in Japanese
      expect(await page.locator('.stage.theme-light').count()).toBe(1);
      expect(await page.evaluate(() => getComputedStyle(document.querySelector('.centre')!).backgroundColor)).toBe('rgb(255, 136, 0)');
      const box = await page.locator('.gfx').boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(1824 + 1); // top-right corner inside the safe area
      expect(box!.y).toBeGreaterThanOrEqual(54 - 1);
      await h.shot(page, 'overlay-corner-ja-light-safe');

      // Values the overlay does not know fall back to the defaults, and debug=1 names them.
      await page.goto(`${h.url}/overlay/${m.id}?lang=zh-TW&anim=0&scale=0.8&size=xl&show=foo,balls&debug=1`);
      await waitForText(page, 'score-A', String(want.score[0]));
      const unknown = (await field(page, 'debug-unknown'))!;
      expect(unknown).toContain('size=xl');
      expect(unknown).toContain('show=foo');
      expect(unknown).not.toContain('balls');
      expect(await page.locator('[data-f="ball-row"]').getAttribute('data-balls')).toBe(want.onTable!.join(','));
      expect(await page.locator('.stage.noanim').count()).toBe(1);
      expect(await page.locator('.run b').textContent()).toBe('連續得分');
      expect(await page.evaluate(() => getComputedStyle(document.querySelector('.gfx')!).transform)).toBe('matrix(0.8, 0, 0, 0.8, 0, 0)');
      await h.shot(page, 'overlay-bar-rotation-zh-TW');
    } finally {
      await page.close();
    }
  });

  it('a pending choice: one caption line with the foul and the choice, on air from boot; the same words on all three pages', async () => {
    const m = await h.match(SETUP, [{ shot: { call: 'safety', breakRails: { objectBalls: 1, cueBall: true } } }]); // breaking foul
    const want = engineState(SETUP, [{ shot: { call: 'safety', breakRails: { objectBalls: 1, cueBall: true } } }]);
    const event = 'Ann \u2014 breaking foul \u22122';
    const choice = 'Bob to choose: accept the table or re-break';
    const page = await h.open(m.id, '?lang=en&caption=1');
    try {
      // Merged into one line, and it stays (a pending choice) past caption=1.
      await waitForText(page, 'caption', `${event} \u00b7 ${choice}`);
      expect(await field(page, 'caption')).toBe(caption(want, 'en', true));
      expect(await page.getAttribute('[data-f="caption"]', 'data-sticky')).toBe('1');
      await page.waitForTimeout(1500);
      expect(await field(page, 'caption')).toBe(`${event} \u00b7 ${choice}`);
      expect(await field(page, 'situation')).toBeNull(); // no second line
      expect(await page.locator('.caption').count()).toBe(1);
      // Wrapped, the " · " stays with the event (a no-break space before it): no line starts with "·".
      expect(await page.locator('.caption').textContent()).toBe(`${event}\u00a0\u00b7 ${choice}`);
      // hide=situation: the event alone (still on air while the choice is pending).
      await page.goto(`${h.url}/overlay/${m.id}?lang=en&hide=situation`);
      await waitForText(page, 'caption', event);
      // The dashboard and spectator pages are not OBS sources: checked in Debian's Chromium only (OBS_ENGINE unset).
      for (const path of OBS_ENGINE ? [] : ['dashboard', 'watch']) {
        await page.goto(`${h.url}/${path}/${m.id}?lang=en`);
        await waitForText(page, 'caption', event);
        expect(await field(page, 'situation')).toBe(choice);
      }
    } finally {
      await page.close();
    }
  });

  it('resyncs (subscribe with sinceVersion) when the page becomes visible again', async () => {
    const m = await h.match(SETUP, [STEPS[0]!]);
    const page = await h.browser.newPage({ viewport: { width: 800, height: 600 } });
    const subscribes: string[] = [];
    page.on('websocket', (ws) =>
      ws.on('framesent', (f) => {
        if (typeof f.payload === 'string' && f.payload.includes('"subscribe"')) subscribes.push(f.payload);
      }),
    );
    try {
      await page.goto(`${h.url}/overlay/${m.id}`);
      await waitForText(page, 'score-B', '0');
      expect(subscribes).toHaveLength(1);
      await page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await expect.poll(() => subscribes.length).toBe(2);
      expect(subscribes[1]).toContain('"sinceVersion":1');
    } finally {
      await page.close();
    }
  });

  it('keeps the last state while the server is down, then shows the current state again without a reload', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cuecast-restart-'));
    let child: ChildServer | null = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    const url = child.url;
    const port = new URL(url).port;
    const rec = async (base: string, step: Step, n: number) => {
      const res = await api(base, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: `restart-${n}`, step } });
      expect(res.status).toBe(201);
    };
    const m = await createMatch(url, SETUP);
    for (const [i, s] of STEPS.slice(0, 3).entries()) await rec(url, s, i);
    const page = await h.browser.newPage({ viewport: { width: 1280, height: 720 } });
    try {
      await page.goto(`${url}/overlay/${m.id}?debug=1`);
      await waitForText(page, 'score-B', '2');
      await page.evaluate(() => ((window as unknown as { bootMarker: number }).bootMarker = 42));

      await child.kill();
      child = null;
      await page.waitForFunction(() => document.querySelector('[data-f="debug"]')?.className.includes('chip-offline'), null, { timeout: 10_000 });
      // Still the last good state, nothing blanked.
      expect(await field(page, 'score-B')).toBe('2');
      expect(await field(page, 'name-A')).toBe('Ann');
      expect(await field(page, 'run')).toBe('2');
      await h.shot(page, 'overlay-server-down');

      child = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info', PORT: port });
      await rec(child.url, STEPS[3]!, 3); // Bob misses: turn to Ann, run 0
      await rec(child.url, STEPS[4]!, 4); // Ann scratches: −1
      await waitForText(page, 'score-A', '\u22121', 20_000);
      expect(await page.getAttribute('[data-f="turn-B"]', 'data-on')).toBe('1');
      expect(await field(page, 'debug')).toMatch(/^live · v5$/);
      expect(await page.evaluate(() => (window as unknown as { bootMarker?: number }).bootMarker)).toBe(42); // no reload
    } finally {
      await page.close();
      await child?.kill();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
