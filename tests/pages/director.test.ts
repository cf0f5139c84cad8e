/**
 * The auto-director `/director/<eventId>` in real headless Chromium against one server (embedded SQLite store): a
 * 3-table event scored over REST, and a stand-in of obs-browser's `window.obsstudio` (injected before the page's
 * scripts, "Advanced access to OBS", four scenes) that records every `setCurrentScene` with the page's clock.
 * The page runs on a test clock (`?clock=test`, moved only by the test), so the hold time and the settle window
 * are exact, with no timer raced:
 * - the first cut goes to the TV table; a table on a run takes the program once the table on air is between
 *   shots (a step recorded there within the settle window) and the hold time is over — not before: inside the
 *   hold, or with the settle window over (a shot may be under way), it waits;
 * - a table taken by hand cuts at once and pauses the director (no cut however long, whatever the ranking)
 *   until resumed; then the best table takes the program again; a scene of no table put on air in OBS by the
 *   producer pauses it too;
 * - every cut the director made by itself came at least the hold time after the one before and while the table
 *   leaving the program had a step recorded within the settle window (checked on the recorded times);
 * - the scenes are guessed from OBS's list and the mapping is kept in the browser; the log names each cut's
 *   reason; outside OBS the page says so, switches nothing and still ranks the tables; a bad `hold=` is a
 *   `debug=1` warning and the default is used.
 * Screenshot of the dock (`SHOTS=1`: docs/screenshots/director/).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Step } from '../../shared/protocol/steps';
import { chromiumAvailable } from '../helpers/browser';
import { createEvent, EVENT, tableMatch, type CreatedEvent } from '../helpers/events';
import { OverlayHarness } from '../helpers/overlay-harness';
import { PICTURES, pictureDir } from '../helpers/pictures';
import { api } from '../helpers/server';

const hasChromium = chromiumAvailable();
const HOLD_S = 30;
const SETTLE_S = 5;

/** A 3-table event, race to 40. */
const THREE_TABLES = {
  ...EVENT,
  defaults: { discipline: '14-1', ruleset: 'nba', targets: [40, 40] },
  tables: ['Table 1', 'Table 2', 'TV table'],
  roster: [...EVENT.roster, { name: 'Eero Ek', country: 'FI' }, { name: 'Fumi Fujita', country: 'JP' }],
};
const SCENES = ['Intro', 'Table 1', 'Table 2', 'TV table'];

const BREAK: Step = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };
const MISS: Step = { shot: { call: { made: false } } };
const pot = (b: number): Step => ({ shot: { call: { ball: b }, pocketed: [b] } });

/** What the stand-in saw: each scene switch with the page's clock (ms) at the call. */
type ObsWindow = Window & { sceneCalls: { scene: string; at: number }[]; obsProducer(scene: string): void };

/** A stand-in of obs-browser's API at control level `level`, answering asynchronously as OBS does. */
function obsStandIn({ level, scenes, current }: { level: number; scenes: string[]; current: string }) {
  const w = window as unknown as ObsWindow & { obsstudio: unknown; cuecastDirectorClock?: { now(): number } };
  w.sceneCalls = [];
  let program = current;
  w.obsstudio = {
    pluginVersion: '2.24.0',
    getControlLevel: (cb: (l: number) => void) => setTimeout(() => cb(level), 0),
    getScenes: (cb: (s: string[]) => void) => setTimeout(() => cb([...scenes]), 0),
    getCurrentScene: (cb: (s: { name: string }) => void) => setTimeout(() => cb({ name: program, width: 1920, height: 1080 } as { name: string }), 0),
    setCurrentScene(name: string) {
      program = name;
      w.sceneCalls.push({ scene: name, at: w.cuecastDirectorClock!.now() });
      setTimeout(() => dispatchEvent(new CustomEvent('obsSceneChanged', { detail: { name, width: 1920, height: 1080 } })), 0);
    },
  };
  // The producer switching the program in OBS itself (not recorded: not the page's call).
  w.obsProducer = (name: string) => {
    program = name;
    dispatchEvent(new CustomEvent('obsSceneChanged', { detail: { name, width: 1920, height: 1080 } }));
  };
}

describe.skipIf(!hasChromium)('auto-director /director/<eventId>, in Chromium', () => {
  const h = new OverlayHarness();
  h.install();

  let steps = 0;
  /** Record `step` on `m` over REST; its new version. */
  async function record(m: { id: string; scorerToken: string }, step: Step): Promise<number> {
    const res = await api(h.url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: `dir-${process.pid}-${++steps}`, step } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return (res.body as { version: number }).version;
  }

  async function threeTables(): Promise<{ ev: CreatedEvent; m: Record<'t1' | 't2' | 'tv', { id: string; scorerToken: string }> }> {
    const ev = await createEvent(h.url, THREE_TABLES);
    const [p1, p2, p3, p4, p5, p6] = ev.event.roster.map((p) => p.id) as [string, string, string, string, string, string];
    const m = {
      t1: await tableMatch(h.url, ev, 'table-1', [p1, p2], true),
      t2: await tableMatch(h.url, ev, 'table-2', [p3, p4], true),
      tv: await tableMatch(h.url, ev, 'tv-table', [p5, p6], true),
    };
    // Each match broken (A's safety break) and B missed: A is at the table everywhere.
    for (const x of Object.values(m)) for (const s of [BREAK, MISS]) await record(x, s);
    return { ev, m };
  }

  it('cuts between tables by interest, never inside the hold time, never during a shot; a pick by hand pauses it until resumed', async () => {
    const { ev, m } = await threeTables();
    const page = await h.browser.newPage({ viewport: { width: 720, height: 1000 }, colorScheme: 'dark' });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript(obsStandIn, { level: 4, scenes: SCENES, current: 'Intro' });
    await page.goto(`${h.url}/director/${ev.id}?clock=test&hold=${HOLD_S}&settle=${SETTLE_S}&tv=tv-table&lang=en`);

    const table = { t1: 'table-1', t2: 'table-2', tv: 'tv-table' } as const;
    /** Page clock (ms) at each recorded step per table, as the page saw it (the clock stands still meanwhile). */
    const stepTimes: Record<string, number[]> = { 'table-1': [], 'table-2': [], 'tv-table': [] };
    let now = 0;
    const calls = () => page.evaluate(() => (window as unknown as ObsWindow).sceneCalls);
    const why = () => page.locator('[data-f="director-status"]').getAttribute('data-why');
    const advance = async (ms: number) => {
      await page.evaluate((ms) => (window as unknown as { cuecastDirectorClock: { advance(ms: number): void } }).cuecastDirectorClock.advance(ms), ms);
      now += ms;
    };
    /** Record a step on table `k` and wait until the page has it (its version on the table's row). */
    const step = async (k: keyof typeof m, s: Step) => {
      const v = await record(m[k], s);
      await page.locator(`[data-f="ranking"] li[data-table="${table[k]}"][data-version="${v}"]`).waitFor({ state: 'attached', timeout: 30_000 });
      stepTimes[table[k]]!.push(now);
    };
    try {
      await page.locator('[data-f="ranking"] li').nth(2).waitFor();
      expect(await page.locator('[data-f="obs-status"]').getAttribute('class')).toContain('ok');
      // The scenes were guessed from OBS's list by the tables' names.
      await expect.poll(() => page.locator('[data-f="ranking"] li[data-table="table-2"] [data-f="scene"]').inputValue()).toBe('Table 2');

      // Nothing live beyond the TV table's bonus: the first cut goes to it (from a scene that is no table).
      await expect.poll(calls, { timeout: 30_000 }).toEqual([{ scene: 'TV table', at: 0 }]);
      expect(await page.locator('main').getAttribute('data-on-air')).toBe('tv-table');

      // Table 1: a run of 9. The TV table has had no step since the page opened: a shot may be under way there.
      for (let b = 1; b <= 9; b++) await step('t1', pot(b));
      expect(await page.locator('[data-f="ranking"] li').first().getAttribute('data-table')).toBe('table-1');
      expect(await why()).toBe('hold');
      await advance((HOLD_S + 1) * 1000);
      expect(await why()).toBe('shot');
      expect(await calls()).toHaveLength(1);
      // A step on the TV table: between shots there, the hold is over → Table 1 takes the program.
      await step('tv', pot(1));
      await expect.poll(calls).toHaveLength(2);
      expect((await calls())[1]).toEqual({ scene: 'Table 1', at: now });

      // Table 2 on a run of 5, Table 1's run ends: Table 2 is now the best, but the hold runs from the last cut.
      for (let b = 1; b <= 5; b++) await step('t2', pot(b));
      await step('t1', MISS);
      expect(await page.locator('[data-f="ranking"] li').first().getAttribute('data-table')).toBe('table-2');
      expect(await why()).toBe('hold');
      await advance(10_000);
      expect(await why()).toBe('hold');
      // The hold is over, but the last step on Table 1 is older than the settle window: a shot may be under way.
      await advance(25_000);
      expect(await why()).toBe('shot');
      expect(await calls()).toHaveLength(2);
      await step('t1', MISS); // B missed: between shots on Table 1 → cut
      await expect.poll(calls).toHaveLength(3);
      expect((await calls())[2]).toEqual({ scene: 'Table 2', at: now });

      // The producer takes Table 1 by hand, until resumed: it cuts at once (inside the hold), then the director waits.
      await page.locator('[data-f="pause-for"]').selectOption('0');
      await page.locator('[data-f="ranking"] li[data-table="table-1"] [data-f="take"]').click();
      await expect.poll(calls).toHaveLength(4);
      expect((await calls())[3]).toEqual({ scene: 'Table 1', at: now });
      await page.locator('[data-f="override"][data-table="table-1"]').waitFor();
      for (let b = 6; b <= 9; b++) await step('t2', pot(b)); // Table 2's run grows to 9
      await advance(60_000);
      await step('t1', pot(10)); // between shots on Table 1, long after the hold: still the producer's table
      expect(await why()).toBe('override');
      expect(await calls()).toHaveLength(4);
      await page.locator('[data-f="resume"]').click();
      await expect.poll(calls).toHaveLength(5);
      expect((await calls())[4]).toEqual({ scene: 'Table 2', at: now });

      // The log: every cut, newest first, with its reason.
      const log = await page
        .locator('[data-f="cut-log"] li')
        .evaluateAll((lis) => lis.map((li) => [li.getAttribute('data-to'), li.getAttribute('data-why'), li.textContent]));
      expect(log.map(([to, w]) => [to, w])).toEqual([
        ['table-2', 'better'],
        ['table-1', 'manual'],
        ['table-2', 'better'],
        ['table-1', 'better'],
        ['tv-table', 'first'],
      ]);
      expect(log[3]![2]).toContain('on a run of 9');
      expect(log[1]![2]).toContain('Taken by hand');

      // On the recorded times: each cut the director made by itself came ≥ the hold after the one before, with a
      // step on the table leaving the program within the settle window before it.
      const recorded = await calls();
      const auto = [1, 2, 4];
      const leaving = ['tv-table', 'table-1', 'table-1'];
      auto.forEach((i, j) => {
        const at = recorded[i]!.at;
        expect(at - recorded[i - 1]!.at, `cut ${i}: the hold`).toBeGreaterThanOrEqual(HOLD_S * 1000);
        expect(
          stepTimes[leaving[j]!]!.some((s) => s <= at && at - s <= SETTLE_S * 1000),
          `cut ${i}: between shots on ${leaving[j]}`,
        ).toBe(true);
      });

      // The producer puts a scene of no table on air in OBS (a break): the director pauses until resumed, then
      // cuts back to the best table once the hold (from that switch) is over.
      await page.evaluate(() => (window as unknown as ObsWindow).obsProducer('Intro'));
      await page.locator('[data-f="override"][data-table=""]').waitFor();
      for (let b = 10; b <= 12; b++) await step('t2', pot(b));
      await advance(60_000);
      await step('t1', pot(11));
      expect(await why()).toBe('override');
      expect(await calls()).toHaveLength(5);
      await page.locator('[data-f="resume"]').click();
      await expect.poll(calls).toHaveLength(6);
      expect((await calls())[5]).toEqual({ scene: 'Table 2', at: now });
      const top = await page
        .locator('[data-f="cut-log"] li')
        .evaluateAll((lis) => lis.slice(0, 2).map((li) => [li.getAttribute('data-to'), li.getAttribute('data-why'), li.textContent]));
      expect(top.map(([to, w]) => [to, w])).toEqual([
        ['table-2', 'first'],
        ['', 'obs'],
      ]);
      expect(top[1]![2]).toContain('Intro');

      // The mapping is kept in this browser.
      const kept = await page.evaluate((id) => JSON.parse(localStorage.getItem(`cuecast.director.${id}`) ?? '{}'), ev.id);
      expect(kept).toMatchObject({ scenes: { 'table-1': 'Table 1', 'table-2': 'Table 2', 'tv-table': 'TV table' }, holdS: HOLD_S });
      expect(errors).toEqual([]);
      if (PICTURES) await page.screenshot({ path: join(pictureDir('director'), 'director-dock-720.png'), fullPage: true, animations: 'disabled' });
      // A narrow OBS dock: nothing sticks out sideways.
      await page.setViewportSize({ width: 380, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(380);
      if (PICTURES) await page.screenshot({ path: join(pictureDir('director'), 'director-dock-380.png'), fullPage: true, animations: 'disabled' });
    } finally {
      await page.close();
    }
  }, 300_000);

  it('outside OBS it says so, switches nothing and still ranks the tables; a bad hold= is a debug=1 warning', async () => {
    const { ev, m } = await threeTables();
    const page = await h.browser.newPage({ viewport: { width: 720, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(`${h.url}/director/${ev.id}?clock=test&hold=abc&debug=1&lang=ja`);
      await page.locator('[data-f="ranking"] li').nth(2).waitFor();
      expect(await page.locator('main').getAttribute('data-obs')).toBe('none');
      expect(await page.locator('[data-f="obs-status"]').textContent()).toContain('OBS の中で動いていない');
      expect(await page.locator('[data-f="warnings"]').textContent()).toContain('hold=abc');
      expect(await page.locator('[data-f="hold"]').inputValue()).toBe('20');
      for (let b = 1; b <= 6; b++) await record(m.t2, pot(b));
      await expect.poll(() => page.locator('[data-f="ranking"] li').first().getAttribute('data-table'), { timeout: 30_000 }).toBe('table-2');
      expect(await page.locator('[data-f="ranking"] li').first().textContent()).toContain('6 のラン中');
      expect(await page.locator('[data-f="cut-log"] li').count()).toBe(0);
      expect(await page.locator('[data-f="take"]:not([disabled])').count()).toBe(0);
      expect(errors).toEqual([]);
      if (PICTURES) await page.screenshot({ path: join(pictureDir('director'), 'director-no-obs-ja-720.png'), fullPage: true, animations: 'disabled' });
    } finally {
      await page.close();
    }
  }, 120_000);
});
