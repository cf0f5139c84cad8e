/**
 * The public live draw page and the OBS draw graphics (issue 27) in real headless Chromium against one real server
 * (embedded SQLite store), a 16-player double elimination (true double) with results recorded over REST as the
 * organiser (or autopilot's results) would:
 * - `/draw/<eventId>` on a 390 px phone and at 1920×1080 follows each result without a reload (the same document:
 *   a marker set in the page survives): the match shows its winner and score, the winner appears in the next round
 *   and the loser on the losers' side; on the phone one part at a time (tabs), nothing wider than the screen; at
 *   1080p the winners' side, losers' side and finals side by side; the three languages; an address without an
 *   event, an unknown event and an event without a draw say so;
 * - a round robin shows the group tables;
 * - `/overlay/draw/<eventId>` (the bracket for breaks) renders inside the 90 % action-safe area with no text
 *   wrapped, follows a result; `/overlay/standings/<eventId>` is a lower third ≤ 1100 × 180 px in the safe area.
 * Pictures on request (tests/helpers/pictures.ts): `SHOTS=1` into docs/screenshots/draw/ (the page at 390 px and
 * 1080p, the bracket and the lower third composited over the pool-table picture at 1080p and 720p), `ARTIFACTS=1`
 * into artifacts/screenshots/draw/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { DrawView } from '../../shared/draw/view';
import { chromiumAvailable, launchChromium, settled } from '../helpers/browser';
import { onTable, saveComposite } from '../helpers/composite';
import { createEvent, EVENT, type CreatedEvent } from '../helpers/events';
import { ensureBuilt } from '../helpers/global-setup';
import { FOR_DOCS, PICTURES, pictureDir } from '../helpers/pictures';
import { api, startTestServer } from '../helpers/server';

const hasChromium = chromiumAvailable();
const FULL_HD = { width: 1920, height: 1080 };
const PHONE = { width: 390, height: 844 };
const NAMES = [
  ['Shane Van Boening', 'US'],
  ['Joshua Filler', 'DE'],
  ['Fedor Gorst', 'US'],
  ['Ko Pin-yi', 'TW'],
  ['Jayson Shaw', 'GB-SCT'],
  ['Albin Ouschan', 'AT'],
  ['Eklent Kaçi', 'AL'],
  ['Carlo Biado', 'PH'],
  ['Naoyuki Ōi', 'JP'],
  ['Wu Kun-lin', 'TW'],
  ['Francisco Sánchez Ruiz', 'ES'],
  ['David Alcaide', 'ES'],
  ['Jung Young-hwa', 'KR'],
  ['Aloysius Yapp', 'SG'],
  ['Mieszko Fortuński', 'PL'],
  ['Chang Jung-lin', 'TW'],
] as const;

describe.skipIf(!hasChromium)('the live draw page and the OBS draw graphics in Chromium', () => {
  let browser: Browser;
  let server: RunningServer;
  let dataDir: string;
  let ev: CreatedEvent;
  const errors: string[] = [];
  const draw = (path = '', body?: unknown) => api(server.url, `/api/events/${ev.id}/draw${path}`, { body, token: ev.organiserToken });
  const stored = async () => (await draw()).body.draw.draw as DrawView;
  /** The better seed (slot 0) wins match `id` 7–`loser`, except every third result. */
  let k = 0;
  const result = async (id: string, loser = 4) => {
    const m = (await stored()).matches.find((x) => x.id === id)!;
    const slot = k++ % 3 === 2 ? 1 : 0;
    const res = await draw('/results', {
      match: id,
      winner: m.players[slot],
      kind: 'win',
      score: slot === 0 ? [7, loser] : [loser, 7],
      highRun: [5, 3],
      innings: 12,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { winner: m.players[slot]!, loser: m.players[1 - slot]! };
  };

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'cuecast-draw-'));
    server = await startTestServer({ dataDir });
    browser = await launchChromium();
    ev = await createEvent(server.url, {
      ...EVENT,
      name: 'Cuecast Open 2026',
      defaults: { ...EVENT.defaults, targets: [7, 7] },
      tables: ['Table 1', 'Table 2', 'Table 3', 'TV table'],
      roster: NAMES.map(([name, country], i) => ({ name, country, rating: 800 - i * 7 })),
    });
    expect((await draw('', { format: 'double', trueDouble: true, races: { default: 7, sides: { L: 5 } } })).status).toBe(201);
    // Most of the winners' first round played, one match on a table.
    for (const id of ['W1-1', 'W1-2', 'W1-3', 'W1-4', 'W1-5', 'W1-6']) await result(id);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
    expect(errors).toEqual([]);
  });

  const open = async (path: string, viewport = FULL_HD): Promise<Page> => {
    const page = await browser.newPage({ viewport });
    page.on('pageerror', (e) => errors.push(`${path}: ${e.message}`));
    await page.goto(`${server.url}${path}`);
    return page;
  };
  const entries = (page: Page, sel: string) => page.evaluate((sel) => Number(document.querySelector(sel)?.getAttribute('data-entries') ?? -1), sel);

  it.each([
    ['phone', PHONE],
    ['1080p', FULL_HD],
  ] as const)('/draw/<eventId> on a %s follows each result without a reload', async (name, viewport) => {
    const page = await open(`/draw/${ev.id}?lang=en`, viewport);
    try {
      await page.locator('[data-testid="draw-page"] [data-match="W1-1"]').first().waitFor();
      await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
      const before = await entries(page, '[data-testid="draw-page"]');
      expect(before).toBe((await stored()).entries);
      expect(await page.locator('[data-f="event-name"]').textContent()).toBe('Cuecast Open 2026');

      const { winner, loser } = await result(name === 'phone' ? 'W1-7' : 'W1-8', 2);
      const v = await stored();
      await page.waitForFunction((n) => Number(document.querySelector('[data-testid="draw-page"]')!.getAttribute('data-entries')) === n, v.entries);
      expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
      const decided = v.matches.find((m) => m.result && (m.players as string[]).includes(winner) && (m.players as string[]).includes(loser))!;
      const card = page.locator(`[data-match="${decided.id}"]`);
      expect(await card.getAttribute('data-status')).toBe('done');
      const winnerName = NAMES[Number(winner.slice(1)) - 1]![0];
      const loserName = NAMES[Number(loser.slice(1)) - 1]![0];
      expect(await card.locator('.won [data-f="name"]').textContent()).toBe(winnerName);
      expect(await card.locator('.won [data-f="score"]').textContent()).toBe('7');
      // The winner is in the winners' second round, the loser on the losers' side.
      const next = v.matches.find((m) => m.round === 'W2' && (m.players as string[]).includes(winner))!;
      const drop = v.matches.find((m) => m.side === 'L' && (m.players as string[]).includes(loser))!;
      expect(await page.locator(`[data-match="${next.id}"] [data-f="name"]`).allTextContents()).toContain(winnerName);
      expect(await page.locator(`[data-match="${drop.id}"] [data-f="name"]`).allTextContents()).toContain(loserName);

      const layout = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        visible: [...document.querySelectorAll('[data-part]')]
          .filter((el) => (el as HTMLElement).offsetParent !== null)
          .map((el) => el.getAttribute('data-part')),
        tabs: [...document.querySelectorAll('[data-tab]')].filter((el) => (el as HTMLElement).offsetParent !== null).length,
        clipped: [...document.querySelectorAll('[data-f="name"]')].filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent),
      }));
      if (name === 'phone') {
        expect(layout.scrollWidth).toBeLessThanOrEqual(390);
        expect(layout.tabs).toBe(3);
        expect(layout.visible).toEqual(['W']);
        await page.locator('[data-tab="L"]').click();
        await page.locator('[data-part="L"]').waitFor({ state: 'visible' });
        expect(await page.locator('[data-part="W"]').isVisible()).toBe(false);
        await page.locator('[data-tab="W"]').click();
      } else {
        expect(layout.tabs).toBe(0);
        expect(layout.visible).toEqual(['W', 'L', 'F']);
        expect(layout.scrollWidth).toBeLessThanOrEqual(1920);
      }
      expect(layout.clipped).toEqual([]);
      if (PICTURES) {
        await settled(page);
        await page.screenshot({
          path: join(pictureDir('draw'), `draw-page-${name === 'phone' ? '390' : '1920x1080'}.png`),
          fullPage: name === 'phone' ? false : false,
        });
      }
    } finally {
      await page.close();
    }
  });

  it('/draw/<eventId> in Japanese and Traditional Chinese; the addresses without an event or a draw say so', async () => {
    const ja = await open(`/draw/${ev.id}?lang=ja`);
    await ja.locator('[data-part="W"] h3').first().waitFor();
    expect(await ja.locator('[data-part="W"] h3').first().textContent()).toBe('ウィナーズ 1回戦');
    expect(await ja.locator('[data-part="F"] h3').allTextContents()).toContain('ホットシート');
    await ja.close();
    const zh = await open(`/draw/${ev.id}?lang=zh-TW`);
    await zh.locator('[data-part="L"] h2').waitFor();
    expect(await zh.locator('[data-part="L"] h2').textContent()).toBe('敗部');
    await zh.close();
    const missing = await open('/draw?lang=en', PHONE);
    expect(await missing.locator('[data-f="missing"]').textContent()).toContain('/draw/<event id>');
    await missing.close();
    const unknown = await open('/draw/no-such-event?lang=en', PHONE);
    await unknown.locator('[data-f="draw-error"]').waitFor();
    expect(await unknown.locator('[data-f="draw-error"]').textContent()).toBe('No event "no-such-event".');
    await unknown.close();
    const other = await createEvent(server.url);
    const none = await open(`/draw/${other.id}?lang=en`, PHONE);
    await none.locator('[data-f="draw-error"]').waitFor();
    expect(await none.locator('[data-f="draw-error"]').textContent()).toBe('This event has no draw yet.');
    await none.close();
  });

  it('a round robin shows a table per group, following results', async () => {
    const rr = await createEvent(server.url);
    const made = await api(server.url, `/api/events/${rr.id}/draw`, {
      token: rr.organiserToken,
      body: { format: 'round-robin', groupSize: 4, seeding: 'order' },
    });
    expect(made.status).toBe(201);
    const page = await open(`/draw/${rr.id}?lang=en`, PHONE);
    await page.locator('table[data-group="A"]').waitFor();
    expect(await page.locator('table[data-group="A"] caption').textContent()).toBe('Group A');
    const first = (made.body.draw.draw as DrawView).matches[0]!;
    const res = await api(server.url, `/api/events/${rr.id}/draw/results`, {
      token: rr.organiserToken,
      body: { match: first.id, winner: first.players[1], kind: 'win', score: [1, 3] },
    });
    expect(res.status).toBe(200);
    await page.waitForFunction((p) => document.querySelector(`table[data-group="A"] tbody tr[data-player="${p}"] .pos`)?.textContent === '1', first.players[1]);
    expect(await page.locator(`tr[data-player="${first.players[1]}"] td`).allTextContents()).toEqual(['1', expect.any(String), '1', '1', '0', '+2', '0']);
    await page.close();
  });

  /** Boxes of the OBS graphic inside the 90 % action-safe area; texts wrapped or cut. */
  const onAir = (page: Page, sel: string) =>
    page.evaluate((sel) => {
      const box = document.querySelector(sel)!.getBoundingClientRect();
      const cut = [...document.querySelectorAll(`${sel} .fit, ${sel} h1, ${sel} h3, ${sel} .tag`)]
        .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(el).fontSize))
        .map((el) => el.textContent);
      // A name printed below the graphics' floor (17 px): FitText went past its shortest form.
      const small = [...document.querySelectorAll(`${sel} [data-f="name"]`)]
        .filter((el) => parseFloat(getComputedStyle(el).fontSize) < 16)
        .map((el) => el.textContent);
      cut.push(...small);
      return { x: box.x, y: box.y, r: box.right, b: box.bottom, w: box.width, h: box.height, cut };
    }, sel);

  it('/overlay/draw/<eventId>: the bracket for breaks inside the safe area, following a result; /overlay/standings: a thin lower third', async () => {
    const page = await open(`/overlay/draw/${ev.id}?lang=en&anim=0`);
    try {
      await page.locator('[data-f="bracket"] [data-match]').first().waitFor();
      const box = await onAir(page, '[data-f="bracket"]');
      expect(box.x).toBeGreaterThanOrEqual(96);
      expect(box.y).toBeGreaterThanOrEqual(54);
      expect(box.r).toBeLessThanOrEqual(1920 - 96);
      expect(box.b).toBeLessThanOrEqual(1080 - 54);
      expect(box.cut).toEqual([]);
      expect(await page.locator('[data-part]').evaluateAll((els) => els.map((e) => e.getAttribute('data-part')))).toEqual(['W', 'L', 'F']);
      const at = await entries(page, '[data-f="draw-gfx"]');
      await result('L1-1', 3);
      await page.waitForFunction((n) => Number(document.querySelector('[data-f="draw-gfx"]')!.getAttribute('data-entries')) > n, at);
      expect(await page.locator('[data-f="bracket"] [data-match="L1-1"] .won .sc').textContent()).toBe('7');
      if (PICTURES) {
        await onTable(page);
        await settled(page);
        await saveComposite(browser, await page.screenshot(), join(pictureDir('draw'), 'overlay-bracket'), FOR_DOCS);
      }
    } finally {
      await page.close();
    }
    const lower = await open(`/overlay/standings/${ev.id}?lang=en&anim=0`);
    try {
      await lower.locator('[data-f="standings"] li').first().waitFor();
      const box = await onAir(lower, '[data-f="standings"]');
      expect(box.x).toBeGreaterThanOrEqual(96);
      expect(box.b).toBeLessThanOrEqual(1080 - 54);
      expect(box.w).toBeLessThanOrEqual(1100);
      expect(box.h).toBeLessThanOrEqual(180);
      expect(box.cut).toEqual([]);
      expect(await lower.locator('[data-f="standings"] li').count()).toBe(8);
      if (PICTURES) {
        await onTable(lower);
        await settled(lower);
        await saveComposite(browser, await lower.screenshot(), join(pictureDir('draw'), 'overlay-standings'), FOR_DOCS);
      }
    } finally {
      await lower.close();
    }
  });
});
