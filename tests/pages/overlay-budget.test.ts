/**
 * The overlay's budgets, measured in real Chromium against a real server and printed for the note:
 * - JavaScript the page loads ≤ 25 KB gzip (every /assets/*.js response, gzip -9);
 * - nothing runs while nothing changes: no timer or animation-frame callback fires and no animation runs
 *   in an idle window (boot settled, and again after a recorded shot's animations finished);
 * - the first state is painted ≤ 150 ms after the socket connects (`cuecast:connect` →
 *   `cuecast:first-state-painted` performance marks set by the client and the overlay).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { chromiumAvailable, launchChromium } from '../helpers/browser';
import { api, createMatch, startTestServer } from '../helpers/server';
import { ensureBuilt } from './global-setup';

const hasChromium = chromiumAvailable();
const SETUP = { discipline: '14-1', ruleset: 'nba', players: ['Ann', 'Bob'], targets: [100, 100] };
const BREAK = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };

/** Counts timer and frame callbacks (scheduled and fired) from page start; `reset()` zeroes them. */
const PROBE = `
(() => {
  const c = { scheduled: 0, fired: 0, frames: 0 };
  window.__idle = c;
  window.__idleReset = () => { c.scheduled = 0; c.fired = 0; c.frames = 0; };
  const wrap = (name) => {
    const orig = window[name].bind(window);
    window[name] = (fn, ...rest) => {
      c.scheduled++;
      return orig(typeof fn === 'function' ? (...a) => { c.fired++; return fn(...a); } : fn, ...rest);
    };
  };
  wrap('setTimeout');
  wrap('setInterval');
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (fn) => { c.scheduled++; return raf((t) => { c.frames++; fn(t); }); };
})();`;

type Idle = { scheduled: number; fired: number; frames: number; running: number; pings: number };

/**
 * Observe `ms` of idle time. `pings` counts Engine.IO heartbeat pings the server sent meanwhile (every 25 s):
 * each one re-arms the client's connection watchdog (one setTimeout scheduled, never fired while connected),
 * the only timer activity an idle overlay may show.
 */
async function idleWindow(page: Page, pings: { n: number }, ms: number): Promise<Idle> {
  await page.evaluate(() => (window as unknown as { __idleReset(): void }).__idleReset());
  const before = pings.n;
  await page.waitForTimeout(ms);
  const c = await page.evaluate(() => {
    const c = (window as unknown as { __idle: { scheduled: number; fired: number; frames: number } }).__idle;
    const running = document.getAnimations().filter((a) => a.playState === 'running').length;
    return { ...c, running };
  });
  return { ...c, pings: pings.n - before };
}

function expectIdle(i: Idle): void {
  expect(i.fired).toBe(0);
  expect(i.frames).toBe(0);
  expect(i.running).toBe(0);
  expect(i.scheduled).toBeLessThanOrEqual(i.pings);
}

const describeIdle = (i: Idle) =>
  `${i.fired} timer callbacks fired, ${i.frames} animation frames, ${i.running} running animations, ${i.scheduled} timers scheduled (${i.pings} heartbeat pings received)`;

describe.skipIf(!hasChromium)('overlay budgets', () => {
  let browser: Browser;
  let server: RunningServer;
  let dataDir: string;
  let match: { id: string; scorerToken: string };

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'cuecast-budget-'));
    server = await startTestServer({ dataDir });
    browser = await launchChromium();
    match = await createMatch(server.url, SETUP);
    const r = await api(server.url, `/api/matches/${match.id}/events`, { token: match.scorerToken, body: { eventId: 'b-1', step: BREAK } });
    expect(r.status).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loads at most 25 KB gzip of JavaScript', async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    const js: Promise<{ url: string; raw: number; gz: number }>[] = [];
    page.on('response', (res) => {
      if (/\.m?js(\?|$)/.test(res.url())) {
        js.push(res.body().then((b) => ({ url: new URL(res.url()).pathname, raw: b.length, gz: gzipSync(b, { level: 9 }).length })));
      }
    });
    try {
      await page.goto(`${server.url}/overlay/${match.id}`);
      await page.waitForSelector('[data-f="score-A"]');
      const files = await Promise.all(js);
      const total = files.reduce((s, f) => s + f.gz, 0);
      console.log(`[overlay budget] JS: ${files.map((f) => `${f.url} ${f.raw} B raw / ${f.gz} B gzip`).join('; ')}; total ${total} B gzip (${(total / 1024).toFixed(1)} KB) of 25 KB`);
      expect(files.length).toBeGreaterThan(0);
      expect(total).toBeLessThanOrEqual(25 * 1024);
    } finally {
      await page.close();
    }
  });

  it('runs no timers, frames or animations while idle, also after an update animated', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.addInitScript(PROBE);
    const pings = { n: 0 };
    page.on('websocket', (ws) => ws.on('framereceived', (f) => {
      if (f.payload === '2') pings.n++;
    }));
    try {
      await page.goto(`${server.url}/overlay/${match.id}`);
      await page.waitForFunction(() => performance.getEntriesByName('cuecast:first-state-painted').length > 0);
      await page.waitForTimeout(500);
      const boot = await idleWindow(page, pings, 3000);
      const r = await api(server.url, `/api/matches/${match.id}/events`, {
        token: match.scorerToken,
        body: { eventId: 'b-2', step: { shot: { call: { ball: 3 }, pocketed: [3] } } },
      });
      expect(r.status).toBe(201);
      await page.waitForFunction(() => document.querySelector('[data-f="score-B"]')?.textContent === '1');
      const during = await page.evaluate(() => document.getAnimations().length);
      await page.waitForTimeout(1000); // the change animations last ≤ 320 ms
      const after = await idleWindow(page, pings, 3000);
      console.log(`[overlay budget] idle 3 s after boot: ${describeIdle(boot)}; a score change started ${during} animation(s); idle 3 s after it: ${describeIdle(after)}`);
      expectIdle(boot);
      expect(during).toBeGreaterThan(0); // the score change did animate…
      expectIdle(after); // …and then everything stopped
    } finally {
      await page.close();
    }
  });

  it('paints the first state within 150 ms of the socket connecting', async () => {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
      try {
        await page.goto(`${server.url}/overlay/${match.id}`);
        await page.waitForFunction(() => performance.getEntriesByName('cuecast:first-state-painted').length > 0);
        const ms = await page.evaluate(() => {
          const c = performance.getEntriesByName('cuecast:connect')[0]!.startTime;
          const p = performance.getEntriesByName('cuecast:first-state-painted')[0]!.startTime;
          return p - c;
        });
        times.push(ms);
      } finally {
        await page.close();
      }
    }
    console.log(`[overlay budget] first state painted after connect: ${times.map((t) => t.toFixed(1)).join(', ')} ms`);
    // The median of the loads: one load slowed by a busy 2-core CI machine is noise, a slow page is not.
    const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
    expect(median).toBeLessThanOrEqual(150);
  });
});
