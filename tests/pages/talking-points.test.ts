/**
 * The dashboard's talking points in real Chromium against a real server (issue 28): the panel shows the ranked
 * points the server words (`talking-points.json`), in the page's language, new ones marked; a shot recorded
 * over REST updates it live (a run of 10 becomes "the best run of the match"); its text is at least 18 px. The
 * stream-start control without an organiser token keeps a typed time for the chapters link only.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { Step } from '../../shared/protocol/steps';
import { chromiumAvailable, launchChromium, screenshotDir } from '../helpers/browser';
import { api, createMatch, startTestServer } from '../helpers/server';
import { ensureBuilt } from '../helpers/global-setup';

const hasChromium = chromiumAvailable();
const SETUP = { discipline: '14-1', ruleset: 'nba', players: ['Ann Lee', 'Ken Watanabe'], shortNames: ['Lee', 'Watanabe'], targets: [60, 60] };
const ball: Step = { shot: { call: { ball: 1 }, pocketed: 1 } };
const STEPS: Step[] = [{ shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } }, ...Array<Step>(9).fill(ball)];

describe.skipIf(!hasChromium)('talking points on the dashboard (Chromium)', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let m: { id: string; scorerToken: string };
  let n = 0;
  const errors: string[] = [];
  const record = async (step: Step) => {
    const res = await api(server.url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: `tp-${n++}`, step } });
    expect(res.status).toBe(201);
  };
  /** The panel's lines once it shows `version`: kind, new, text. */
  const lines = async (version: number) => {
    await page.waitForSelector(`[data-f="talking-points"][data-version="${version}"]`, { timeout: 10_000 });
    return page.$$eval('[data-f="tp"]', (ls) =>
      ls.map((l) => ({ kind: l.getAttribute('data-kind'), isNew: l.getAttribute('data-new') === '1', text: l.textContent!.replace(/\s+/g, ' ').trim() })),
    );
  };

  beforeAll(async () => {
    await ensureBuilt();
    server = await startTestServer();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    page.on('pageerror', (e) => errors.push(e.message));
    m = await createMatch(server.url, SETUP);
    for (const s of STEPS) await record(s);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the ranked points with numbers and updates with a shot', async () => {
    await page.goto(`${server.url}/dashboard/${m.id}?lang=en`);
    const before = await lines(STEPS.length);
    expect(before[0]).toMatchObject({ kind: 'on-a-run', isNew: false, text: 'Watanabe is on a run of 9' });
    expect(before.map((l) => l.text)).toContain('Watanabe needs 51 to win; averages 9 an inning');
    expect(before.some((l) => l.kind === 'best-run')).toBe(false);
    await record(ball);
    const after = await lines(STEPS.length + 1);
    // The 10th ball: a run of 10 is now the best run of the match, new, first.
    expect(after[0]).toMatchObject({ kind: 'best-run', isNew: true, text: 'new 10 is the best run of the match (Watanabe)' });
    expect(after.map((l) => l.text)).toContain('Watanabe is on a run of 10');
    const sizes = await page.$$eval('[data-f="tp"], [data-f="tp"] *', (els) => els.map((e) => parseFloat(getComputedStyle(e).fontSize)));
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(18);
    await page.screenshot({ path: join(screenshotDir(), 'dashboard-talking-points.png') });
    expect(errors).toEqual([]);
  });

  it('in Japanese through the language switch', async () => {
    await page.goto(`${server.url}/dashboard/${m.id}?lang=ja`);
    const ja = await lines(STEPS.length + 1);
    expect(ja.map((l) => l.text)).toContain('Watanabe 現在10連続');
  });

  it('the stream-start control without a token keeps the time for the chapters link only', async () => {
    await page.goto(`${server.url}/dashboard/${m.id}?lang=en`);
    await page.waitForSelector('[data-f="stream-start"]');
    // "Now" fills the current time (the stream started now: after the match was made, so it is accepted).
    await page.click('[data-f="stream-start-now"]');
    await page.click('[data-f="stream-start-set"]');
    const href = await page.getAttribute('[data-f="chapters-link"]', 'href', { timeout: 10_000 });
    const start = Number(/start=(\d+)/.exec(href!)![1]);
    expect(Math.abs(start - Date.now())).toBeLessThan(5_000);
    expect(await page.textContent('[data-f="stream-start"]')).toContain('used for this link only');
    const res = await api(server.url, href!);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toBe('0:00 Lee vs Watanabe\n');
    expect(errors).toEqual([]);
  });
});
