/**
 * The commentator dashboard on one 1920×1080 screen (issue 29 item 6), in real Chromium against a real server
 * (embedded SQLite): a 14-1 match of 27 innings with a shot clock and long names. The page does not scroll
 * (neither way), every text it shows is at least 18 px (HTML by its computed size; the run chart's SVG labels
 * by their size times the chart's scale), the score sheet scrolls inside its card with the newest inning in
 * view, and the third column keeps room (≥ 200 px) for two compact panels. The match clock reads as time
 * played ("0 min"), never "0:00". At 1280×900 the cards stack as before (the page may scroll there).
 * Screenshot: artifacts/screenshots/dashboard-1920x1080.png (kept in docs/screenshots/).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { applyStep, newMatch, type Match } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import type { Step } from '../../shared/protocol/steps';
import { chromiumAvailable, launchChromium, screenshotDir } from '../helpers/browser';
import { ensureBuilt } from '../helpers/global-setup';
import { api, createMatch, startTestServer } from '../helpers/server';
import { t } from '../../web/src/lib/i18n-pages';

const hasChromium = chromiumAvailable();
const CHECK = t('en', 'check');
/** Sheet rows (innings) of `longMatch()`. */
const ROWS = 27;
const SETUP = {
  discipline: '14-1',
  ruleset: 'nba',
  players: ['Maximiliano Alejandro de la Cruz Herrera', 'Anastasia Konstantinovna Vasilyeva-Rossi'],
  targets: [100, 100],
};

/** A's safety break, B misses, then 12 times: A pockets one ball and misses, B misses; then 14 innings each of misses (27 rows, rack 1). */
function longMatch(): Step[] {
  const steps: Step[] = [{ shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } }, { shot: { call: { made: false } } }];
  for (let b = 1; b <= 12; b++)
    steps.push({ shot: { call: { ball: b }, pocketed: [b] } }, { shot: { call: { made: false } } }, { shot: { call: { made: false } } });
  for (let i = 0; i < 28; i++) steps.push({ shot: { call: { made: false } } });
  let m: Match = newMatch(parseSetup(SETUP));
  for (const [i, s] of steps.entries()) {
    const r = applyStep(m, s);
    if (!r.ok) throw new Error(`step ${i}: ${r.error.message}`);
    m = r.match;
  }
  return steps;
}

/** Every piece of text the page shows with its rendered size in px (SVG text: font size × the chart's scale). */
function textSizes(page: Page) {
  return page.evaluate(() => {
    const out: { text: string; px: number; tag: string }[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = (n.textContent ?? '').trim();
      const el = n.parentNode instanceof Element ? n.parentNode : null;
      if (!text || !el) continue;
      const cs = getComputedStyle(el);
      if (cs.display === 'none' || cs.visibility === 'hidden' || el.closest('title, option, script, style')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      let px = parseFloat(cs.fontSize);
      if (el instanceof SVGGraphicsElement) px *= el.getScreenCTM()?.a ?? 1;
      out.push({ text: text.slice(0, 40), px: Math.round(px * 10) / 10, tag: el.tagName });
    }
    return out;
  });
}

describe.skipIf(!hasChromium)('the dashboard fits 1920×1080', () => {
  let browser: Browser;
  let server: RunningServer;
  let dataDir: string;
  let matchId: string;

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'cuecast-dash-fit-'));
    server = await startTestServer({ dataDir });
    browser = await launchChromium();
    const m = await createMatch(server.url, SETUP);
    matchId = m.id;
    const clock = await api(server.url, `/api/matches/${m.id}/clock`, { method: 'PUT', token: m.scorerToken, body: { preset: 'pro' } });
    expect(clock.status, JSON.stringify(clock.body)).toBe(200);
    for (const [i, step] of longMatch().entries()) {
      const res = await api(server.url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: `fit-${i}`, step } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('no scroll at 1920×1080, text ≥ 18 px, the sheet scrolls inside its card to the newest inning, room for two panels', { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    try {
      await page.goto(`${server.url}/dashboard/${matchId}?lang=en`);
      await page.waitForFunction((n) => document.querySelectorAll('table[data-f="sheet"] tbody tr').length === n, ROWS);
      await page.locator('[data-f="match-clock"]').waitFor();
      await page.locator('[data-f="run-chart"] [data-f="inning-label"]').first().waitFor();
      await page.screenshot({ path: join(screenshotDir(), 'dashboard-1920x1080.png') });

      const fit = await page.evaluate(() => ({
        h: document.documentElement.scrollHeight,
        w: document.documentElement.scrollWidth,
        bodyH: document.body.scrollHeight,
      }));
      expect(fit.h).toBeLessThanOrEqual(1080);
      expect(fit.bodyH).toBeLessThanOrEqual(1080);
      expect(fit.w).toBeLessThanOrEqual(1920);

      const sizes = await textSizes(page);
      expect(sizes.length).toBeGreaterThan(50);
      const small = sizes.filter((s) => s.px < 18);
      expect(small, JSON.stringify(small.slice(0, 10))).toEqual([]);

      // The sheet: taller than its card, scrolled so the newest inning is in view.
      const sheet = await page.evaluate(() => {
        const wrap = document.querySelector('.sheet-wrap')!;
        const last = document.querySelector('table[data-f="sheet"] tbody tr:last-child')!.getBoundingClientRect();
        const box = wrap.getBoundingClientRect();
        return { scrolls: wrap.scrollHeight > wrap.clientHeight, lastInView: last.bottom <= box.bottom + 1 && last.top >= box.top };
      });
      expect(sheet).toEqual({ scrolls: true, lastInView: true });

      // The two compact panels (talking points, what it takes) and the stream start are in the third column, which
      // scrolls inside itself to them (the page does not scroll: checked above).
      const panels = await page.evaluate(() => {
        const colEl = document.querySelector<HTMLElement>('.col-c')!;
        return ['talking-points', 'odds', 'stream-start'].map((f) => {
          const el = document.querySelector<HTMLElement>(`.col-c [data-f="${f}"]`);
          el?.scrollIntoView({ block: 'nearest' });
          const col = colEl.getBoundingClientRect();
          const r = el?.getBoundingClientRect();
          return { f, inside: !!r && r.height > 0 && r.top >= col.top - 1 && r.bottom <= col.bottom + 1 };
        });
      });
      expect(panels).toEqual(['talking-points', 'odds', 'stream-start'].map((f) => ({ f, inside: true })));

      expect(await page.locator('[data-f="match-clock"]').textContent()).toBe('Match time 0 min');
    } finally {
      await page.close();
    }
  });

  it('at 1280×900 the cards stack as before', { timeout: 30_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(`${server.url}/dashboard/${matchId}?lang=en`);
      await page.waitForFunction((n) => document.querySelectorAll('table[data-f="sheet"] tbody tr').length === n, ROWS);
      const root = await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
      expect(root).toBe(16);
      // Two columns: the sheet, and the cards beside it in one column with the check first.
      const order = await page.locator('.side section h2').evaluateAll((hs) =>
        hs
          .map((h) => ({ text: h.textContent, top: h.getBoundingClientRect().top }))
          .sort((a, b) => a.top - b.top)
          .map((h) => h.text),
      );
      expect(order[0]).toBe(CHECK);
    } finally {
      await page.close();
    }
  });
});
