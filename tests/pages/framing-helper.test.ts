/**
 * The framing helper (issue 29) on the launcher and the organiser page, in real headless Chromium: a still of the
 * table camera is loaded (read in the browser: no request carries it), the scorebug's box is dragged over it and
 * moved with the keys, never out of the frame, and the OBS URL it gives puts the overlay's scorebug exactly there.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable, screenshotDir, settled } from '../helpers/browser';
import { createEvent, EVENT, tableMatch } from '../helpers/events';
import { OverlayHarness } from '../helpers/overlay-harness';
import { poolTablePicture } from '../helpers/composite';

const hasChromium = chromiumAvailable();
/** The camera still: the pool-table picture the composites are taken over. */
const STILL = { name: 'camera.svg', mimeType: 'image/svg+xml', buffer: poolTablePicture() };

/** Drag the helper's box by (dx, dy) screen px. */
async function drag(page: Page, dx: number, dy: number): Promise<void> {
  const box = (await page.getByTestId('framing-box').first().boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 4 });
  await page.mouse.move(x + dx, y + dy, { steps: 4 });
  await page.mouse.up();
}

describe.skipIf(!hasChromium)('the framing helper', () => {
  const h = new OverlayHarness();
  h.install();

  /** Use the helper open in `page`: load the still, drag the box, check the clamp and the URL's place on the overlay. */
  async function use(page: Page, where: string): Promise<void> {
    const uploads: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'GET') uploads.push(r.url());
    });
    const helper = page.getByTestId('framing').first();
    await helper.locator('summary').click();
    await helper.getByTestId('framing-photo').setInputFiles(STILL);
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="framing-still"]');
      return !!img && img.complete && img.naturalWidth > 0;
    });
    const url0 = await helper.getByTestId('framing-url').inputValue();
    expect(url0, where).not.toContain('x=');
    // Dragged up and left: the place follows, in 1080p px.
    await drag(page, -120, -200);
    const x = Number(await helper.getAttribute('data-x'));
    const y = Number(await helper.getAttribute('data-y'));
    expect(x, where).toBeLessThan(360);
    expect(y, where).toBeLessThan(930);
    // Far beyond the frame: the box stays inside it (the bar: 1200 × 96 at size m).
    await drag(page, -3000, 3000);
    expect([Number(await helper.getAttribute('data-x')), Number(await helper.getAttribute('data-y'))], where).toEqual([0, 1080 - 96]);
    // The keys move it too (10 px a press).
    await helper.getByTestId('framing-box').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowUp');
    expect([Number(await helper.getAttribute('data-x')), Number(await helper.getAttribute('data-y'))], where).toEqual([10, 1080 - 96 - 10]);
    const url = await helper.getByTestId('framing-url').inputValue();
    expect(url, where).toContain('x=10&y=974');
    await page.screenshot({ path: join(screenshotDir(), `framing-helper-${where}.png`) });
    expect(
      uploads.filter((u) => !u.includes('/socket.io/')),
      `${where}: the still is sent nowhere`,
    ).toEqual([]);
    // The URL's place is where the overlay draws the scorebug.
    const obs = await h.browser.newPage({ viewport: { width: 1920, height: 1080 } });
    try {
      await obs.goto(`${url}&anim=0`);
      await obs.locator('[data-f="score-A"]').waitFor({ timeout: 30_000 });
      await settled(obs);
      const r = await obs.locator('.gfx .main').evaluate((e) => e.getBoundingClientRect().toJSON() as DOMRect);
      expect([Math.round(r.x), Math.round(r.y)], where).toEqual([10, 974]);
    } finally {
      await obs.close();
    }
  }

  it('on the launcher: load a still, drag the scorebug, get the OBS URL with its place', async () => {
    const page = await h.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    try {
      await page.goto(`${h.url}/`);
      await page.getByRole('textbox', { name: 'Player A', exact: true }).fill('Zed');
      await page.getByRole('textbox', { name: 'Player B', exact: true }).fill('Yan');
      await page.getByTestId('create').click();
      await page.getByTestId('created').waitFor({ timeout: 30_000 });
      await use(page, 'launcher');
    } finally {
      await page.close();
    }
  });

  it('on the organiser page: the table overlay’s URL with its place', async () => {
    const ev = await createEvent(h.url, EVENT);
    await tableMatch(h.url, ev, 'table-1', ['p1', 'p2'], true);
    const page = await h.browser.newPage({ viewport: { width: 1280, height: 1000 } });
    try {
      await page.goto(`${h.url}/event/${ev.id}?lang=en#token=${ev.organiserToken}`);
      await page.getByTestId('framing').first().waitFor({ timeout: 30_000 });
      await use(page, 'organiser');
    } finally {
      await page.close();
    }
  });
});
