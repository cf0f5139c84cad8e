/**
 * The organiser page's draw overrides (issue 27 §4) in real Chromium against a server over the real Redis: an
 * 8-player single elimination on two tables, driven from the page only —
 * - arrivals: a player marked absent (the ready match says it waits for them), autopilot passes their match over;
 *   the absence rule set to walk over: autopilot records the walkover and the page lists it without a reload;
 *   the player marked arrived again;
 * - a table card's swap: the two tables' matches change places in the server's draw and event, the table cards
 *   and the public draw page (/draw/<id>, another tab) follow without a reload;
 * - a table card's undo of an assignment: refused next to the control, with the server's words, once a shot is
 *   recorded (nothing changes); taken back before a shot: the match is ready again and the table held;
 * - hold and release: the server's held tables follow each press; a released table takes the next ready match;
 * - every new button's label names its table or player (no two alike); the page fits 1920×1080 and a 390 px
 *   phone (no sideways scroll). Pictures (ARTIFACTS=1 / SHOTS=1, folder organiser): overrides-1920.png,
 *   overrides-390.png.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { DrawMatchView } from '../../shared/draw/state';
import { chromiumAvailable, launchChromium } from '../helpers/browser';
import { createEvent, stepsToWin, type CreatedEvent } from '../helpers/events';
import { ensureBuilt } from '../helpers/global-setup';
import { PICTURES, pictureDir } from '../helpers/pictures';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, connect, request, startTestServer, type Client } from '../helpers/server';

const hasChromium = chromiumAvailable();
const redis = await requireRedis();
const prefix = testPrefix('organiser-overrides');
const DEFAULTS = { discipline: '14-1', ruleset: 'nba', targets: [3, 3] } as const;

describe.skipIf(!hasChromium || !redis.available)('organiser page: the draw overrides in Chromium', () => {
  let s: RunningServer;
  let browser: Browser;
  let ev: CreatedEvent;
  let socket: Client | undefined;
  const getDraw = async () => (await api(s.url, `/api/events/${ev.id}/draw`)).body.draw;
  const match = async (id: string): Promise<DrawMatchView> => (await getDraw()).draw.matches.find((m: DrawMatchView) => m.id === id);
  const names = new Map<string, string>();

  beforeAll(async () => {
    await ensureBuilt();
    s = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    browser = await launchChromium();
    ev = await createEvent(s.url, {
      name: 'Overrides Open',
      date: '2026-06-01',
      defaults: DEFAULTS,
      tables: ['Table 1', 'TV table'],
      roster: ['Ann Andersen', 'Bob Brown', 'Chen Wei', 'Dora Díaz', 'Eva Eriksson', 'Femi Falana', 'Gus Grant', 'Hana Hoshino'].map((name) => ({ name })),
    });
    (await api(s.url, `/api/events/${ev.id}`)).body.roster.forEach((p: { id: string; name: string }) => names.set(p.id, p.name));
    const made = await api(s.url, `/api/events/${ev.id}/draw`, {
      token: ev.organiserToken,
      body: { format: 'single', seeding: 'order', races: { default: 3 } },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
  });
  afterAll(async () => {
    socket?.close();
    await browser?.close();
    await s?.close();
    await dropPrefix(redis.url, prefix);
  });

  const card = (page: Page, table: string) => page.locator(`article.table[data-table="${table}"]`);

  it('marks absent and arrived, swaps two tables, undoes an assignment (refused after a shot), holds and releases, walks an absent player over', async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    const drawPage = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    drawPage.on('pageerror', (e) => errors.push(`draw page: ${e.message}`));
    try {
      await page.goto(`${s.url}/event/${ev.id}?lang=en#token=${ev.organiserToken}`);
      await page.waitForSelector('[data-testid="organiser"][data-role="organiser"]');
      await page.locator('[data-testid="ready"] li[data-match="R1-4"]').waitFor();
      await drawPage.goto(`${s.url}/draw/${ev.id}?lang=en`);
      await drawPage.locator('article[data-match="R1-1"][data-status="ready"]').waitFor();
      await card(page, 'table-1').locator('[data-testid="table-draw"][data-held="no"]').waitFor();

      // Arrivals: the first match's first player is absent; the rule stays "wait".
      const r11 = await match('R1-1');
      const absentee = r11.players[0]!;
      const opponent = r11.players[1]!;
      await page.click('[data-testid="arrivals"] summary');
      expect(await page.inputValue('[data-testid="absent-policy"]')).toBe('wait');
      const row = page.locator(`[data-testid="arrivals"] li[data-player="${absentee}"]`);
      expect(await row.locator('[data-testid="presence-toggle"]').getAttribute('aria-label')).toBe(`Mark absent: ${names.get(absentee)}`);
      await row.locator('[data-testid="presence-toggle"]').click();
      await page.locator(`[data-testid="arrivals"] li[data-player="${absentee}"][data-absent="yes"]`).waitFor();
      expect((await getDraw()).settings.absent).toEqual([absentee]);
      expect(await page.textContent('[data-testid="ready"] li[data-match="R1-1"] [data-f="waits"]')).toBe(`waits: ${names.get(absentee)} absent`);
      expect(await page.textContent('[data-testid="arrivals"] [data-f="absent-count"]')).toBe('1 absent');

      // Autopilot on: the two tables take R1-2 and R1-3; R1-1 waits for its absent player.
      await page.click('[data-testid="autopilot-toggle"]');
      await page.locator('[data-testid="playing"] li[data-match="R1-3"]').waitFor({ timeout: 10_000 });
      await expect.poll(async () => (await match('R1-3')).table).toBe('tv-table');
      const [r12, r13] = [await match('R1-2'), await match('R1-3')];
      expect(r12.table).toBe('table-1');
      expect((await match('R1-1')).status).toBe('ready');
      await page.locator(`article.table[data-table="table-1"][data-current="${r12.matchId}"]`).waitFor();
      await drawPage.waitForFunction(() => document.querySelector('article[data-match="R1-2"] [data-f="status"]')?.textContent?.includes('Table 1'));

      // Swap Table 1 with the TV table: both matches move in the server, on the cards and on the draw page.
      await card(page, 'table-1').locator('[data-testid="swap-with"]').selectOption('tv-table');
      expect(await card(page, 'table-1').locator('[data-testid="swap"]').textContent()).toBe('Swap Table 1 and TV table');
      await card(page, 'table-1').locator('[data-testid="swap"]').click();
      await expect.poll(async () => (await match('R1-2')).table).toBe('tv-table');
      expect((await match('R1-3')).table).toBe('table-1');
      const tables = (await api(s.url, `/api/events/${ev.id}`)).body.tables as { id: string; current: string | null }[];
      expect(tables.map((tb) => [tb.id, tb.current])).toEqual([
        ['table-1', r13.matchId],
        ['tv-table', r12.matchId],
      ]);
      await page.locator(`article.table[data-table="table-1"][data-current="${r13.matchId}"]`).waitFor();
      await page.locator(`article.table[data-table="tv-table"][data-current="${r12.matchId}"]`).waitFor();
      await page.waitForFunction(() => document.querySelector('[data-testid="playing"] li[data-match="R1-2"]')?.textContent?.includes('TV table'));
      await drawPage.waitForFunction(() => document.querySelector('article[data-match="R1-2"] [data-f="status"]')?.textContent?.includes('TV table'));
      expect(await drawPage.textContent('article[data-match="R1-3"] [data-f="status"]')).toContain('Table 1');

      // A shot on the TV table's match: undoing its assignment is refused next to the control, nothing changes.
      const issued = await api(s.url, `/api/events/${ev.id}/tables/tv-table/scorer-token`, { method: 'POST', token: ev.organiserToken });
      expect(issued.status).toBe(201);
      socket = await connect(s.url, issued.body.scorerToken);
      const step = stepsToWin({ ...DEFAULTS, players: ['A', 'B'] })[0]!;
      const ack = await request(socket, 'record', { matchId: r12.matchId!, stepId: 'overrides-1', step });
      expect(ack.ok, JSON.stringify(ack)).toBe(true);
      const undoTv = card(page, 'tv-table').locator('[data-testid="unassign"]');
      expect(await undoTv.textContent()).toBe(`Undo assignment: ${r12.place} off TV table`);
      await undoTv.click();
      const refused = card(page, 'tv-table').locator('[data-testid="table-draw-error"]');
      await refused.waitFor();
      expect(await refused.textContent()).toMatch(new RegExp(`^Undo assignment: ${r12.place} off TV table refused: match: .*1 step\\(s\\) recorded`));
      expect((await match('R1-2')).status).toBe('playing');

      // Undo Table 1's assignment (no shot yet): R1-3 is ready again and Table 1 held (autopilot leaves it alone).
      await card(page, 'table-1').locator('[data-testid="unassign"]').click();
      await card(page, 'table-1').locator('[data-testid="table-draw"][data-held="yes"]').waitFor();
      expect((await match('R1-3')).status).toBe('ready');
      expect((await getDraw()).settings.held).toEqual(['table-1']);
      await page.locator('article.table[data-table="table-1"][data-current=""]').waitFor();
      expect(await card(page, 'table-1').locator('[data-f="held"]').textContent()).toBe('Held: autopilot leaves this table alone');
      await page.locator('[data-testid="ready"] li[data-match="R1-3"]').waitFor();

      // Every new button's label is its own (it names its table or player). Pictures with the refusal and a held table.
      expect(await refused.isVisible()).toBe(true);
      const labels = await page
        .locator('[data-testid="hold"], [data-testid="swap"], [data-testid="unassign"], [data-testid="presence-toggle"]')
        .evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label') ?? b.textContent!.trim()));
      expect(labels.length).toBeGreaterThan(12);
      expect(labels.filter((l, i) => labels.indexOf(l) !== i)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1920);
      if (PICTURES) await page.screenshot({ path: join(pictureDir('organiser'), 'overrides-1920.png'), fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForFunction(() => document.documentElement.scrollWidth <= 390);
      // Every card keeps the page's margin on both sides (none runs to the screen's edge).
      const edges = await page.locator('.card').evaluateAll((cs) => cs.map((c) => [c.getBoundingClientRect().left, c.getBoundingClientRect().right]));
      for (const [left, right] of edges) expect([left >= 8, right <= 382]).toEqual([true, true]);
      if (PICTURES) await page.screenshot({ path: join(pictureDir('organiser'), 'overrides-390.png'), fullPage: true });
      await page.setViewportSize({ width: 1920, height: 1080 });

      // Hold and release the TV table: the server's held tables follow each press.
      const holdTv = card(page, 'tv-table').locator('[data-testid="hold"]');
      expect(await holdTv.textContent()).toBe('Hold TV table');
      await holdTv.click();
      await card(page, 'tv-table').locator('[data-testid="table-draw"][data-held="yes"]').waitFor();
      expect((await getDraw()).settings.held).toEqual(['table-1', 'tv-table']);
      expect(await holdTv.textContent()).toBe('Release TV table');

      await holdTv.click();
      await card(page, 'tv-table').locator('[data-testid="table-draw"][data-held="no"]').waitFor();
      expect((await getDraw()).settings.held).toEqual(['table-1']);

      // Release Table 1: autopilot puts the next ready match with everyone here on it (R1-3 again).
      await card(page, 'table-1').locator('[data-testid="hold"]').click();
      await card(page, 'table-1').locator('[data-testid="table-draw"][data-held="no"]').waitFor();
      await expect.poll(async () => (await match('R1-3')).table).toBe('table-1');
      expect((await getDraw()).settings.held).toEqual([]);
      await page.locator('[data-testid="playing"] li[data-match="R1-3"]').waitFor();
      expect(await card(page, 'table-1').getAttribute('data-current')).not.toBe('');

      // The absence rule set to walk over: autopilot walks the absent player over; the page and the draw page follow.
      await page.selectOption('[data-testid="absent-policy"]', 'walkover');
      await page.locator('[data-testid="decided"] li[data-match="R1-1"]').waitFor({ timeout: 10_000 });
      const draw = await getDraw();
      expect(draw.settings.absentPolicy).toBe('walkover');
      expect(draw.draw.matches.find((m: DrawMatchView) => m.id === 'R1-1').result).toMatchObject({ kind: 'walkover', winner: opponent });
      expect(await page.textContent('[data-testid="decided"] li[data-match="R1-1"]')).toContain('Walkover');
      await drawPage.locator('article[data-match="R1-1"][data-status="done"]').waitFor();

      // The player arrives after all: marked arrived, the server's absent list is empty again.
      await row.locator('[data-testid="presence-toggle"]').click();
      await page.locator(`[data-testid="arrivals"] li[data-player="${absentee}"][data-absent="no"]`).waitFor();
      expect((await getDraw()).settings.absent).toEqual([]);
      expect(await row.locator('[data-testid="presence-toggle"]').textContent()).toBe('Mark absent');

      // In Japanese and Chinese on a phone: the controls are worded in the language and nothing runs off the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      for (const [lang, hold] of [
        ['ja', 'Table 1を保留'],
        ['zh-TW', '保留Table 1'],
      ] as const) {
        await page.goto(`${s.url}/event/${ev.id}?lang=${lang}#token=${ev.organiserToken}`);
        await card(page, 'table-1').locator('[data-testid="table-draw"]').waitFor();
        await page.click('[data-testid="arrivals"] summary');
        expect(await card(page, 'table-1').locator('[data-testid="hold"]').textContent()).toBe(hold);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        if (PICTURES) await page.screenshot({ path: join(pictureDir('organiser'), `overrides-390-${lang}.png`), fullPage: true });
      }
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await drawPage.close();
    }
  });
});
