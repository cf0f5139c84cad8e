/**
 * The OBS overlay in real headless Chromium against a real server (embedded file store):
 * values after recorded shots at 1920×1080, 1280×720 and 800×600 with a transparent background (screenshot
 * pixels), a pushed state painted within 200 ms of the record ack, a hostile player name shown as text,
 * URL parameters (layout, theme, lang, side, hide, safe, debug), and a server killed and restarted under
 * the overlay: last state kept, then current again without a reload. Screenshots: artifacts/screenshots.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { applyStep, newMatch, parseSetup, view, type Match } from '../../shared/index';
import type { MatchState } from '../../shared/protocol/state';
import type { Step } from '../../shared/protocol/steps';
import { chromiumAvailable, launchChromium, screenshotDir } from '../helpers/browser';
import { api, createMatch, spawnServer, startTestServer, type ChildServer } from '../helpers/server';
import { ensureBuilt } from './global-setup';

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

/** The engine's state after `steps` (what the overlay must show). */
function engineState(setup: unknown, steps: Step[]): MatchState {
  let m: Match = newMatch(parseSetup(setup));
  for (const s of steps) {
    const r = applyStep(m, s);
    if (!r.ok) throw r.error;
    m = r.match;
  }
  return view(m);
}

let eventNo = 0;
async function record(url: string, m: { id: string; scorerToken: string }, step: Step): Promise<{ version: number }> {
  const res = await api(url, `/api/matches/${m.id}/events`, { token: m.scorerToken, body: { eventId: `ev-${process.pid}-${++eventNo}`, step } });
  if (res.status !== 201) throw new Error(`record: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { version: number };
}

/** Visible text of `[data-f=f]`, or null when absent or hidden. */
async function field(page: Page, f: string): Promise<string | null> {
  return page.evaluate((f) => {
    const el = document.querySelector<HTMLElement>(`[data-f="${f}"]`);
    if (!el || el.closest('[hidden]')) return null;
    return el.textContent;
  }, f);
}

async function waitForText(page: Page, f: string, text: string, timeout = 10_000): Promise<void> {
  await page.waitForFunction(
    ([f, text]) => {
      const el = document.querySelector<HTMLElement>(`[data-f="${f}"]`);
      return !!el && !el.closest('[hidden]') && el.textContent === text;
    },
    [f, text] as const,
    { timeout },
  );
}

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
  let browser: Browser;
  let server: RunningServer;
  let dataDir: string;

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'cuecast-overlay-'));
    server = await startTestServer({ dataDir });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows the engine values after recorded shots at 1920×1080, 1280×720 and 800×600, on a transparent background', async () => {
    const m = await createMatch(server.url, SETUP);
    for (const s of STEPS) await record(server.url, m, s);
    const want = engineState(SETUP, STEPS);
    expect(want.onTwoFouls[0]).toBe(true);
    const shots = screenshotDir();
    for (const [w, h] of [
      [1920, 1080],
      [1280, 720],
      [800, 600],
    ] as const) {
      const page = await browser.newPage({ viewport: { width: w, height: h } });
      try {
        await page.goto(`${server.url}/overlay/${m.id}`);
        await waitForText(page, 'score-B', String(want.score[1]));
        expect(await field(page, 'name-A')).toBe('Ann');
        expect(await field(page, 'name-B')).toBe('Bob');
        expect(await field(page, 'score-A')).toBe('\u22122'); // −2 with a true minus sign
        expect(await field(page, 'score-B')).toBe('2');
        expect(await field(page, 'centre')).toBe('Race to 100');
        expect(await field(page, 'two-fouls-A')).toBe('On 2 fouls');
        expect(await field(page, 'fouls-B')).not.toBeNull();
        expect(await page.getAttribute('[data-f="fouls-B"]', 'data-n')).toBe('0');
        expect(await field(page, 'balls')).toBe(String(want.ballsOnTable));
        expect(await field(page, 'rack')).toBe('1');
        expect(await field(page, 'run')).toBe(String(want.run));
        expect(await field(page, 'highrun-B')).toBe(String(want.highRun[1]));
        expect(await page.getAttribute(`[data-f="turn-${want.turn}"]`, 'data-on')).toBe('1');
        expect(want.last).toMatchObject({ by: 'A', foul: 'foul', fouls: ['no-rail'], penalty: 1, standingFouls: 2 }); // the engine's facts…
        expect(await field(page, 'caption')).toBe('Ann \u2014 no rail \u22121, on two fouls'); // …in the pages' words
        expect(await field(page, 'debug')).toBeNull(); // no connection chip without debug=1
        // No scrollbars, nothing outside the viewport.
        const scroll = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight }));
        expect(scroll.sw).toBeLessThanOrEqual(w);
        expect(scroll.sh).toBeLessThanOrEqual(h);
        // The bar sits inside the 90% action-safe area of the scaled canvas.
        const box = await page.locator('.gfx').boundingBox();
        const s = Math.min(w / 1920, h / 1080);
        const ox = (w - 1920 * s) / 2;
        const oy = (h - 1080 * s) / 2;
        expect(box!.x).toBeGreaterThanOrEqual(ox + 96 * s - 1);
        expect(box!.x + box!.width).toBeLessThanOrEqual(ox + 1824 * s + 1);
        expect(box!.y + box!.height).toBeLessThanOrEqual(oy + 1026 * s + 1);

        const png = await page.screenshot({ omitBackground: true, path: join(shots, `overlay-bar-${w}x${h}.png`) });
        const inBar = [Math.round(box!.x + box!.width * 0.25), Math.round(box!.y + box!.height - 4)] as [number, number];
        const [corner, middle, bar] = await pixels(browser, png, [[5, 5], [Math.round(w / 2), Math.round(h / 3)], inBar]);
        expect(corner![3]).toBe(0); // fully transparent around the graphics
        expect(middle![3]).toBe(0);
        expect(bar![3]).toBe(255); // the graphics themselves are opaque
      } finally {
        await page.close();
      }
    }
  });

  it('paints a pushed state within 200 ms of the record ack', async () => {
    const m = await createMatch(server.url, SETUP);
    await record(server.url, m, STEPS[0]!);
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    try {
      await page.goto(`${server.url}/overlay/${m.id}`);
      await waitForText(page, 'score-B', '0');
      const delays: number[] = [];
      for (let i = 1; i <= 3; i++) {
        const step = { shot: { call: { ball: i + 2 }, pocketed: [i + 2] } };
        const r = await page.evaluate(
          async ({ id, token, step, eventId, expect }) => {
            const el = document.querySelector('[data-f="score-B"]')!;
            let paintedAt = 0;
            const seen = new Promise<void>((resolve) => {
              const mo = new MutationObserver(() => {
                if (el.textContent !== expect) return;
                mo.disconnect();
                requestAnimationFrame(() => {
                  paintedAt = performance.now();
                  resolve();
                });
              });
              mo.observe(el, { childList: true, characterData: true, subtree: true });
            });
            const res = await fetch(`/api/matches/${id}/events`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
              body: JSON.stringify({ eventId, step }),
            });
            const ackAt = performance.now();
            if (res.status !== 201) return { error: `${res.status} ${await res.text()}` };
            await Promise.race([seen, new Promise((r) => setTimeout(r, 3000))]);
            return { delay: paintedAt ? paintedAt - ackAt : null };
          },
          { id: m.id, token: m.scorerToken, step, eventId: `lat-${i}-${m.id}`, expect: String(i) },
        );
        expect(r).not.toHaveProperty('error');
        expect(r.delay).not.toBeNull();
        delays.push(r.delay!);
      }
      console.log(`[overlay] push painted after the record ack: ${delays.map((d) => d.toFixed(1)).join(', ')} ms`);
      // The median of the shots (a single scheduling hiccup on a busy CI machine is noise), and never a second.
      const median = [...delays].sort((a, b) => a - b)[Math.floor(delays.length / 2)]!;
      expect(median).toBeLessThanOrEqual(200);
      for (const d of delays) expect(d).toBeLessThanOrEqual(1000);
    } finally {
      await page.close();
    }
  });

  it('shows a player named <img src=x onerror=alert(1)> as text', async () => {
    const evil = '<img src=x onerror=alert(1)>';
    const m = await createMatch(server.url, { ...SETUP, players: [evil, 'Bob'] });
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    try {
      for (const layout of ['bar', 'corner']) {
        await page.goto(`${server.url}/overlay/${m.id}?layout=${layout}`);
        await waitForText(page, 'name-A', evil);
        expect(await page.locator('img').count()).toBe(0);
        expect(await page.evaluate(() => document.querySelector('[data-f="name-A"]')!.children.length)).toBe(0);
      }
      await page.screenshot({ omitBackground: true, path: join(screenshotDir(), 'overlay-xss-name.png') });
      expect(dialogs).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('applies layout, theme, colours, lang, side, hide, safe and debug parameters', async () => {
    const m = await createMatch(server.url, { discipline: 'rotation', players: ['Ann', 'Bob'], targets: [120, 90] });
    await record(server.url, m, { shot: { pocketed: [1, 9] } });
    await record(server.url, m, { shot: { pocketed: [2] } });
    const want = engineState({ discipline: 'rotation', players: ['Ann', 'Bob'], targets: [120, 90] }, [
      { shot: { pocketed: [1, 9] } },
      { shot: { pocketed: [2] } },
    ]);
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    try {
      await page.goto(`${server.url}/overlay/${m.id}?layout=corner&corner=tr&theme=light&accent=ff8800&lang=ja&side=B&hide=highrun&safe=1&debug=1`);
      await waitForText(page, 'score-A', String(want.score[0]));
      // side=B: Bob is the first panel; Rotation shows lowest ball, balls left and points left.
      const order = await page.$$eval('.panel', (els) => els.map((e) => (e as HTMLElement).dataset.player));
      expect(order).toEqual(['B', 'A']);
      expect(await field(page, 'lowest')).toBe(String(want.lowestBall));
      expect(await field(page, 'points-left')).toBe(String(want.pointsLeft));
      expect(await field(page, 'balls')).toBe(String(want.ballsOnTable));
      expect(await field(page, 'target-B')).toBe('/90'); // handicap: own targets
      expect(await field(page, 'highrun-A')).toBeNull(); // hide=highrun
      expect(await page.locator('.guide').count()).toBe(2); // safe=1
      expect(await field(page, 'debug')).toMatch(/^ライブ · v2$/); // debug=1, in Japanese
      expect(await page.locator('.stage.theme-light').count()).toBe(1);
      expect(await page.evaluate(() => getComputedStyle(document.querySelector('.centre')!).backgroundColor)).toBe('rgb(255, 136, 0)');
      const box = await page.locator('.gfx').boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(1824 + 1); // top-right corner inside the safe area
      expect(box!.y).toBeGreaterThanOrEqual(54 - 1);
      await page.screenshot({ omitBackground: true, path: join(screenshotDir(), 'overlay-corner-ja-light-safe.png') });

      await page.goto(`${server.url}/overlay/${m.id}?lang=zh-TW&anim=0`);
      await waitForText(page, 'score-A', String(want.score[0]));
      expect(await page.locator('.stage.noanim').count()).toBe(1);
      expect(await page.locator('.item b').first().textContent()).toBe('連續得分');
      await page.screenshot({ omitBackground: true, path: join(screenshotDir(), 'overlay-bar-rotation-zh-TW.png') });
    } finally {
      await page.close();
    }
  });
  it('a pending choice: the caption says the foul, the situation line the choice (once each), in the same words on all three pages', async () => {
    const m = await createMatch(server.url, SETUP);
    await record(server.url, m, { shot: { call: 'safety', breakRails: { objectBalls: 1, cueBall: true } } }); // breaking foul
    const caption = 'Ann \u2014 breaking foul \u22122';
    const choice = 'Bob to choose: accept the table or re-break';
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    try {
      await page.goto(`${server.url}/overlay/${m.id}?lang=en`);
      await waitForText(page, 'caption', caption);
      expect(await field(page, 'situation')).toBe(choice);
      // Without the situation line the caption carries the pending choice itself.
      await page.goto(`${server.url}/overlay/${m.id}?lang=en&hide=situation`);
      await waitForText(page, 'caption', `${caption} \u00b7 ${choice}`);
      expect(await field(page, 'situation')).toBeNull();
      for (const path of ['dashboard', 'watch']) {
        await page.goto(`${server.url}/${path}/${m.id}?lang=en`);
        await waitForText(page, 'caption', caption);
        expect(await field(page, 'situation')).toBe(choice);
      }
    } finally {
      await page.close();
    }
  });

  it('resyncs (subscribe with sinceVersion) when the page becomes visible again', async () => {
    const m = await createMatch(server.url, SETUP);
    await record(server.url, m, STEPS[0]!);
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    const subscribes: string[] = [];
    page.on('websocket', (ws) => ws.on('framesent', (f) => {
      if (typeof f.payload === 'string' && f.payload.includes('"subscribe"')) subscribes.push(f.payload);
    }));
    try {
      await page.goto(`${server.url}/overlay/${m.id}`);
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
});

describe.skipIf(!hasChromium)('OBS overlay across a server restart', () => {
  let browser: Browser;
  let child: ChildServer | null = null;
  let dataDir: string;

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'cuecast-restart-'));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await child?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the last state while the server is down, then shows the current state again without a reload', async () => {
    child = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    const url = child.url;
    const port = new URL(url).port;
    const m = await createMatch(url, SETUP);
    for (const s of STEPS.slice(0, 3)) await record(url, m, s);
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
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
      await page.screenshot({ omitBackground: true, path: join(screenshotDir(), 'overlay-server-down.png') });

      child = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info', PORT: port });
      await record(child.url, m, STEPS[3]!); // Bob misses: turn to Ann, run 0
      await record(child.url, m, STEPS[4]!); // Ann scratches: −1
      await waitForText(page, 'score-A', '\u22121', 20_000);
      expect(await page.getAttribute('[data-f="turn-B"]', 'data-on')).toBe('1');
      expect(await field(page, 'debug')).toMatch(/^live · v5$/);
      expect(await page.evaluate(() => (window as unknown as { bootMarker?: number }).bootMarker)).toBe(42); // no reload
    } finally {
      await page.close();
    }
  }, 60_000);
});
