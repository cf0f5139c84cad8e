/**
 * What the OBS overlay page suites share: one real in-process server (the embedded SQLite store in a temp dir) and
 * one headless Chromium per file, matches created and scored over REST, the engine's state to compare with,
 * and readers for the overlay's `data-f` hooks. Call `install()` inside the suite's `describe`.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { applyStep, newMatch, view, type Match } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import type { MatchState } from '../../shared/protocol/state';
import type { Step } from '../../shared/protocol/steps';
import type { ShotClockAction, ShotClockSettings, ShotClockView } from '../../shared/shot-clock';
import { api, createMatch } from './server';
import { ScorerHarness } from './scorer-harness';

/** The engine's state after `steps` (what the overlay must show). */
export function engineState(setup: unknown, steps: Step[]): MatchState {
  let m: Match = newMatch(parseSetup(setup));
  for (const s of steps) {
    const r = applyStep(m, s);
    if (!r.ok) throw r.error;
    m = r.match;
  }
  return view(m);
}

/** Visible text of `[data-f=f]` (a no-break space read as a space), or null when absent or hidden. */
export async function field(page: Page, f: string): Promise<string | null> {
  return page.evaluate((f) => {
    const el = document.querySelector<HTMLElement>(`[data-f="${f}"]`);
    if (!el || el.closest('[hidden]')) return null;
    return el.textContent!.replace(/\u00a0/g, ' ');
  }, f);
}

/** Wait until `[data-f=f]` is visible with exactly `text` (a no-break space read as a space). */
export async function waitForText(page: Page, f: string, text: string, timeout = 10_000): Promise<void> {
  await page.waitForFunction(
    ([f, text]) => {
      const el = document.querySelector<HTMLElement>(`[data-f="${f}"]`);
      return !!el && !el.closest('[hidden]') && el.textContent!.replace(/\u00a0/g, ' ') === text;
    },
    [f, text] as const,
    { timeout },
  );
}

/**
 * Server, browser and helpers for one overlay page suite: the scorer suites' harness (one in-process server
 * with a temp SQLite store, one Chromium, `install()` for beforeAll/afterAll) plus the overlay's own helpers.
 */
export class OverlayHarness extends ScorerHarness {
  private eventNo = 0;

  constructor() {
    super('cuecast-overlay-');
  }

  get url(): string {
    return this.server.url;
  }

  /** Create a match and record `steps` over REST. */
  async match(setup: unknown, steps: Step[] = []): Promise<{ id: string; scorerToken: string }> {
    const m = await createMatch(this.url, setup);
    for (const s of steps) await this.record(m, s);
    return m;
  }

  /** Record one step over REST (throws unless 201). */
  async record(m: { id: string; scorerToken: string }, step: Step): Promise<{ version: number }> {
    const res = await api(this.url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: `ov-${process.pid}-${++this.eventNo}`, step } });
    if (res.status !== 201) throw new Error(`record: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { version: number };
  }

  /**
   * Open `/overlay/<id><query>` at `w`×`h` and wait until the scorebug shows a score. Without a `captions`
   * parameter in `query` it adds `captions=all` (every step captioned, as these suites expect; the default,
   * `notable`, is tested in overlay-model.test.ts and overlay-box.test.ts).
   */
  async open(id: string, query = '', size: { width: number; height: number } = { width: 1920, height: 1080 }): Promise<Page> {
    const page = await this.browser.newPage({ viewport: size });
    const q = query.includes('captions=') ? query : `${query}${query.includes('?') ? '&' : '?'}captions=all`;
    await page.goto(`${this.url}/overlay/${id}${q}`);
    await page.locator('[data-f="score-A"]').waitFor({ timeout: 10_000 });
    return page;
  }

  /** Turn match `m`'s shot clock on with `settings` (`PUT /api/matches/<id>/clock`; throws unless 200). */
  async clock(m: { id: string; scorerToken: string }, settings: ShotClockSettings): Promise<void> {
    const res = await api(this.url, `/api/matches/${m.id}/clock`, { method: 'PUT', token: m.scorerToken, body: { settings } });
    if (res.status !== 200) throw new Error(`clock settings: ${res.status} ${JSON.stringify(res.body)}`);
  }

  /** Press `action` on match `m`'s shot clock (`POST /api/matches/<id>/clock/<action>`; throws unless 200); the new clock. */
  async press(m: { id: string; scorerToken: string }, action: ShotClockAction): Promise<ShotClockView> {
    const res = await api(this.url, `/api/matches/${m.id}/clock/${action}`, { method: 'POST', token: m.scorerToken });
    if (res.status !== 200) throw new Error(`clock ${action}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.clock as ShotClockView;
  }

  /** Screenshot with a transparent background into artifacts/screenshots/<name>.png. */
  shot(page: Page, name: string): Promise<Buffer> {
    return page.screenshot({ omitBackground: true, path: join(this.shots, `${name}.png`), animations: 'disabled' });
  }
}
