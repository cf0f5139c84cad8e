/**
 * Every live page in the engine the suite runs in (issue 30, build 3), compact enough for CI to run it in each
 * Chromium OBS embeds (`OBS_ENGINE=92`: OBS 27, `103`: OBS 28–30, `127`: OBS 31) and in Debian's: one server (the
 * embedded store in a temp dir), one browser, one event with a match on its TV table, and six pages opened on it:
 * - the scorer console: opened without a token it is read-only; the pasted right token is checked (tokens.ts; it
 *   used `AbortSignal.timeout`, which 92 lacks) and enables recording; a shot entered there reaches the server;
 * - the hall board (`/venue/<event>`), the table screen (`/tableside/<event>/<table>`), the match overlay
 *   (`/overlay/<match>`) and the table overlay (`/overlay/table/<event>/<table>`): each shows the recorded score
 *   without a reload, its texts at 4.5:1 (the overlay's also at their sizes);
 * - the clock page (`/clock/<match>`): the shot clock turned on and started over REST runs (a change of second
 *   awaited, never slept for);
 * - the auto-director (`/director/<event>`, an OBS dock): outside OBS it follows the event's tables;
 * - the overlays' optional parts, chunks fetched when used (overlay/src/parts.ts), load and draw;
 * - a second event with a draw on autopilot: the OBS bracket (`/overlay/draw/<event>`) and standings lower third
 *   (`/overlay/standings/<event>`), the live draw page (`/draw/<event>`) and the table's tablet
 *   (`/scorer/table/<event>/<table>` with the table's scorer token) on the match autopilot put there.
 * Every page: no uncaught page error and no console error.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { chromiumAvailable, launchChromium, OBS_ENGINE } from '../helpers/browser';
import { createEvent, EVENT, tableMatch, type CreatedEvent } from '../helpers/events';
import { ensureBuilt } from '../helpers/global-setup';
import { expectLegible, texts } from '../helpers/legibility';
import { api, recordBreak, startTestServer } from '../helpers/server';
import type { EventView } from '../../shared/protocol/event';

const hasChromium = chromiumAvailable();
const FULL_HD = { width: 1920, height: 1080 };
const PHONE = { width: 390, height: 844 };
const TABLE = 'tv-table';
/** A clock long enough that it is still running when checked, short enough for the settings' limits. */
const CLOCK = {
  shotSeconds: 30,
  firstShotSeconds: 30,
  pushOutSeconds: 30,
  extensionSeconds: 10,
  extensionsPerPlayer: 1,
  extensionPeriod: { per: 'match' },
  warningSeconds: 10,
  urgentSeconds: 5,
  showFromSeconds: 30,
  autoStart: false,
  matchClock: { kind: 'played' },
};

/** Text of the first `[data-f=f]` (inside `root`), waited for until it is `want`. */
const shows = (page: Page, f: string, want: string, root = 'body') =>
  page.waitForFunction(
    ([f, want, root]) => (document.querySelector(`${root} [data-f="${f}"]`)?.textContent ?? '').replace(/\u00a0/g, ' ').trim() === want,
    [f, want, root] as const,
    { timeout: 15_000 },
  );

describe.skipIf(!hasChromium)(`live pages in Chromium ${OBS_ENGINE || '(Debian)'}`, () => {
  let browser: Browser;
  let server: RunningServer;
  let dataDir: string;
  let ev: CreatedEvent;
  let m: { id: string; scorerToken: string };
  const problems: string[] = [];
  const pages = new Map<string, Page>();

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'cuecast-old-engines-'));
    server = await startTestServer({ dataDir });
    browser = await launchChromium();
    ev = await createEvent(server.url, EVENT);
    m = await tableMatch(server.url, ev, TABLE, ['p1', 'p2'], true);
    await recordBreak(server.url, m); // the console below records the shot after the break
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Open `path` in a new page of `viewport`, every page error and console error kept against its name. */
  async function open(name: string, path: string, viewport = FULL_HD): Promise<Page> {
    const page = await browser.newPage({ viewport });
    page.on('pageerror', (e) => problems.push(`${name}: page error: ${e.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`${name}: console error: ${msg.text()}`);
    });
    pages.set(name, page);
    await page.goto(`${server.url}${path}`);
    return page;
  }

  const scoreNow = async (): Promise<[number, number]> => (await api(server.url, `/api/matches/${m.id}`)).body.state.score;

  it('opens the hall board, the table screen, both overlays and the clock page on the live match', { timeout: 120_000 }, async () => {
    const [a, b] = (await scoreNow()).map(String) as [string, string];
    const board = await open('hall board', `/venue/${ev.id}?lang=en`);
    await shows(board, 'score-A', a, `article[data-table="${TABLE}"]`);
    await shows(board, 'score-B', b, `article[data-table="${TABLE}"]`);
    const screen = await open('table screen', `/tableside/${ev.id}/${TABLE}?lang=en`);
    await shows(screen, 'score-A', a);
    await shows(screen, 'name-A', 'Ann Andersen');
    const overlay = await open('overlay', `/overlay/${m.id}?lang=en`);
    await shows(overlay, 'score-A', a);
    const tableOverlay = await open('table overlay', `/overlay/table/${ev.id}/${TABLE}?lang=en`);
    await shows(tableOverlay, 'score-A', a);
    const clock = await open('clock page', `/clock/${m.id}?lang=en`);
    await clock.locator('[data-f="clock-page"] [data-f="no-clock"]').waitFor({ timeout: 15_000 });
    // The auto-director (an OBS dock runs in the same engine): outside OBS it ranks the tables and switches nothing.
    const director = await open('auto-director', `/director/${ev.id}?lang=en`, { width: 400, height: 900 });
    await director
      .locator(`[data-testid="director"][data-obs="none"] [data-f="ranking"] li[data-table="${TABLE}"][data-version]:not([data-version=""])`)
      .waitFor({ timeout: 15_000 });
    for (const p of [board, screen, overlay, tableOverlay]) await p.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    expect(problems).toEqual([]);
  });

  it(
    'the scorer console: read-only without a token, the pasted token checked, a shot recorded reaches the server and every page',
    { timeout: 120_000 },
    async () => {
      const before = await scoreNow();
      const scorer = await open('scorer console', `/scorer/${m.id}?lang=en`, PHONE);
      await scorer.locator('[data-testid=token-panel][data-reason=missing]').waitFor({ timeout: 15_000 });
      expect(await scorer.getByTestId('made').count()).toBe(0);
      await scorer.getByTestId('token-input').fill(m.scorerToken);
      await scorer.getByTestId('token-use').click();
      await scorer.locator('[data-testid=scorer][data-token=valid]').waitFor({ timeout: 15_000 });
      await scorer.locator('[data-testid=status][data-status=live]').waitFor({ timeout: 15_000 });
      const version = (await api(server.url, `/api/matches/${m.id}`)).body.version as number;
      await scorer.getByTestId('made').click();
      await expect.poll(async () => (await api(server.url, `/api/matches/${m.id}`)).body.version, { timeout: 15_000 }).toBe(version + 1);
      const after = await scoreNow();
      expect(after).toEqual([before[0] + 1, before[1]]); // A, still at the table after the break, pockets a called ball
      await scorer.locator('[data-testid=status][data-status=live][data-queued="0"]').waitFor({ timeout: 15_000 });
      expect(((await scorer.getByTestId('score-A').textContent()) ?? '').trim()).toBe(String(after[0]));

      const a = String(after[0]);
      await shows(pages.get('hall board')!, 'score-A', a, `article[data-table="${TABLE}"]`);
      await shows(pages.get('table screen')!, 'score-A', a);
      await shows(pages.get('overlay')!, 'score-A', a);
      await shows(pages.get('table overlay')!, 'score-A', a);
      for (const name of ['hall board', 'table screen', 'overlay', 'table overlay']) {
        expect(await pages.get(name)!.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument), `${name} reloaded`).toBe(true);
      }
      // What the engine paints reads: the overlay's texts at their sizes and 4.5:1, the venue screens' at 4.5:1
      // (a colour or layout feature the engine lacks fails here, not only a script error).
      expectLegible(await texts(pages.get('overlay')!), 'overlay', 6);
      // The player at the table is tinted with the accent on the hall board (a layer, not color-mix(), which 92 and 103 drop).
      const tint = await pages.get('hall board')!.evaluate((t) => {
        const at = document.querySelector(`article[data-table="${t}"] .player.at`);
        if (!at) return null;
        const b = getComputedStyle(at, '::before');
        return { fill: b.backgroundColor, opacity: Number(b.opacity) };
      }, TABLE);
      expect(tint, 'the player at the table on the hall board').not.toBeNull();
      expect(tint!.opacity).toBeGreaterThan(0);
      expect(tint!.fill).not.toMatch(/^(transparent|rgba\(0, 0, 0, 0\))$/);
      for (const [name, root] of [
        ['hall board', '[data-testid="hall-board"]'],
        ['table screen', '[data-testid="table-screen"]'],
      ] as const) {
        const all = await texts(pages.get(name)!, root);
        expect(all.length, `${name}: texts`).toBeGreaterThanOrEqual(4);
        for (const x of all) expect(x.contrast, `${name}: "${x.text}"`).toBeGreaterThanOrEqual(4.5);
      }
      expect(problems).toEqual([]);
    },
  );

  it('the clock page shows the shot clock running', { timeout: 60_000 }, async () => {
    const clock = pages.get('clock page')!;
    const on = await api(server.url, `/api/matches/${m.id}/clock`, { method: 'PUT', token: m.scorerToken, body: { settings: CLOCK } });
    expect(on.status, JSON.stringify(on.body)).toBeLessThan(300);
    await clock.waitForFunction(() => document.querySelector('[data-f="shot-clock"]')?.getAttribute('data-status') === 'idle', undefined, { timeout: 15_000 });
    const start = await api(server.url, `/api/matches/${m.id}/clock/start`, { token: m.scorerToken, body: {} });
    expect(start.status, JSON.stringify(start.body)).toBeLessThan(300);
    await clock.waitForFunction(() => document.querySelector('[data-f="shot-clock"]')?.getAttribute('data-status') === 'running', undefined, {
      timeout: 15_000,
    });
    const first = await clock.evaluate(() => Number(document.querySelector('[data-f="clock-seconds"]')?.textContent ?? NaN));
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(30);
    // The page's own timer moves the second down (awaited, not slept for).
    await clock.waitForFunction((from) => Number(document.querySelector('[data-f="clock-seconds"]')?.textContent ?? NaN) < from, first, { timeout: 15_000 });
    expect(problems).toEqual([]);
  });

  it('the overlays’ optional parts (overlay/src/parts.ts) load and draw: odds strip, milestone pop-up, debug chip, a card', { timeout: 60_000 }, async () => {
    const page = await open('table overlay with parts', `/overlay/table/${ev.id}/${TABLE}?lang=en&captions=off&show=odds&milestones=auto&debug=1`);
    const intro = await api(server.url, `/api/events/${ev.id}/tables/${TABLE}/cards/intro`, { method: 'POST', token: ev.organiserToken });
    expect(intro.status).toBe(200);
    for (const sel of ['[data-f="odds"]', '[data-f="milestones"]', '[data-f="debug"]', '[data-f="card"][data-kind="intro"][data-up="1"]']) {
      await page.locator(sel).waitFor({ state: 'attached', timeout: 15_000 });
    }
    expect(problems).toEqual([]);
  });

  it('a draw on autopilot: the OBS bracket and standings, the live draw page and the table tablet on its match', { timeout: 90_000 }, async () => {
    const drawEvent = await createEvent(server.url, { ...EVENT, name: 'Draw Night' });
    const made = await api(server.url, `/api/events/${drawEvent.id}/draw`, {
      token: drawEvent.organiserToken,
      body: { format: 'single', seeding: 'rating', races: { default: 1 }, autopilot: true },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const issued = await api(server.url, `/api/events/${drawEvent.id}/tables/table-1/scorer-token`, { method: 'POST', token: drawEvent.organiserToken });
    expect(issued.status).toBe(201);
    const tableOne = async () =>
      ((await api(server.url, `/api/events/${drawEvent.id}`)).body as EventView).tables.find((t) => t.id === 'table-1')?.current ?? null;
    await expect.poll(tableOne, { timeout: 15_000 }).not.toBeNull(); // autopilot put a match of the draw there
    const onTable = (await tableOne())!;

    const bracket = await open('OBS bracket', `/overlay/draw/${drawEvent.id}?lang=en&anim=0`);
    await bracket.locator('[data-f="bracket"] [data-match]').first().waitFor({ timeout: 15_000 });
    const lower = await open('OBS standings', `/overlay/standings/${drawEvent.id}?lang=en&anim=0`);
    await lower.locator('[data-f="standings"] li').first().waitFor({ timeout: 15_000 });
    const drawPage = await open('draw page', `/draw/${drawEvent.id}?lang=en`);
    await drawPage.locator('[data-testid="draw-page"] [data-match][data-status="playing"]').first().waitFor({ timeout: 15_000 });
    const tablet = await open('table tablet', `/scorer/table/${drawEvent.id}/table-1?lang=en#token=${issued.body.scorerToken}`, PHONE);
    await tablet.locator(`[data-testid="table-scorer"][data-current="${onTable}"] [data-testid="scorer"]`).waitFor({ timeout: 15_000 });
    expect(problems).toEqual([]);
  });
});
