/**
 * The shot clock on the OBS overlays (issue 18, item 6), in real headless Chromium against a real server, the
 * clock turned on and pressed over REST as a button box does:
 * - running: the segment counts down (a change of second awaited in the page, never slept for); warning
 *   (amber) and urgent (red) by `data-level` at the settings' seconds; a running clock that reaches 0 shows 0,
 *   expired; pause: the seconds stand still and the page arms no timer; an extension takes a marker away;
 * - on air from the settings' "shown from N seconds", hidden while idle (a reset); `clock=0` shows nothing;
 * - the table overlay shows the table's current match's clock (pressed with the organiser token);
 * - every level's seconds read ≥ 4.5:1 on the themes and on custom `bg`/`accent` colours;
 * - composite screenshots over the pool table (bar and corner bug, running, warning, urgent; 1080p and 720p, en):
 *   with `SHOTS=1` into docs/screenshots/shot-clock/ (JPEG), with `ARTIFACTS=1` into artifacts/screenshots/shot-clock/
 *   (PNG); otherwise not made (they are for people to look at, and cost a minute of the run).
 * The box limits with the clock on air are overlay-box.test.ts's (its clock scenes in helpers/overlay-states.ts).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ShotClockView } from '../../shared/shot-clock';
import { extMarkers } from '../../overlay/src/clock-view';
import { showClock } from '../../web/src/lib/live-clock';
import { chromiumAvailable, settled } from '../helpers/browser';
import { onTable, saveComposite } from '../helpers/composite';
import { createEvent, tableMatch } from '../helpers/events';
import { texts } from '../helpers/legibility';
import { OverlayHarness } from '../helpers/overlay-harness';
import { clockSettings, SCENES } from '../helpers/overlay-states';
import { countPings, IDLE_PROBE, idleWindow } from '../helpers/pages-probes';
import { FOR_DOCS, PICTURES, pictureDir } from '../helpers/pictures';
import { api, recordBreak } from '../helpers/server';

const hasChromium = chromiumAvailable();
/** The composites are pictures for people to look at, made on request (tests/helpers/pictures.ts). */
const DOCS = FOR_DOCS;
const SHOOT = PICTURES;
const RUN = SCENES.find((s) => s.name === 'run')!;
const CLOCK = '[data-f="shot-clock"]';

/** Seconds the overlay's clock segment shows, or null when it is not on air. */
function seconds(page: Page): Promise<number | null> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    return el ? Number(el.textContent!.trim()) : null;
  }, CLOCK);
}

/** Wait until the segment shows `attr`="value" (status or level). */
function waitClock(page: Page, attr: 'status' | 'level', value: string, timeout = 20_000): Promise<unknown> {
  return page.locator(`${CLOCK}[data-${attr}="${value}"]`).waitFor({ timeout });
}

/** Filled markers of player `key`'s extensions left. */
function filled(page: Page, key: 'A' | 'B'): Promise<number> {
  return page.locator(`[data-f="ext-${key}"] i.on`).count();
}

describe('the clock segment’s view (pure)', () => {
  const view = (over: Partial<ShotClockView>): ShotClockView => ({
    status: 'running',
    deadline: 1,
    remainingMs: 0,
    allowanceMs: 30_000,
    kind: 'shot',
    shooter: 'A',
    extensionsLeft: [1, 0],
    extensionsPerPlayer: 1,
    shot: 1,
    warningSeconds: 10,
    urgentSeconds: 5,
    showFromSeconds: null,
    match: null,
    ...over,
  });
  it('marks each extension of the period, filled while left; many as one marker and the count; none without extensions', () => {
    expect(extMarkers(view({}), 'A')).toEqual({ key: 'A', left: 1, slots: [true], count: null });
    expect(extMarkers(view({}), 'B')).toEqual({ key: 'B', left: 0, slots: [false], count: null });
    expect(extMarkers(view({ extensionsPerPlayer: 3, extensionsLeft: [2, 3] }), 'A')?.slots).toEqual([true, true, false]);
    expect(extMarkers(view({ extensionsPerPlayer: 12, extensionsLeft: [11, 12] }), 'A')).toEqual({ key: 'A', left: 11, slots: [], count: 11 });
    expect(extMarkers(view({ extensionsPerPlayer: 0, extensionsLeft: [0, 0] }), 'A')).toBeNull();
    expect(extMarkers(null, 'A')).toBeNull();
  });
  it('shows a running clock at 0 as expired, any other as its status', () => {
    expect(showClock(view({}), 2).status).toBe('expired');
    expect(showClock(view({ deadline: 1500 }), 600).status).toBe('running');
    expect(showClock(view({ status: 'paused', deadline: null }), 2).status).toBe('paused');
  });
});

describe.skipIf(!hasChromium)('the shot clock on the OBS overlays', () => {
  const h = new OverlayHarness();
  h.install();

  it('counts down while running, amber then red at the settings’ seconds; paused it stands still with no timer; an extension takes a marker; at 0 it is expired', async () => {
    const m = await h.match(RUN.setup, RUN.before);
    // 12 s for every shot, amber from 10, red from 5, one 2 s extension per player: every level within seconds.
    await h.clock(m, clockSettings(12, 10, 5, 1, { extensionSeconds: 2 }));
    const page = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.addInitScript(IDLE_PROBE);
    const pings = countPings(page);
    try {
      await page.goto(`${h.url}/overlay/${m.id}?anim=0`);
      await page.locator('[data-f="ext-A"][data-left="1"]').waitFor({ timeout: 10_000 });
      expect(await page.locator(CLOCK).count()).toBe(0); // idle: not on air
      expect(await filled(page, 'A')).toBe(1);
      expect(await filled(page, 'B')).toBe(1);

      await h.press(m, 'start');
      await waitClock(page, 'status', 'running');
      const first = (await seconds(page))!;
      expect(first).toBeGreaterThan(0);
      expect(first).toBeLessThanOrEqual(12);
      // The next second, awaited in the page.
      await page.waitForFunction(([sel, s]) => Number(document.querySelector(sel)?.textContent) < s, [CLOCK, first] as const, { timeout: 5000 });
      expect(await seconds(page)).toBeLessThan(first);

      await waitClock(page, 'level', 'warning');
      const amber = (await seconds(page))!;
      expect(amber).toBeLessThanOrEqual(10);
      expect(amber).toBeGreaterThan(5);

      await h.press(m, 'pause');
      await waitClock(page, 'status', 'paused');
      const held = await seconds(page);
      const idle = await idleWindow(page, pings, 1500);
      expect(idle.fired).toBe(0);
      expect(idle.frames).toBe(0);
      expect(idle.scheduled).toBeLessThanOrEqual(idle.pings); // only the heartbeat's watchdog, re-armed per ping
      expect(await seconds(page)).toBe(held);

      await h.press(m, 'extension');
      await page.locator('[data-f="ext-A"][data-left="0"]').waitFor({ timeout: 10_000 });
      expect(await filled(page, 'A')).toBe(0); // A (at the table) took it…
      expect(await filled(page, 'B')).toBe(1); // …B still has one
      expect(await seconds(page)).toBe(held! + 2);

      await h.press(m, 'resume');
      await waitClock(page, 'status', 'running');
      await waitClock(page, 'level', 'urgent');
      expect(await seconds(page)).toBeLessThanOrEqual(5);
      await waitClock(page, 'status', 'expired');
      expect(await seconds(page)).toBe(0);
      expect(await page.locator(CLOCK).getAttribute('data-level')).toBe('urgent');
      // Run out: nothing moves any more, so no timer.
      const after = await idleWindow(page, pings, 1500);
      expect(after.fired).toBe(0);
      expect(after.scheduled).toBeLessThanOrEqual(after.pings);
    } finally {
      await page.close();
    }
  });

  it('goes on air at the settings’ “shown from” seconds and off when reset (idle); clock=0 shows neither seconds nor markers', async () => {
    const m = await h.match(RUN.setup, RUN.before);
    await h.clock(m, clockSettings(12, 5, 3, 1, { showFromSeconds: 10 }));
    const page = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
    const off = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
    try {
      await page.goto(`${h.url}/overlay/${m.id}?anim=0`);
      await off.goto(`${h.url}/overlay/${m.id}?anim=0&clock=0`);
      await page.locator('[data-f="ext-A"]').waitFor({ timeout: 10_000 });
      await off.locator('[data-f="score-A"]').waitFor({ timeout: 10_000 });
      // Record the seconds of the segment's first appearance (a mutation observer: no sampling).
      await page.evaluate((sel) => {
        const w = window as unknown as { __firstShown: number | null };
        w.__firstShown = null;
        new MutationObserver((_, mo) => {
          const el = document.querySelector(sel);
          if (!el) return;
          w.__firstShown = Number(el.textContent);
          mo.disconnect();
        }).observe(document.body, { childList: true, subtree: true });
      }, CLOCK);
      await h.press(m, 'start');
      await waitClock(page, 'status', 'running');
      const firstShown = await page.evaluate(() => (window as unknown as { __firstShown: number | null }).__firstShown);
      expect(firstShown).not.toBeNull();
      expect(firstShown!).toBeLessThanOrEqual(10);
      expect(firstShown!).toBeGreaterThan(5);

      await h.press(m, 'reset');
      await page.locator(CLOCK).waitFor({ state: 'detached', timeout: 10_000 });
      expect(await page.locator('[data-f="ext-A"]').count()).toBe(1); // the markers stay while the match has a clock

      expect(await off.locator(CLOCK).count()).toBe(0);
      expect(await off.locator('[data-f^="ext-"]').count()).toBe(0);
    } finally {
      await page.close();
      await off.close();
    }
  });

  it('the table overlay shows the current match’s clock, pressed with the organiser token', async () => {
    const ev = await createEvent(h.url);
    const table = ev.event.tables[0]!.id;
    const m = await tableMatch(h.url, ev, table, [ev.event.roster[0]!.id, ev.event.roster[1]!.id], true);
    await recordBreak(h.url, m); // the clock does not run for a break (D-32a)
    await h.clock(m, clockSettings(60, 10, 5));
    const page = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
    try {
      await page.goto(`${h.url}/overlay/table/${ev.id}/${table}?cards=0&anim=0`);
      await page.locator('[data-f="ext-A"][data-left="1"]').waitFor({ timeout: 10_000 });
      const res = await api(h.url, `/api/events/${ev.id}/tables/${table}/clock/start`, { method: 'POST', token: ev.organiserToken });
      expect(res.status).toBe(200);
      await waitClock(page, 'status', 'running');
      expect(await seconds(page)).toBeGreaterThan(50);
      expect(await page.locator(CLOCK).getAttribute('data-level')).toBe('none');
    } finally {
      await page.close();
    }
  });

  it('every level’s seconds and the markers’ count read ≥ 4.5:1 on both themes and on custom panel and accent colours', async () => {
    const levels = [
      ['none', clockSettings(3600, 10, 5, 5)],
      ['warning', clockSettings(3600, 3600, 5, 5)],
      ['urgent', clockSettings(3600, 3600, 3600, 5)],
    ] as const;
    const colours = [
      '',
      '&theme=light',
      '&bg=ffd400&accent=ffd400',
      '&bg=1a1a1a&accent=262626',
      '&theme=light&bg=c8102e&accent=ffb000',
      '&accent=ffffff&bg=ffffff',
    ];
    const page = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
    const problems: string[] = [];
    try {
      for (const [level, settings] of levels) {
        const m = await h.match(RUN.setup, RUN.before);
        await h.clock(m, settings);
        await h.press(m, 'start');
        for (const layout of ['bar', 'corner']) {
          for (const c of colours) {
            await page.goto(`${h.url}/overlay/${m.id}?anim=0&layout=${layout}${c}`);
            await waitClock(page, 'level', level);
            await settled(page);
            for (const t of [...(await texts(page, CLOCK)), ...(await texts(page, '[data-f="ext-A"]'))]) {
              if (t.contrast < 4.5) problems.push(`${level} ${layout}${c}: "${t.text}" contrast ${t.contrast.toFixed(2)}`);
              if (t.size < 16) problems.push(`${level} ${layout}${c}: "${t.text}" at ${t.size} px`);
            }
          }
        }
      }
    } finally {
      await page.close();
    }
    expect(problems).toEqual([]);
  });

  // Six composites of four screenshots each: minutes on a loaded 2-core machine.
  it.runIf(SHOOT)(
    'composite screenshots over the pool table: bar and corner bug, running, warning and urgent, 1080p and 720p',
    { timeout: 600_000 },
    async () => {
      const dir = pictureDir('shot-clock');
      // Realistic figures: a 30 s shot (running); 10 s and 5 s (amber, red from the start), each with A's one
      // extension (2 s) taken before the start, so A's marker is an outline and B's filled.
      const ext = { extensionSeconds: 2 };
      const states = [
        ['running', 'none', clockSettings(30, 10, 5), false],
        ['warning', 'warning', clockSettings(8, 10, 5, 1, ext), true],
        ['urgent', 'urgent', clockSettings(3, 10, 5, 1, ext), true],
      ] as const;
      const page = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
      try {
        for (const layout of ['bar', 'corner'] as const) {
          for (const [name, level, settings, extended] of states) {
            const m = await h.match(RUN.setup, RUN.before);
            await h.clock(m, settings);
            if (extended) await h.press(m, 'extension');
            await page.goto(`${h.url}/overlay/${m.id}?anim=0&layout=${layout}`);
            await page.locator('[data-f="ext-A"]').waitFor({ timeout: 10_000 });
            await onTable(page);
            await settled(page);
            await h.press(m, 'start');
            await waitClock(page, 'level', level);
            await settled(page);
            await saveComposite(h.browser, await page.screenshot(), join(dir, `${name}-${layout}`), DOCS);
          }
        }
      } finally {
        await page.close();
      }
    },
  );
});
