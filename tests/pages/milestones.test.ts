/**
 * Milestone pop-ups on the OBS overlay in real Chromium against a real server (issue 28): with
 * `milestones=auto` the top new talking point pops beside the scorebug in the overlay's language, never more often
 * than once every `milestoneShots` steps (checked after every step of a match with many new points), never on the
 * version the page found at load; without the parameter nothing pops. The pop-up stays inside the 90 %
 * action-safe area, on one line, not cut. With `SHOTS=1` / `ARTIFACTS=1` the pop-up is composited over the
 * pool-table picture at 1080p and 720p (docs/screenshots/milestones/).
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { Step } from '../../shared/protocol/steps';
import { chromiumAvailable, launchChromium } from '../helpers/browser';
import { onTable, saveComposite } from '../helpers/composite';
import { FOR_DOCS, PICTURES, pictureDir } from '../helpers/pictures';
import { api, createMatch, startTestServer } from '../helpers/server';
import { ensureBuilt } from '../helpers/global-setup';

const hasChromium = chromiumAvailable();
const SETUP = { discipline: '14-1', ruleset: 'nba', players: ['Ann Lee', 'Ken Watanabe'], shortNames: ['Lee', 'Watanabe'], targets: [60, 60] };
const ball: Step = { shot: { call: { ball: 1 }, pocketed: 1 } };
const miss: Step = { shot: { call: { ball: 1 } } };
const foul: Step = { shot: { call: { ball: 1 }, cueBall: 'scratch' } };
const BREAK: Step = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };
/** After the break: B runs 12, misses; A fouls twice (B misses between); B runs 8, misses; A runs 20. */
const PLAY: Step[] = [...Array<Step>(12).fill(ball), miss, foul, miss, foul, ...Array<Step>(8).fill(ball), miss, ...Array<Step>(20).fill(ball)];
const EVERY = 8;

describe.skipIf(!hasChromium)('milestones=auto on the overlay (Chromium)', () => {
  let server: RunningServer;
  let browser: Browser;
  let errors: string[];
  let n = 0;

  beforeAll(async () => {
    await ensureBuilt();
    server = await startTestServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function newMatchPage(query: string): Promise<{ page: Page; m: { id: string; scorerToken: string } }> {
    const m = await createMatch(server.url, SETUP);
    await record(m, BREAK);
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/overlay/${m.id}?${query}`);
    await page.waitForSelector('[data-f="scorebug"]');
    return { page, m };
  }
  async function record(m: { id: string; scorerToken: string }, step: Step): Promise<void> {
    const res = await api(server.url, `/api/matches/${m.id}/steps`, { token: m.scorerToken, body: { stepId: `ms-${n++}`, step } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  const holder = (page: Page) =>
    page.$eval('[data-f="milestones"]', (e) => ({
      pops: Number(e.getAttribute('data-pops')),
      last: Number(e.getAttribute('data-last')),
      key: e.getAttribute('data-last-key'),
    }));

  it('pops the top new point, at most one every 8 steps, never at load', async () => {
    const { page, m } = await newMatchPage('milestones=auto&captions=off&hide=moments&moment=60&lang=en');
    await page.waitForSelector('[data-f="milestones"][data-seen="1"]', { state: 'attached' });
    expect((await holder(page)).pops).toBe(0);
    const popped: { version: number; key: string }[] = [];
    let shot = false;
    for (const [i, step] of PLAY.entries()) {
      const version = i + 2;
      await record(m, step);
      await page.waitForSelector(`[data-f="milestones"][data-seen="${version}"]`, { state: 'attached', timeout: 10_000 });
      const h = await holder(page);
      if (h.pops > popped.length) {
        expect(h.pops).toBe(popped.length + 1);
        popped.push({ version: h.last, key: h.key! });
        const pop = page.locator('[data-f="milestone"]');
        expect(await pop.getAttribute('data-key')).toBe(h.key);
        // One line, not cut, inside the action-safe area (90 %: 96 px and 54 px in from the 1080p edges).
        const box = (await pop.boundingBox())!;
        const fits = await pop.evaluate((e) => e.scrollWidth <= e.clientWidth && e.getClientRects().length === 1);
        expect(fits).toBe(true);
        expect(box.height).toBeLessThan(60);
        expect(box.x).toBeGreaterThanOrEqual(96);
        expect(box.x + box.width).toBeLessThanOrEqual(1920 - 96);
        expect(box.y).toBeGreaterThanOrEqual(54);
        if (PICTURES && !shot) {
          shot = true;
          await onTable(page);
          await saveComposite(browser, await page.screenshot(), join(pictureDir('milestones'), 'milestone-bar'), FOR_DOCS);
        }
      }
    }
    expect(popped.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < popped.length; i++) expect(popped[i]!.version - popped[i - 1]!.version).toBeGreaterThanOrEqual(EVERY);
    // The cap is what holds them back: more new points came than popped.
    expect(popped.length).toBeLessThanOrEqual(Math.floor((PLAY.length + 1 - popped[0]!.version) / EVERY) + 1);
    expect(popped[0]).toEqual({ version: 6, key: 'on-a-run:B:2' });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('in the corner bug, in Japanese; a caption holds it off', async () => {
    const { page, m } = await newMatchPage('milestones=auto&layout=corner&hide=moments&moment=60&lang=ja&milestoneShots=2');
    await page.waitForSelector('[data-f="milestones"][data-seen="1"]', { state: 'attached' });
    for (let i = 0; i < 5; i++) await record(m, ball);
    await page.waitForSelector('[data-f="milestone"]', { timeout: 10_000 });
    expect(await page.textContent('[data-f="milestone"]')).toBe('Watanabe 現在5連続');
    expect(await page.$('[data-f="caption"]')).toBeNull();
    // A foul is captioned (captions=notable): the pop is taken down while the caption is up.
    await record(m, foul);
    await page.waitForSelector('[data-f="caption"]');
    expect(await page.$('[data-f="milestone"]')).toBeNull();
    if (PICTURES) {
      const { page: p2, m: m2 } = await newMatchPage('milestones=auto&layout=corner&hide=moments&moment=60&lang=ja&milestoneShots=2');
      await p2.waitForSelector('[data-f="milestones"][data-seen="1"]', { state: 'attached' });
      for (let i = 0; i < 5; i++) await record(m2, ball);
      await p2.waitForSelector('[data-f="milestone"]', { timeout: 10_000 });
      await onTable(p2);
      await saveComposite(browser, await p2.screenshot(), join(pictureDir('milestones'), 'milestone-corner-ja'), FOR_DOCS);
      await p2.close();
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('without milestones=auto nothing pops', async () => {
    const { page, m } = await newMatchPage('captions=off&hide=moments');
    for (let i = 0; i < 6; i++) await record(m, ball);
    await page.waitForSelector('[data-f="run"]');
    expect(await page.$('[data-f="milestones"]')).toBeNull();
    await page.close();
  });
});
