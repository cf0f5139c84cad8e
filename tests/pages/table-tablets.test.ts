/**
 * Table tablets in real Chromium (issue 27 §4), on a server over the real Redis: the organiser page's "Table
 * tablets" section issues a table's scorer token and shows the tablet's address as a QR code that decodes to it;
 * the address opens the table's tablet, which waits for a match, then scores the match put on the table (token
 * checked valid) and says it waits for the next one once it is won; revoked on the organiser page, the tablet
 * reopened is read-only (its token refused). Read-only organiser pages show no buttons. A tablet address cut short
 * says what is missing. Screenshots: artifacts/screenshots/organiser-tablets-1440.png, table-tablet-800.png.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { chromiumAvailable, decodeQr, launchChromium, screenshotDir } from '../helpers/browser';
import { createEvent, recordStep, stepsToWin, tableMatch, type CreatedEvent } from '../helpers/events';
import { ensureBuilt } from '../helpers/global-setup';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, startTestServer } from '../helpers/server';

const hasChromium = chromiumAvailable();
const redis = await requireRedis();

describe.skipIf(!hasChromium || !redis.available)('table tablets in Chromium', () => {
  const prefix = testPrefix('table-tablets');
  let s: RunningServer;
  let browser: Browser;
  let ev: CreatedEvent;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    await ensureBuilt();
    s = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    browser = await launchChromium();
    ev = await createEvent(s.url);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await dropPrefix(redis.url, prefix);
    expect(pageErrors).toEqual([]);
  });

  const open = async (url: string, viewport = { width: 1440, height: 1000 }): Promise<Page> => {
    const page = await browser.newPage({ viewport });
    page.on('pageerror', (e) => pageErrors.push(`${url}: ${e.message}`));
    await page.goto(url);
    return page;
  };

  it('issues a token as a QR code, the tablet follows the table with it, revoked it is refused', { timeout: 120_000 }, async () => {
    const readOnly = await open(`${s.url}/event/${ev.id}?lang=en`);
    await readOnly.getByTestId('tablets').waitFor();
    expect(await readOnly.getByTestId('tablet-issue').count()).toBe(0);
    await readOnly.close();

    const organiser = await open(`${s.url}/event/${ev.id}?lang=en#token=${ev.organiserToken}`);
    const row = organiser.locator('[data-testid="tablet"][data-table="table-1"]');
    await row.getByTestId('tablet-issue').click();
    await organiser.locator('[data-testid="tablet"][data-table="table-1"][data-issued="yes"] [data-testid="qr"]').waitFor();
    const link = await row.getByTestId('tablet-link').inputValue();
    expect(link).toMatch(new RegExp(`^${s.url}/scorer/table/${ev.id}/table-1#token=${ev.id}\\.table-1\\.[A-Za-z0-9_-]{32}$`));
    expect(await decodeQr(row.getByTestId('qr'))).toBe(link);
    expect(await row.locator('[data-f="tablet-state"]').textContent()).toMatch(/token issued at/);
    expect(await organiser.locator('[data-testid="tablet"][data-table="tv-table"]').getAttribute('data-issued')).toBe('no');
    await organiser.screenshot({ path: join(screenshotDir(), 'organiser-tablets-1440.png'), fullPage: true });

    // The tablet: no match on the table yet, it waits; the match put on the table opens with the token valid.
    const tablet = await open(link, { width: 800, height: 1280 });
    await tablet.getByTestId('waiting-next').waitFor();
    expect(await tablet.getByTestId('waiting-next').textContent()).toContain('Waiting for the next match on Table 1');
    await tablet.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    const [p1, p2] = ev.event.roster.map((p) => p.id) as [string, string];
    const match = await tableMatch(s.url, ev, 'table-1', [p1, p2], true);
    await tablet.locator(`[data-testid="table-scorer"][data-current="${match.id}"][data-waiting="no"] [data-testid="scorer"][data-token="valid"]`).waitFor();
    // The tablet records: B's miss after A's break (the break comes with the match's own token over REST).
    const win = stepsToWin((await api(s.url, `/api/matches/${match.id}`)).body.setup);
    await recordStep(s.url, match, win[0]!);
    await tablet.locator('[data-testid="scorer"][data-version="1"] [data-testid=status][data-status=live][data-queued="0"]').waitFor();
    await tablet.getByTestId('miss').click();
    await tablet.locator('[data-testid="scorer"][data-version="2"] [data-testid=status][data-status=live][data-queued="0"]').waitFor();
    await tablet.screenshot({ path: join(screenshotDir(), 'table-tablet-800.png') });
    for (const step of win.slice(2)) await recordStep(s.url, match, step);
    // Won, no next match: the tablet waits for the next one (same document).
    await tablet.locator('[data-testid="table-scorer"][data-waiting="yes"] [data-testid="waiting-next"]').waitFor();
    expect(await tablet.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

    // Revoked on the organiser page: the tablet, reopened, is read-only.
    await row.getByTestId('tablet-revoke').click();
    await organiser.locator('[data-testid="tablet"][data-table="table-1"][data-issued="no"]').waitFor();
    expect(await row.getByTestId('qr').count()).toBe(0);
    await tablet.reload();
    await tablet.locator('[data-testid="scorer"][data-token="wrong"]').waitFor();
    await Promise.all([tablet.close(), organiser.close()]);
  });

  it('a tablet address cut short says what is missing', async () => {
    const page = await open(`${s.url}/scorer/table/${ev.id}?lang=en`, { width: 390, height: 800 });
    await page.locator('[role=alert]').waitFor();
    expect(await page.locator('[role=alert]').textContent()).toContain('/scorer/table/<event id>/<table>');
    await page.close();
  });
});
