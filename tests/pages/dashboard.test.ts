/**
 * The commentator dashboard in real Chromium against a real server: the score sheet shown matches the
 * engine's sheet row for row (14-1 and Rotation), statistics, what-if lines, run chart, rack table, recent
 * steps (in English, Japanese and Chinese through the language switch) and the consistency check follow the
 * engine, and a new shot appears live. The run chart numbers the innings, signs its axis (+peak / −peak) and
 * has a legend for the foul marks; the Rotation rack table labels its points and balls columns; an unknown
 * match id says "Match not found" without a "live" chip; `/favicon.ico` is served. Screenshots kept.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { applyStep, newMatch, statsOf, view, type Match } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import type { SheetRow } from '../../shared/protocol/state';
import type { Step } from '../../shared/protocol/steps';
import { caption, stepLine } from '../../web/src/lib/format';
import { checkLine } from '../../web/src/lib/format-whatif';
import { chromiumAvailable, launchChromium, screenshotDir } from '../helpers/browser';
import { api, createMatch, startTestServer } from '../helpers/server';
import { ensureBuilt } from '../helpers/global-setup';

const hasChromium = chromiumAvailable();

const NAMES: [string, string] = ['Ann', 'Bob'];
const STRAIGHT = { discipline: '14-1', ruleset: 'nba', players: NAMES, targets: [100, 100] };
const STRAIGHT_STEPS: Step[] = [
  { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } },
  { shot: { call: { ball: 3 }, pocketed: [3] } },
  { shot: { call: { ball: 5 }, pocketed: [5] } },
  { shot: { call: { ball: 7 } } },
  { shot: { call: { ball: 1 }, cueBall: 'scratch' } },
  { shot: { call: 'safety' } },
  { shot: { call: { ball: 2 }, rail: false } },
  { shot: { call: { ball: 9 }, pocketed: [9] } },
];
const ROTATION = { discipline: 'rotation', players: ['Ann', 'Bob'], targets: [120, 120] };
const ROTATION_STEPS: Step[] = [
  { shot: { pocketed: [1, 9] } },
  { shot: { pocketed: [2] } },
  { shot: { firstContact: 4 } },
  { choice: { cueBall: 'as-is', lowestBall: 'as-is' } },
  { shot: { pocketed: [3, 15] } },
  { shot: { firstContact: 4 } },
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

async function recordAll(url: string, m: { id: string; scorerToken: string }, steps: Step[]): Promise<void> {
  for (const [i, step] of steps.entries()) {
    const res = await api(url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: `${m.id}-${i}`, step } });
    if (res.status !== 201) throw new Error(`record ${i}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/** The sheet as the page shows it, one entry per player-inning, in the engine's field terms. */
async function shownSheet(page: Page, rotation: boolean): Promise<Omit<SheetRow, 'open'>[]> {
  const rows = await page.$$eval(
    'table[data-f="sheet"] tbody tr',
    (trs, rotation) =>
      trs.flatMap((tr) => {
        const inning = Number((tr as HTMLElement).dataset.inning);
        return (['A', 'B'] as const).flatMap((p) => {
          const cell = (f: string) => tr.querySelector(`[data-f="${p}-${f}"]`)?.textContent ?? null;
          if (cell('total') === null) return [];
          const markText = cell('mark')!.trim();
          const m = /^(?:[−-](\d+))?\s*([A-Z]*)$/.exec(markText)!;
          const row: Record<string, unknown> = {
            player: p,
            inning,
            rack: Number(cell('rack')),
            points: Number(cell('points')),
            penalty: m[1] ? Number(m[1]) : 0,
            mark: m[2] ?? '',
            total: Number(cell('total')!.replace('−', '-')),
          };
          if (rotation) row.balls = cell('balls')!.split(' ').filter(Boolean).map(Number);
          return [row];
        });
      }),
    rotation,
  );
  return rows as Omit<SheetRow, 'open'>[];
}

/** Engine sheet rows ordered like the page (inning, then A before B), without the `open` flag. */
function engineSheet(m: Match): Omit<SheetRow, 'open'>[] {
  return [...statsOf(m).sheet].sort((a, b) => a.inning - b.inning || a.player.localeCompare(b.player)).map(({ open: _open, ...r }) => r);
}

describe.skipIf(!hasChromium)('commentator dashboard in Chromium', () => {
  let browser: Browser;
  let server: RunningServer;
  let dataDir: string;
  let page: Page;

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'cuecast-dash-'));
    server = await startTestServer({ dataDir });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('14-1: sheet, stats, what-if and check match the engine, and a new shot appears live', async () => {
    const m = await createMatch(server.url, STRAIGHT);
    const steps = STRAIGHT_STEPS.slice(0, 7);
    await recordAll(server.url, m, steps);
    let want = engine(STRAIGHT, steps);
    await page.goto(`${server.url}/dashboard/${m.id}?lang=en`);
    await page.waitForSelector('table[data-f="sheet"] tbody tr');
    await page.waitForFunction((v) => document.querySelector('main[data-version]')?.getAttribute('data-version') === String(v), 7);

    expect(await shownSheet(page, false)).toEqual(engineSheet(want));
    const stats = statsOf(want);
    for (const [i, p] of (['A', 'B'] as const).entries()) {
      expect(await page.textContent(`[data-f="${p}-innings"]`)).toBe(String(stats.players[i]!.innings));
      expect(await page.textContent(`[data-f="${p}-high-run"]`)).toBe(String(stats.players[i]!.highRun));
      expect(await page.textContent(`[data-f="${p}-safeties"]`)).toBe(String(stats.players[i]!.safeties));
      expect(await page.textContent(`[data-f="${p}-fouls"]`)).toBe(String(stats.players[i]!.fouls));
      expect(await page.textContent(`[data-f="${p}-average"]`)).toBe(stats.players[i]!.average.toFixed(2).replace('-', '\u2212'));
    }
    expect(await page.textContent('[data-f="caption"]')).toBe('Ann \u2014 no rail \u22121, on two fouls'); // as the overlay shows it
    // Ann is on two fouls: the next foul costs 1 + 15.
    expect(await page.textContent('[data-f="what-if"]')).toContain('Ann is on two fouls: another foul costs \u221216');
    expect(await page.getAttribute('[data-f="check"]', 'data-ok')).toBe(stats.check.ok ? '1' : '0');
    expect(stats.check.ok).toBe(true);
    expect(await page.textContent('[data-f="check-detail"]')).toBe(
      'score change 0 = 2 balls \u2212 2 foul points; this rack 2 scored = 15 \u2212 13 on the table',
    );
    const recent = () => page.$$eval('[data-f="recent"] li', (li) => li.map((l) => l.textContent));
    expect(await recent()).toEqual(stats.recent.map((o) => stepLine(o, NAMES, 'en')));
    expect(await recent()).toContain('Ann \u2014 scratch \u22121 \u00b7 Bob: ball in hand behind the head string');
    expect(await page.locator('[data-f="run-chart"] rect[data-player]').count()).toBe(stats.sheet.length);
    // The run chart: innings numbered, the axis from 0 to the highest run, a legend for the players and the foul marks.
    const innings = Math.max(...stats.sheet.map((r) => r.inning));
    const peak = Math.max(5, ...stats.sheet.map((r) => r.points));
    expect(await page.locator('[data-f="inning-label"]').allTextContents()).toEqual(Array.from({ length: innings }, (_, i) => String(i + 1)));
    expect(await page.textContent('[data-f="axis-innings"]')).toBe('Inning');
    expect([await page.textContent('[data-f="axis-top"]'), await page.textContent('[data-f="axis-zero"]')]).toEqual([String(peak), '0']);
    expect(await page.locator('[data-f="run-chart"] text').allTextContents()).not.toContainEqual(expect.stringMatching(/^[\u2212-]/));
    // Both players' runs go upward from the axis (bars end on it), each in its own colour; fouls sit apart under it.
    const geometry = await page.$$eval('[data-f="run-chart"] rect[data-player], [data-f="run-chart"] [data-f="foul-mark"]', (els) =>
      els.map((el) => ({
        player: el.getAttribute('data-player'),
        foul: el.getAttribute('data-fouler'),
        penalty: el.getAttribute('data-penalty'),
        y: Number(el.getAttribute('y')),
        bottom: Number(el.getAttribute('y')) + Number(el.getAttribute('height')),
        fill: getComputedStyle(el).fill,
      })),
    );
    const runBars = geometry.filter((g) => g.player);
    const axis = Math.max(...runBars.map((g) => g.bottom));
    for (const g of runBars) expect(g.bottom, `${g.player}'s bar ends on the axis`).toBe(axis);
    expect(new Set(runBars.filter((g) => g.player === 'A').map((g) => g.fill)).size).toBe(1);
    expect(runBars.find((g) => g.player === 'A')!.fill).not.toBe(runBars.find((g) => g.player === 'B')!.fill);
    const marks = geometry.filter((g) => g.foul);
    expect(marks.map((g) => [g.foul, Number(g.penalty)]).sort()).toEqual(
      stats.sheet
        .filter((r) => r.penalty > 0)
        .map((r) => [r.player, r.penalty])
        .sort(),
    );
    for (const g of marks) expect(g.y, 'a foul mark lies under the axis').toBeGreaterThan(axis);
    const penalties = stats.sheet.filter((r) => r.penalty > 0).length;
    expect(penalties).toBeGreaterThan(0);
    expect(await page.locator('[data-f="run-chart"] [data-f="foul-mark"]').count()).toBe(penalties);
    expect(await page.$$eval('[data-f="chart-legend"] li', (li) => li.map((l) => l.textContent!.trim()))).toEqual(['Ann', 'Bob', 'Foul: points lost']);
    // No internal version number in the header.
    expect(await page.textContent('.dash > header')).not.toMatch(/\bv\d+/);
    // The foul swatch is drawn like the foul marks: hatched, edged in the foul colour (unlike either player's bars).
    const mark = await page.$eval('[data-f="foul-mark"]', (el) => ({ fill: getComputedStyle(el).fill, stroke: getComputedStyle(el).stroke }));
    const bars = await page.$$eval('[data-f="run-chart"] rect[data-player]', (els) => [...new Set(els.map((el) => getComputedStyle(el).fill))]);
    const swatch = await page.$eval('[data-f="legend-fouls"] i', (el) => ({
      edge: getComputedStyle(el).borderTopColor,
      image: getComputedStyle(el).backgroundImage,
    }));
    expect(mark.fill).toContain('url(');
    expect(bars.some((b) => b.includes('url('))).toBe(false);
    expect(swatch.image).toContain('repeating-linear-gradient');
    expect(swatch.edge).toBe(mark.stroke);
    await page.screenshot({ path: join(screenshotDir(), 'dashboard-14-1.png'), fullPage: true });
    await page
      .locator('[data-f="run-chart"]')
      .locator('..')
      .screenshot({ path: join(screenshotDir(), 'dashboard-run-chart.png') });
    // The language switch: the recent steps, caption and headings follow, the run and points included.
    for (const lang of ['ja', 'zh-TW'] as const) {
      await page.selectOption('[data-f="lang"]', lang);
      await page.waitForFunction((c) => document.querySelector('[data-f="caption"]')?.textContent === c, caption(view(want), lang));
      expect(await recent()).toEqual(stats.recent.map((o) => stepLine(o, NAMES, lang)));
      expect(await page.textContent('[data-f="check-detail"]')).toBe(checkLine(stats.check, lang));
      expect((await recent()).join('\n')).toMatch(lang === 'ja' ? /Bob \+1、ラン2/ : /Bob \+1，連續得分 2/);
      await page.locator('[data-f="recent"]').screenshot({ path: join(screenshotDir(), `dashboard-recent-${lang}.png`) });
    }
    expect(new URL(page.url()).searchParams.get('lang')).toBe('zh-TW'); // remembered in the address
    await page.selectOption('[data-f="lang"]', 'en');

    // Live: Bob pockets the 9; the sheet and score follow without a reload.
    const res = await api(server.url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: `${m.id}-live`, step: STRAIGHT_STEPS[7] } });
    expect(res.status).toBe(201);
    want = engine(STRAIGHT, STRAIGHT_STEPS);
    await page.waitForFunction((t) => document.querySelector('[data-f="score-B"]')?.textContent === t, String(view(want).score[1]));
    expect(await shownSheet(page, false)).toEqual(engineSheet(want));
  });

  it('Rotation: sheet with balls, rack totals, points left and the 120-per-rack check match the engine', async () => {
    const m = await createMatch(server.url, ROTATION);
    await recordAll(server.url, m, ROTATION_STEPS);
    const want = engine(ROTATION, ROTATION_STEPS);
    const state = view(want);
    const stats = statsOf(want);
    await page.goto(`${server.url}/dashboard/${m.id}?lang=en`);
    await page.waitForFunction((v) => document.querySelector('main[data-version]')?.getAttribute('data-version') === String(v), ROTATION_STEPS.length);
    expect(await shownSheet(page, true)).toEqual(engineSheet(want));
    expect(await page.textContent('[data-f="points-left"]')).toBe(String(state.pointsLeft));
    expect(await page.textContent('[data-f="lowest"]')).toBe(String(state.lowestBall));
    expect(await page.textContent('[data-f="what-if"]')).toContain(`${state.pointsLeft} points left on the table`);
    // Balls per rack: a points column and a balls column per player, each labelled.
    const rackHead = await page.$$eval('[data-f="racks"] thead tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent!.trim())));
    expect(rackHead).toEqual([
      ['Rack', 'Ann', 'Bob'],
      ['Points', 'Balls', 'Points', 'Balls'],
    ]);
    const rackRow = await page.$$eval('[data-f="racks"] tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent!.trim())));
    expect(rackRow).toEqual(stats.racks.map((r) => [String(r.rack), String(r.points[0]), r.balls[0].join(' '), String(r.points[1]), r.balls[1].join(' ')]));
    expect(stats.racks[0]!.balls[0].length).toBeGreaterThan(0);
    await page.locator('[data-f="racks"]').screenshot({ path: join(screenshotDir(), 'dashboard-rotation-racks.png') });
    expect(await page.getAttribute('[data-f="check"]', 'data-ok')).toBe('1');
    expect(await page.textContent('[data-f="check-detail"]')).toBe(checkLine(stats.check, 'en'));
    await page.screenshot({ path: join(screenshotDir(), 'dashboard-rotation.png'), fullPage: true });
  });

  it('an unknown or malformed match id: "Match not found", no "live" chip, no endless waiting', async () => {
    for (const [id, shot] of [
      ['noSuchMatch1', 'dashboard-not-found.png'],
      ['x'.repeat(80), null],
    ] as const) {
      const p = await browser.newPage({ viewport: { width: 800, height: 600 } });
      await p.goto(`${server.url}/dashboard/${id}?lang=en`);
      await p.waitForSelector('[data-f="not-found"]', { timeout: 10_000 });
      expect(await p.textContent('[data-f="not-found"]')).toBe(`Match not found — ${id}`);
      expect(await p.locator('[data-f="status"]').count()).toBe(0);
      expect(await p.getByText('Waiting for the match').count()).toBe(0);
      if (shot) await p.screenshot({ path: join(screenshotDir(), shot) });
      await p.close();
    }
  });

  it('in a 320 px OBS dock, in every language and with long names, no label breaks inside a word and nothing spills sideways', async () => {
    const long = {
      discipline: 'rotation',
      players: ['Anneliese Maximiliane von Hohenberg-Schwarzenfeld', 'Wolfgang Amadeus Theophilus Mozart-Salzburger'],
      targets: [120, 120],
    };
    const m = await createMatch(server.url, long);
    await recordAll(server.url, m, ROTATION_STEPS);
    const p = await browser.newPage({ viewport: { width: 320, height: 700 } });
    try {
      for (const lang of ['en', 'ja', 'zh-TW']) {
        await p.goto(`${server.url}/dashboard/${m.id}?lang=${lang}`);
        await p.waitForSelector('table[data-f="stats"]');
        // Lines a label takes (its text's line boxes) against its words: a break is only allowed between words.
        const broken = await p.evaluate(() => {
          const labels = [...document.querySelectorAll<HTMLElement>('.dash th:not(.pa):not(.pb), .dash header > span:not(.grow)')];
          return labels.flatMap((el) => {
            const text = el.textContent!.trim();
            if (!text) return [];
            const range = document.createRange();
            range.selectNodeContents(el);
            const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
            const words = text.split(/\s+/).length;
            return tops.size > words ? [`${text} (${tops.size} lines)`] : [];
          });
        });
        expect(broken, lang).toEqual([]);
        expect(await p.evaluate(() => document.documentElement.scrollWidth), lang).toBeLessThanOrEqual(320);
        await p.screenshot({ path: join(screenshotDir(), `dashboard-dock-320-${lang}.png`), fullPage: true });
      }
    } finally {
      await p.close();
    }
  });

  it('serves /favicon.ico (and the SVG icon the pages link to)', async () => {
    const ico = await fetch(`${server.url}/favicon.ico`);
    expect(ico.status).toBe(200);
    expect(ico.headers.get('content-type')).toMatch(/^image\//);
    const bytes = Buffer.from(await ico.arrayBuffer());
    expect([...bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0]); // an ICO header
    const svg = await fetch(`${server.url}/favicon.svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    await page.goto(`${server.url}/dashboard/anything`);
    expect(await page.$$eval('link[rel=icon]', (ls) => ls.map((l) => l.getAttribute('href')))).toEqual(['/favicon.ico', '/favicon.svg']);
  });
});
