/**
 * Headless Chromium for page tests, through playwright-core and Debian's Chromium: its headless shell
 * (`/usr/bin/chromium-headless-shell`, package chromium-headless-shell) when installed, else the browser
 * (`/usr/bin/chromium`, package chromium) in its headless mode. Both are the same Chromium build; the headless shell is
 * the one Playwright's own headless mode runs, and it opens a page in about 0.2 s on a 2-core machine where the
 * browser takes 0.6 s (most page suites open a page per check). `CHROMIUM_PATH` picks either. Or, with
 * `OBS_ENGINE=92`, `103` or `127`, the Chromium OBS embeds (92: OBS 27, 103: OBS 28–30, 127: OBS 31), unpacked from the npm package
 * `@sparticuz/chromium` by `node scripts/obs-engines.mjs` (it runs with the system libraries Debian's chromium
 * brings). Chromium 92 and 103 lack `Element.checkVisibility`, which playwright-core after 1.55 calls: they are driven
 * by playwright-core 1.55 (the `playwright-core-155` alias; it connects to 92.0.4512.0 too).
 * With CI=true a missing browser fails the run; elsewhere the suite is skipped with a message saying what to install.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jsQR from 'jsqr';
import { chromium, type Browser, type Locator } from 'playwright-core';
import { PNG } from 'pngjs';

/** `OBS_ENGINE`: '92', '103' or '127' to run the page tests in that OBS engine; '' for Debian's Chromium. */
export const OBS_ENGINE = process.env.OBS_ENGINE ?? '';
/** Where scripts/obs-engines.mjs unpacks engine `major` (`OBS_ENGINES_DIR`, default node_modules/.cache/obs-chromium). */
const enginePath = (major: string) =>
  join(process.env.OBS_ENGINES_DIR || fileURLToPath(new URL('../../node_modules/.cache/obs-chromium', import.meta.url)), major, 'chromium');
/** Debian's headless shell (package chromium-headless-shell) and browser (package chromium), one Chromium build. */
export const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
/** The executable the page suites launch: `CHROMIUM_PATH`, else the OBS engine, else Debian's headless shell, else its browser. */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH || (OBS_ENGINE ? enginePath(OBS_ENGINE) : existsSync(DEBIAN_HEADLESS_SHELL) ? DEBIAN_HEADLESS_SHELL : DEBIAN_CHROMIUM);

/** True when Chromium can be launched; with CI=true throws when it is missing. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  const msg = OBS_ENGINE
    ? `Chromium ${OBS_ENGINE} (OBS_ENGINE) not found at ${CHROMIUM_PATH}: run node scripts/obs-engines.mjs ${OBS_ENGINE} (and apt-get install -y chromium for its libraries)`
    : `Chromium not found at ${CHROMIUM_PATH}: install it (apt-get install -y chromium-headless-shell, or chromium) or set CHROMIUM_PATH`;
  if (process.env.CI === 'true') throw new Error(msg);
  console.warn(`[skip] ${msg}`);
  return false;
}

/** Launch headless Chromium with the flags this machine needs (no sandbox as root, no background networking). */
export async function launchChromium(): Promise<Browser> {
  const driver = OBS_ENGINE === '92' || OBS_ENGINE === '103' ? ((await import('playwright-core-155')).chromium as unknown as typeof chromium) : chromium;
  const browser = await driver.launch({
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
  if (OBS_ENGINE) console.log(`[browser] OBS engine ${OBS_ENGINE}: Chromium ${browser.version()}`);
  return browser;
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

/**
 * Wait until what the page shows has settled for a measurement: its fonts loaded, then two animation frames, so
 * that every ResizeObserver callback of the last change (the overlay fits names to their slots from one) has run
 * and its DOM update is laid out. A frame-ordered wait, not a timer: on a loaded machine it takes longer, never
 * too short.
 */
export async function settled(page: import('playwright-core').Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
  });
}
