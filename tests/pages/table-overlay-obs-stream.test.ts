/**
 * The table overlay and OBS (issue 28), in real Chromium with a stand-in `window.obsstudio`: when OBS fires
 * `obsStreamingStarted`, the page (with the organiser token in `#token=`) reports the stream start for its table,
 * and the table's `chapters.txt` is aligned to it; without the token it reports nothing and `debug=1` says why.
 * With `replay=rackwon` a rack won saves OBS's replay buffer once (control level 3), an unknown moment name is
 * named by the debug chip, and what the page found at load saves nothing.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { Step } from '../../shared/protocol/steps';
import { chromiumAvailable, launchChromium } from '../helpers/browser';
import { createEvent, recordStep, tableMatch, type CreatedEvent } from '../helpers/events';
import { api, startTestServer } from '../helpers/server';
import { ensureBuilt } from '../helpers/global-setup';

const hasChromium = chromiumAvailable();
const ball: Step = { shot: { call: { ball: 1 }, pocketed: 1 } };
const BREAK: Step = { shot: { call: 'safety', breakRails: { objectBalls: 2, cueBall: true } } };

/** A stand-in for obs-browser's `window.obsstudio`: control level 3, counts replay saves, not live at load. */
const OBS_STAND_IN = `
  window.__replays = 0;
  window.obsstudio = {
    getControlLevel: (cb) => cb(3),
    getStatus: (cb) => cb({ streaming: false, recording: false, replaybuffer: true }),
    saveReplayBuffer: () => { window.__replays++; },
  };`;

describe.skipIf(!hasChromium)('table overlay: OBS stream start and replay buffer (Chromium)', () => {
  let server: RunningServer;
  let browser: Browser;
  let ev: CreatedEvent;
  let table: string;
  let match: { id: string; scorerToken: string };

  beforeAll(async () => {
    await ensureBuilt();
    server = await startTestServer();
    browser = await launchChromium();
    ev = await createEvent(server.url, {
      name: 'Winter Open',
      date: '2026-12-03',
      defaults: { discipline: '14-1', ruleset: 'nba', targets: [40, 40] },
      tables: ['TV table'],
      roster: [{ name: 'Ann Lee' }, { name: 'Ken Watanabe' }],
    });
    table = ev.event.tables[0]!.id;
    match = await tableMatch(server.url, ev, table, [ev.event.roster[0]!.id, ev.event.roster[1]!.id], true);
    await recordStep(server.url, match, BREAK);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(query: string, hash: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.addInitScript(OBS_STAND_IN);
    await page.goto(`${server.url}/overlay/table/${ev.id}/${table}?${query}${hash}`);
    await page.waitForSelector('[data-f="scorebug"]');
    return page;
  }

  it('without the token: nothing reported, debug=1 says why', async () => {
    const page = await open('debug=1', '');
    await page.evaluate(() => window.dispatchEvent(new Event('obsStreamingStarted')));
    await page.waitForSelector('[data-f="debug-obs"]');
    expect(await page.textContent('[data-f="debug-obs"]')).toContain('no #token=');
    expect((await api(server.url, `/api/events/${ev.id}/tables/${table}/stream-start`)).body).toEqual({ streamStart: null });
    await page.close();
  });

  it('obsStreamingStarted reports the stream start for the table; chapters.txt starts at 0:00', async () => {
    const page = await open('', `#token=${ev.organiserToken}`);
    const before = Date.now();
    await page.evaluate(() => window.dispatchEvent(new Event('obsStreamingStarted')));
    await expect
      .poll(async () => (await api(server.url, `/api/events/${ev.id}/tables/${table}/stream-start`)).body.streamStart?.source, { timeout: 10_000 })
      .toBe('streaming');
    const { streamStart } = (await api(server.url, `/api/events/${ev.id}/tables/${table}/stream-start`)).body;
    expect(Math.abs(streamStart.at - before)).toBeLessThan(5_000);
    const chapters = await api(server.url, `/api/matches/${match.id}/chapters.txt`);
    expect(chapters.status).toBe(200);
    expect(chapters.body).toBe('0:00 Ann Lee vs Ken Watanabe\n');
    // A recording started after the stream does not move it.
    await page.evaluate(() => window.dispatchEvent(new Event('obsRecordingStarted')));
    expect((await api(server.url, `/api/events/${ev.id}/tables/${table}/stream-start`)).body.streamStart).toEqual(streamStart);
    await page.close();
  });

  it('replay=rackwon saves the replay buffer on a rack won; an unknown name is named by debug=1', async () => {
    const page = await open('replay=rackwon,bogus&debug=1', '');
    await page.waitForSelector('[data-f="debug-unknown"]');
    expect(await page.textContent('[data-f="debug-unknown"]')).toContain('replay=bogus');
    // B runs 13: no rack won yet, nothing saved.
    for (let i = 0; i < 13; i++) await recordStep(server.url, match, ball);
    await page.waitForSelector('[data-f="run"]:has-text("13")');
    expect(await page.evaluate(() => (window as unknown as { __replays: number }).__replays)).toBe(0);
    // The 14th ball: a continuous re-rack, rack 1 won by B.
    await recordStep(server.url, match, ball);
    await page.waitForFunction(() => (window as unknown as { __replays: number }).__replays === 1, undefined, { timeout: 10_000 });
    await recordStep(server.url, match, ball);
    await page.waitForSelector('[data-f="run"]:has-text("15")');
    expect(await page.evaluate(() => (window as unknown as { __replays: number }).__replays)).toBe(1);
    await page.close();
  });
});
