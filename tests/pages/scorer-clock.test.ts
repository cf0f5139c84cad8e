/**
 * The scorer console's shot clock in real headless Chromium against a real in-process server:
 * - without a clock: no clock panel, and the foul menu has no time foul;
 * - with one (made with `clock` on POST /api/matches): the big control starts, pauses and resumes (tap and the T
 *   key), E takes the shooter's extension, Shift+T resets; an extension when none is left shows the server's
 *   refusal; no timer is armed while the clock is paused; the time foul in the foul menu records `fouls: ["time"]`;
 * - a clock running out: the warning and "time is up" on screen, the readout expired/urgent, the big control
 *   disabled, a beep (Web Audio) and a vibration; muted, the warning still shows but nothing sounds.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { CLOCK_PRESETS } from '../../shared/shot-clock';
import { chromiumAvailable, settled } from '../helpers/browser';
import { ScorerHarness } from '../helpers/scorer-harness';

const run = chromiumAvailable();
const h = new ScorerHarness('cuecast-scorer-clock-');

/** A 14-1 match picked up mid-rack (no opening break: a time foul may be recorded at once). */
const MID_RACK = {
  discipline: '14-1',
  ruleset: 'nba',
  players: ['Ann', 'Bob'],
  targets: [100, 100],
  start: { score: [10, 12], turn: 'A', rack: 1, ballsOnTable: 9 },
};

/** Counts beeps (oscillators started), vibrations, and timers armed for a second or less (`__clockProbe.reset()` zeroes them). */
const PROBE = `
(() => {
  const p = { beeps: 0, vibrations: [], shortTimers: 0 };
  p.reset = () => { p.beeps = 0; p.vibrations = []; p.shortTimers = 0; };
  window.__clockProbe = p;
  if (window.AudioContext) {
    const make = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function () { p.beeps++; return make.call(this); };
  }
  Object.defineProperty(Navigator.prototype, 'vibrate', { configurable: true, value: (pattern) => { p.vibrations.push(pattern); return true; } });
  const st = window.setTimeout.bind(window);
  window.setTimeout = (fn, ms, ...rest) => { if (typeof ms === 'number' && ms >= 1 && ms <= 1000) p.shortTimers++; return st(fn, ms, ...rest); };
})();`;

const readout = (page: Page) => page.locator('[data-testid="clock"] [data-f="shot-clock"]');
const clockOf = async (id: string) => (await h.api<{ clock: { status: string; extensionsLeft: [number, number] } | null }>(`/api/matches/${id}`)).clock;

describe.skipIf(!run)('scorer console: the shot clock in Chromium', () => {
  h.install();

  test('no clock: no clock panel and no time foul in the foul menu', { timeout: 60_000 }, async () => {
    const m = await h.create(MID_RACK);
    const { ctx, page } = await h.openScorer(m.urls.scorer);
    try {
      await page.getByTestId('foul').click();
      await page.getByTestId('foul-menu').waitFor();
      expect(await page.getByTestId('foul-scratch').count()).toBe(1);
      expect(await page.getByTestId('foul-time').count()).toBe(0);
      expect(await page.getByTestId('clock').count()).toBe(0);
      expect(await page.locator('[data-f="shot-clock"]').count()).toBe(0);
    } finally {
      await ctx.close();
    }
  });

  test('controls and keys; extension refused when none is left; no timer while paused; the time foul recorded', { timeout: 90_000 }, async () => {
    const m = await h.create({ ...MID_RACK, clock: { preset: 'pro' } });
    const { ctx, page } = await h.openScorer(m.urls.scorer, undefined, (p) => p.addInitScript(PROBE));
    try {
      const main = page.getByTestId('clock-main');
      await page.locator('[data-testid="clock-main"][data-status="idle"]').waitFor();
      expect(await readout(page).getAttribute('data-status')).toBe('idle');
      expect(await readout(page).textContent()).toContain('30');

      await main.click();
      await page.locator('[data-testid="clock-main"][data-status="running"]').waitFor();
      await expect.poll(async () => (await clockOf(m.id))?.status).toBe('running');

      await page.keyboard.press('t');
      await page.locator('[data-testid="clock-main"][data-status="paused"]').waitFor();
      expect((await clockOf(m.id))?.status).toBe('paused');
      expect(await readout(page).getAttribute('data-status')).toBe('paused');
      // Paused: the console arms no timer for the clock (it shows the paused seconds as they are).
      await page.evaluate(() => (window as unknown as { __clockProbe: { reset(): void } }).__clockProbe.reset());
      await page.waitForTimeout(1500);
      expect(await page.evaluate(() => (window as unknown as { __clockProbe: { shortTimers: number } }).__clockProbe.shortTimers)).toBe(0);

      await page.keyboard.press('t');
      await page.locator('[data-testid="clock-main"][data-status="running"]').waitFor();

      // E: Ann's extension (one per rack in the pro preset).
      await page.keyboard.press('e');
      await page.locator('[data-testid="clock"] [data-f="ext-A"][data-left="0"]').waitFor();
      expect(await page.locator('[data-testid="clock"] [data-f="ext-B"]').getAttribute('data-left')).toBe('1');
      expect((await clockOf(m.id))?.extensionsLeft).toEqual([0, 1]);

      // Shift+T resets the clock.
      await page.keyboard.press('Shift+T');
      await page.locator('[data-testid="clock-main"][data-status="idle"]').waitFor();

      // Ann scores and stays at the table: a new clock period, her extension of the rack used.
      await page.getByTestId('made').click();
      await h.settled(page, m.id, 1);
      await page.getByTestId('clock-extension').click();
      await page.getByTestId('clock-error').waitFor();
      expect(await page.getByTestId('clock-error').textContent()).toContain('no extension left');

      // The time foul is in the foul menu; it records the step alone.
      await page.getByTestId('foul').click();
      await page.getByTestId('foul-time').click();
      await h.settled(page, m.id, 2);
      const steps = await h.stepsOf(m.id);
      expect(steps.at(-1)?.step).toEqual({ shot: { fouls: ['time'] } });
      const after = await h.stateOf(m.id);
      expect(after.state.turn).toBe('B');
      expect(after.state.score).toEqual([10, 12]); // 11 after the ball made, −1 for the time foul
      expect(after.state.fouls).toEqual([1, 0]);
    } finally {
      await ctx.close();
    }
  });

  test('Rotation: the time foul by key (F then 9) records fouls: ["time"]', { timeout: 60_000 }, async () => {
    const m = await h.create({
      discipline: 'rotation',
      players: ['Ann', 'Bob'],
      start: { turn: 'A', onTable: [3, 4, 5, 6, 7, 9, 12, 15] },
      clock: { preset: 'league' },
    });
    const { ctx, page } = await h.openScorer(m.urls.scorer);
    try {
      await page.getByTestId('clock-main').waitFor();
      await page.keyboard.press('f');
      await page.getByTestId('foul-time').waitFor();
      await page.keyboard.press('9');
      await h.settled(page, m.id, 1);
      expect((await h.stepsOf(m.id)).at(-1)?.step).toEqual({ shot: { fouls: ['time'] } });
    } finally {
      await ctx.close();
    }
  });

  test('running out: the warning and "time is up" on screen, a beep and a vibration; muted, only the screen', { timeout: 90_000 }, async () => {
    const settings = { ...CLOCK_PRESETS.league, shotSeconds: 2, firstShotSeconds: 2, pushOutSeconds: 2, warningSeconds: 1, urgentSeconds: 1 };
    const m = await h.create({ ...MID_RACK, clock: { settings } });
    const { ctx, page } = await h.openScorer(m.urls.scorer, undefined, (p) => p.addInitScript(PROBE));
    try {
      const probe = () =>
        page.evaluate(() => {
          const p = (window as unknown as { __clockProbe: { beeps: number; vibrations: unknown[] } }).__clockProbe;
          return { beeps: p.beeps, vibrations: p.vibrations };
        });
      await page.getByTestId('clock-main').click();
      await page.locator('[data-testid="clock-alert"][data-kind="zero"]').waitFor({ timeout: 15_000 });
      expect(await readout(page).getAttribute('data-status')).toBe('expired');
      expect(await readout(page).getAttribute('data-level')).toBe('urgent');
      expect(await readout(page).textContent()).toContain('0');
      expect(await page.getByTestId('clock-main').isDisabled()).toBe(true);
      expect(await page.getByTestId('clock-main').getAttribute('data-status')).toBe('expired');
      const heard = await probe();
      expect(heard.beeps).toBeGreaterThanOrEqual(1);
      expect(heard.vibrations).toContainEqual([300, 100, 300]);
      await expect.poll(async () => (await clockOf(m.id))?.status).toBe('expired');

      // Muted: reset, start again, run out: the screen says it, nothing sounds.
      await page.getByTestId('clock-mute').check();
      await page.getByTestId('clock-reset').click();
      await page.locator('[data-testid="clock-main"][data-status="idle"]').waitFor();
      await page.getByTestId('clock-main').click();
      await page.locator('[data-testid="clock-main"][data-status="running"]').waitFor();
      await page.locator('[data-testid="clock-alert"][data-kind="zero"]').waitFor({ timeout: 15_000 });
      expect(await probe()).toEqual(heard);
      // The option is kept on this device.
      await page.reload();
      await page.getByTestId('clock-mute').waitFor();
      expect(await page.getByTestId('clock-mute').isChecked()).toBe(true);
    } finally {
      await ctx.close();
    }
  });

  test('"start by itself when a shot is recorded": the next shot\'s clock runs once the step is confirmed', { timeout: 60_000 }, async () => {
    const m = await h.create({ ...MID_RACK, clock: { preset: 'league' } });
    const { ctx, page } = await h.openScorer(m.urls.scorer);
    try {
      await page.getByTestId('clock-autostart').check();
      // Opening the console started nothing.
      expect((await clockOf(m.id))?.status).toBe('idle');
      await page.getByTestId('miss').click();
      await h.settled(page, m.id, 1);
      await page.locator('[data-testid="clock-main"][data-status="running"]').waitFor();
      const c = await h.api<{ clock: { status: string; shooter: string; shot: number } }>(`/api/matches/${m.id}`);
      expect(c.clock).toMatchObject({ status: 'running', shooter: 'B', shot: 1 });
    } finally {
      await ctx.close();
    }
  });

  test('landscape tablet with a clock: Undo stays in view beside the controls, the page does not scroll', { timeout: 60_000 }, async () => {
    const m = await h.create({
      discipline: 'rotation',
      players: ['Ann Andersen', 'Jürgen Kraus'],
      start: { turn: 'A', onTable: [3, 4, 5, 6, 7, 9, 12, 15] },
      clock: { preset: 'pro' },
    });
    const ctx = await h.browser.newContext({ viewport: { width: 1024, height: 768 }, deviceScaleFactor: 1, hasTouch: true });
    try {
      const { page } = await h.openScorer(m.urls.scorer, ctx);
      await page.getByTestId('clock-main').waitFor();
      await page.getByTestId('foul').click();
      await page.getByTestId('foul-time').waitFor();
      await settled(page);
      const l = await page.evaluate(() => {
        const box = (sel: string) => document.querySelector(sel)!.getBoundingClientRect();
        return {
          undo: box('[data-testid="undo"]'),
          clock: box('[data-testid="clock"]'),
          controls: box('.panel-host > .panel'),
          height: window.innerHeight,
          scrolls: document.documentElement.scrollHeight > window.innerHeight + 1,
        };
      });
      expect(l.clock.right).toBeLessThanOrEqual(l.controls.left);
      expect(l.undo.top).toBeGreaterThanOrEqual(l.clock.bottom);
      expect(l.undo.bottom).toBeLessThanOrEqual(l.height);
      expect(l.scrolls).toBe(false);
    } finally {
      await ctx.close();
    }
  });

  test(
    'set-up forms: the launcher makes a match with its clock (a bad custom clock makes none); a new event keeps it as its default',
    { timeout: 60_000 },
    async () => {
      const { ctx, page } = await h.phone();
      try {
        await page.goto(`${h.server.url}/`);
        await page.getByTestId('new-match').waitFor();
        const before = (await h.api<{ matches: unknown[] }>('/api/matches')).matches.length;
        await page.getByTestId('player-a').fill('Cleo');
        await page.getByTestId('player-b').fill('Dan');
        await page.getByTestId('clock-choice').selectOption('custom');
        await page.getByTestId('clock-seconds').fill('0');
        await page.getByTestId('create').click();
        // The field refuses it (1–3600, as the form's own check and the server's); nothing is sent.
        expect(await page.getByTestId('clock-seconds').evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(false);
        expect((await h.api<{ matches: unknown[] }>('/api/matches')).matches.length).toBe(before);
        await page.getByTestId('clock-seconds').fill('35');
        await page.getByTestId('clock-extension-seconds').fill('0');
        await page.getByTestId('create').click();
        const id = await page.getByTestId('created').getAttribute('data-id');
        const made = await h.api<{ clock: { allowanceMs: number; kind: string; extensionsPerPlayer: number } }>(`/api/matches/${id}`);
        // Set for the opening break: no allowance (D-32a; the form's 35 s apply from the first shot after it).
        expect(made.clock).toMatchObject({ kind: 'break', allowanceMs: 0, extensionsPerPlayer: 0 });

        await page.goto(`${h.server.url}/event`);
        await page.getByTestId('event-name').fill('Clock Night');
        await page.getByTestId('clock-choice').selectOption('pro');
        await page.getByTestId('event-create').click();
        // Create event opens the new event's organiser page (issue 29 §7).
        await page.waitForURL('**/event/*');
        const eventId = new URL(page.url()).pathname.split('/').pop();
        const ev = await h.api<{ defaults: { clock?: unknown } }>(`/api/events/${eventId}`);
        expect(ev.defaults.clock).toEqual({ preset: 'pro' });
      } finally {
        await ctx.close();
      }
    },
  );
});
