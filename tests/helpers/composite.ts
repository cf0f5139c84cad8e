/**
 * Composite screenshots of an OBS overlay as OBS makes them over the camera: the pool-table picture
 * (docs/screenshots/pool-table.svg) behind the transparent page, saved at 1080p and downscaled to 720p in the
 * browser (as OBS's output scaling does). Used by the box test (overlay-box.test.ts) and the shot-clock overlay
 * suite (overlay-clock.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { REPO_ROOT } from './server';

const TABLE_SVG = readFileSync(join(REPO_ROOT, 'docs', 'screenshots', 'pool-table.svg'), 'utf8');

/** The pool-table picture itself (SVG), e.g. as the camera still a page's file input takes. */
export function poolTablePicture(): Buffer {
  return Buffer.from(TABLE_SVG);
}

/** Put the pool-table picture behind the transparent overlay in `page`. */
export async function onTable(page: Page): Promise<void> {
  await page.addStyleTag({
    content: `html { background: url("data:image/svg+xml;base64,${Buffer.from(TABLE_SVG).toString('base64')}") center / cover no-repeat; }`,
  });
}

/**
 * Save the 1080p screenshot `png` as `<base>-1080p` and the same scaled to 1280×720 as `<base>-720p`: JPEG
 * (quality 85) when `jpeg` (the docs), else PNG (artifacts/).
 */
export async function saveComposite(browser: Browser, png: Buffer, base: string, jpeg: boolean): Promise<void> {
  const ext = jpeg ? 'jpg' : 'png';
  const opts = jpeg ? ({ type: 'jpeg', quality: 85 } as const) : ({ type: 'png' } as const);
  const tab = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  try {
    await tab.setContent(
      `<body style="margin:0"><img style="width:100vw;height:100vh;display:block" src="data:image/png;base64,${png.toString('base64')}"></body>`,
    );
    await tab.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    await tab.screenshot({ ...opts, path: `${base}-1080p.${ext}` });
    await tab.setViewportSize({ width: 1280, height: 720 });
    await tab.screenshot({ ...opts, path: `${base}-720p.${ext}` });
  } finally {
    await tab.close();
  }
}
