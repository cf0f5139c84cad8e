/**
 * The launcher in real headless Chromium at phone size against a real in-process server: every field has a
 * programmatic label, "who breaks" reaches the server, a double tap on "Create match" creates one match, and
 * the confirmation with the new match's links scrolls into view while the names are cleared; the scorer
 * link is handed off as a QR code (decoded from a screenshot of the page) and a "copy link" button, on the
 * new match's card and on each listed match this browser holds the token of.
 * Screenshots: artifacts/screenshots/launcher-created-390.png, launcher-handoff-qr-390.png.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningServer } from '../../server/app';
import type { MatchState } from '../../shared/protocol/state';
import type { MatchSummary } from '../../shared/protocol/wire';
import { chromiumAvailable, decodeQr, launchChromium, screenshotDir } from '../helpers/browser';
import { recordStep, stepsToWin } from '../helpers/events';
import { startTestServer } from '../helpers/server';
import { ensureBuilt } from '../helpers/global-setup';

const run = chromiumAvailable();

let server: RunningServer;
let browser: Browser;
let dataDir: string;

describe.skipIf(!run)('launcher in Chromium', () => {
  beforeAll(async () => {
    await ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'cuecast-launcher-'));
    server = await startTestServer({ dataDir });
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('labels, who breaks, one match per double tap, confirmation with links', { timeout: 60_000 }, async () => {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => console.error('[page error]', e.message));
    // Hold the create request a moment, so the second tap lands while it is in flight.
    await page.route('**/api/matches', async (route) => {
      if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    await page.goto(`${server.url}/`);
    await page.getByTestId('new-match').waitFor();

    // Every input and select (also those shown only for Rotation or a score in progress) is labelled.
    const unlabelled = () =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select')]
          .filter((el) => el.labels?.length === 0 && !el.getAttribute('aria-label'))
          .map((el) => el.outerHTML.slice(0, 80)),
      );
    await page.getByTestId('d-rotation').click();
    await page.getByTestId('in-progress').check();
    expect(await unlabelled()).toEqual([]);
    await page.getByTestId('in-progress').uncheck();
    await page.getByTestId('d-14-1').click();
    expect(await unlabelled()).toEqual([]);

    // Accessible names are exactly the visible labels.
    await page.getByRole('textbox', { name: 'Player A', exact: true }).fill('Zed');
    await page.getByRole('textbox', { name: 'Player B', exact: true }).fill('Yan');
    expect(await page.getByRole('spinbutton', { name: 'Target (handicap) A', exact: true }).inputValue()).toBe('100');
    expect(await page.getByRole('combobox', { name: 'Ruleset', exact: true }).count()).toBe(1);
    expect(await page.getByTestId('breaker-B').textContent()).toContain('Yan');
    await page.getByTestId('breaker-B').click();

    // Double tap inside one task: the second click arrives before the page re-renders.
    await page.getByTestId('create').evaluate((b: HTMLButtonElement) => {
      b.click();
      b.click();
    });
    await expect.poll(() => page.getByTestId('create').isDisabled()).toBe(true);
    expect(await page.getByTestId('create').textContent()).toContain('Creating');
    const card = page.getByTestId('created');
    await card.waitFor({ timeout: 10_000 });
    expect(await card.textContent()).toContain('Match created: Zed vs Yan');
    await expect.poll(() => card.evaluate((el) => el.getBoundingClientRect().top >= 0 && el.getBoundingClientRect().top < window.innerHeight)).toBe(true);
    await page.screenshot({ path: join(screenshotDir(), 'launcher-created-390.png'), fullPage: true });

    const list = (await (await fetch(`${server.url}/api/matches`)).json()) as { matches: MatchSummary[] };
    const mine = list.matches.filter((m) => m.names[0] === 'Zed');
    expect(mine).toHaveLength(1);
    const id = mine[0]!.id;
    expect(await card.getAttribute('data-id')).toBe(id);
    const { state } = (await (await fetch(`${server.url}/api/matches/${id}`)).json()) as { state: MatchState };
    expect([state.turn, state.breakShot]).toEqual(['B', true]);

    // The names are cleared (a further tap cannot repeat the match); the links lead to the new match.
    expect([await page.getByTestId('player-a').inputValue(), await page.getByTestId('player-b').inputValue()]).toEqual(['', '']);
    expect(await card.getByTestId('created-scorer').getAttribute('href')).toBe(`/scorer/${id}`);
    expect(await card.getByTestId('created-overlay').getAttribute('href')).toBe(`${server.url}/overlay/${id}`);
    await card.getByTestId('created-scorer').click();
    await page.waitForURL(`**/scorer/${id}`);
    await page.locator('[data-testid=status][data-status=live]').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('notice').count()).toBe(0); // the token was saved: not read-only
    await page.getByTestId('break-panel').waitFor();
    expect(await page.getByTestId('break-panel').textContent()).toContain('Opening break — Yan');
    await ctx.close();
  });

  test('score in progress: fouls (on two fouls), innings, high runs and rack reach the server', { timeout: 60_000 }, async () => {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => console.error('[page error]', e.message));
    await page.goto(`${server.url}/`);
    await page.getByTestId('new-match').waitFor();
    await page.getByTestId('player-a').fill('Uma');
    await page.getByTestId('player-b').fill('Vic');
    await page.getByTestId('in-progress').check();
    await page.getByRole('spinbutton', { name: 'Score A', exact: true }).fill('40');
    await page.getByRole('spinbutton', { name: 'Score B', exact: true }).fill('31');
    await page.getByRole('combobox', { name: 'Fouls in a row A', exact: true }).selectOption('2');
    await page.getByRole('combobox', { name: 'Fouls in a row B', exact: true }).selectOption('1');
    await page.getByRole('spinbutton', { name: 'Innings A', exact: true }).fill('9');
    await page.getByRole('spinbutton', { name: 'Innings B', exact: true }).fill('8');
    await page.getByRole('spinbutton', { name: 'High run A', exact: true }).fill('14');
    await page.getByRole('spinbutton', { name: 'High run B', exact: true }).fill('11');
    await page.getByRole('spinbutton', { name: 'Rack', exact: true }).fill('4');
    await page.getByRole('spinbutton', { name: 'Balls on table', exact: true }).fill('9');
    await page.getByTestId('start-fields').screenshot({ path: join(screenshotDir(), 'launcher-in-progress-390.png') });
    await page.getByTestId('create').click();
    const card = page.getByTestId('created');
    await card.waitFor({ timeout: 10_000 });
    const id = (await card.getAttribute('data-id'))!;
    const { state } = (await (await fetch(`${server.url}/api/matches/${id}`)).json()) as { state: MatchState };
    expect([state.score, state.fouls, state.onTwoFouls, state.innings, state.highRun, state.rack, state.ballsOnTable, state.turn]).toEqual([
      [40, 31],
      [2, 1],
      [true, false],
      [9, 8],
      [14, 11],
      4,
      9,
      'A',
    ]);
    // The form is back to a fresh match for the next one.
    expect(await page.getByTestId('in-progress').isChecked()).toBe(false);
    await page.getByTestId('in-progress').check();
    expect(await page.getByTestId('start-fouls-A').inputValue()).toBe('0');
    expect(await page.getByTestId('start-rack').inputValue()).toBe('1');
    await ctx.close();
  });

  test('a set-up the server would refuse is refused in the page language, naming the field, and nothing is created', { timeout: 60_000 }, async () => {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => console.error('[page error]', e.message));
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') posts.push(r.url());
    });
    await page.goto(`${server.url}/?lang=ja`);
    await page.getByTestId('new-match').waitFor();
    await page.getByTestId('player-a').fill('Ann\u200f');
    await page.getByTestId('player-b').fill('Bob');
    await page.getByTestId('create').click();
    expect(await page.getByTestId('create-error').textContent()).toBe('プレイヤーA：制御文字や文字方向の記号を取り除いてください');
    await page.getByTestId('player-a').fill('Ann');
    await page.getByTestId('target-a').fill('20000');
    await page.getByTestId('create').click();
    expect(await page.getByTestId('create-error').textContent()).toBe('目標点 A：1〜10000 の整数');
    await page.screenshot({ path: join(screenshotDir(), 'launcher-refused-ja-390.png'), fullPage: true });
    expect(posts).toEqual([]);
    await ctx.close();
  });

  test('scorer hand-off: the link as a QR code that decodes to the scorer link, and "copy link"', { timeout: 60_000 }, async () => {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => console.error('[page error]', e.message));
    await page.goto(`${server.url}/`);
    await page.getByTestId('player-a').fill('Qin');
    await page.getByTestId('player-b').fill('Rui');
    await page.getByTestId('create').click();
    const card = page.getByTestId('created');
    await card.waitFor({ timeout: 10_000 });
    const id = (await card.getAttribute('data-id'))!;
    const token = await page.evaluate((k) => localStorage.getItem(k), `cuecast.token.${id}`);
    expect(token).toMatch(/^[\w-]{32}$/);
    const link = `${server.url}/scorer/${id}#token=${token}`;

    // The card shows the QR code; decoded from the screen it is the scorer link with its token.
    const qr = card.getByTestId('created-handoff').getByTestId('qr');
    await qr.scrollIntoViewIfNeeded();
    const box = (await qr.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(150); // big enough to scan from a tablet
    expect(await decodeQr(qr)).toBe(link);
    expect(await card.textContent()).not.toContain(token!); // the token is in the code, never printed
    await page.screenshot({ path: join(screenshotDir(), 'launcher-handoff-qr-390.png'), fullPage: true });

    // "Copy link" puts the same link on the clipboard and says so.
    await card.getByTestId('copy-link').click();
    await expect.poll(() => card.getByTestId('copy-link').textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    // The list: a match whose token this browser holds has a QR toggle; its code decodes to its own link.
    const row = page.locator(`[data-testid=match-row][data-id="${id}"]`);
    await row.getByTestId('qr-toggle').click();
    expect(await row.getByTestId('qr-toggle').getAttribute('aria-expanded')).toBe('true');
    expect(await decodeQr(row.getByTestId('qr'))).toBe(link);
    await row.getByTestId('qr-toggle').click();
    expect(await row.getByTestId('qr').count()).toBe(0);

    // A match created elsewhere (no token in this browser): no QR code, no copy of a link that cannot score.
    const other = (await (
      await fetch(`${server.url}/api/matches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ discipline: '14-1', players: ['Sol', 'Tam'] }),
      })
    ).json()) as { id: string };
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    const foreign = page.locator(`[data-testid=match-row][data-id="${other.id}"]`);
    await foreign.waitFor();
    expect(await foreign.getByTestId('qr-toggle').count()).toBe(0);

    // A finished match says so in words beside its ✓; an unfinished one has no marker.
    const setup = { discipline: '14-1', ruleset: 'nba', targets: [3, 3], players: ['Uma', 'Vic'] };
    const won = (await (
      await fetch(`${server.url}/api/matches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(setup) })
    ).json()) as { id: string; scorerToken: string };
    for (const step of stepsToWin(setup)) await recordStep(server.url, won, step);
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    const wonRow = page.locator(`[data-testid=match-row][data-id="${won.id}"]`);
    await wonRow.getByTestId('finished-mark').waitFor();
    expect(await wonRow.getByTestId('finished-mark').textContent()).toBe('✓ Finished');
    expect(await foreign.getByTestId('finished-mark').count()).toBe(0);

    // Scanning the code on a tablet opens a console that records.
    const tablet = await browser.newContext({ viewport: { width: 800, height: 1280 }, hasTouch: true });
    const tab = await tablet.newPage();
    await tab.goto((await decodeQr(qr))!);
    await tab.locator('[data-testid=scorer][data-token=valid]').waitFor({ timeout: 10_000 });
    await tablet.close();
    await ctx.close();
  });
});
