/**
 * Headless Chromium for page tests, through playwright-core and Debian's /usr/bin/chromium.
 * With CI=true a missing browser fails the run; elsewhere the suite is skipped with a message saying what to install.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import jsQR from 'jsqr';
import { chromium, type Browser, type Locator } from 'playwright-core';
import { PNG } from 'pngjs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** True when Chromium can be launched; with CI=true throws when it is missing. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  const msg = `Chromium not found at ${CHROMIUM_PATH}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`;
  if (process.env.CI === 'true') throw new Error(msg);
  console.warn(`[skip] ${msg}`);
  return false;
}

/** Launch headless Chromium with the flags this machine needs (no sandbox as root, no background networking). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-quic',
      '--disable-sync',
    ],
  });
}

/** Folder for screenshots kept as test artifacts (artifacts/screenshots, git-ignored). */
export function screenshotDir(): string {
  const dir = join(process.cwd(), 'artifacts', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Decode the QR code in a screenshot of `el` (as a phone camera would read the screen); null when none is found. */
export async function decodeQr(el: Locator): Promise<string | null> {
  const png = PNG.sync.read(await el.screenshot());
  return jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height)?.data ?? null;
}
