/**
 * An OBS overlay address with a part missing — `/overlay`, `/overlay/`, `/overlay/table`, `/overlay/table/<event>`
 * (a table URL cut short when pasted) — shows the visible "not found" card with the address to check, in the
 * overlay's language, never the server's bare "Cannot GET" text or an empty page (issue 10 §6, docs/streamers.md "A wrong
 * address"). Real headless Chromium against a real server.
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../helpers/browser';
import { createEvent } from '../helpers/events';
import { OverlayHarness } from '../helpers/overlay-harness';

const hasChromium = chromiumAvailable();

describe.skipIf(!hasChromium)('overlay addresses with a part missing', () => {
  const h = new OverlayHarness();
  h.install();

  it('show the not-found card naming what is missing, in the overlay’s language', async () => {
    const ev = await createEvent(h.url);
    const cases: [string, string][] = [
      ['/overlay', 'No match in this address'],
      ['/overlay/', 'No match in this address'],
      ['/overlay/table', 'No table in this address'],
      ['/overlay/table/', 'No table in this address'],
      [`/overlay/table/${ev.id}`, 'No table in this address'],
      [`/overlay/table/${ev.id}/`, 'No table in this address'],
      [`/overlay/table/${ev.id}?lang=ja`, 'このアドレスには台が指定されていません'],
      ['/overlay/table?lang=zh-TW', '網址中沒有球檯'],
    ];
    for (const [path, title] of cases) {
      const page = await h.browser.newPage({ viewport: { width: 1280, height: 720 } });
      try {
        const res = await page.goto(`${h.url}${path}`);
        expect(res?.status(), path).toBe(200);
        const card = page.locator('[data-f="not-found"]');
        await card.waitFor({ timeout: 10_000 });
        expect(await card.locator('.nf-title').textContent(), path).toBe(title);
        expect(await card.locator('.nf-url').textContent(), path).toBe(`${h.url}${path}`);
        expect(await card.isVisible(), path).toBe(true);
      } finally {
        await page.close();
      }
    }
  });
});
