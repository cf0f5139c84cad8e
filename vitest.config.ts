import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Three tiers (vitest projects); `npm test` runs all of them, `npm run test:unit|test:server|test:browser` one.
 * A test file's tier follows from where it lives or how its name ends — never from a list of files:
 * - unit: a file under one of the UNIT_FOLDERS (rules, case bank, protocol, scorer console logic, the tables'
 *   pure parts, repository checks, and tests/services: the server's services over the in-memory stores with a
 *   fake clock), or any file named `*.unit.test.ts` wherever it lives (e.g. the live-client core's fake-port
 *   tests in tests/client). No build, no Redis, no browser, no socket: a unit test that needs one is in the
 *   wrong place;
 * - browser: a file under tests/pages or tests/e2e: the pages and the end-to-end matches in headless
 *   Chromium; only this tier builds the pages;
 * - server: every other test file — tests/server (what only the sockets, HTTP, the real Redis and Cluster and
 *   real disks show), tests/client, tests/companion, and any new folder, so a new suite runs (with Redis at
 *   hand) instead of being left out.
 */
const UNIT_FOLDERS = ['rules', 'draw', 'cases', 'protocol', 'scorer', 'services', 'events', 'repo'];
const BROWSER_FOLDERS = ['pages', 'e2e'];
const UNIT = [...UNIT_FOLDERS.map((f) => `tests/${f}/**/*.test.ts`), 'tests/**/*.unit.test.ts'];
const BROWSER = BROWSER_FOLDERS.map((f) => `tests/${f}/**/*.test.ts`);
const SERVER = { include: ['tests/**/*.test.ts'], exclude: [...configDefaults.exclude, ...UNIT, ...BROWSER] };

export default defineConfig({
  test: {
    environment: 'node',
    // Timeouts catch a hung test, never a slow one: the Chromium suites take up to 25 s per test on a quiet
    // 2-core machine (28 page loads in overlay-colours) and a loaded CI machine can double that.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // 2-core machines: keep workers low; suites that share Redis or Chromium serialise themselves.
    maxWorkers: 2,
    projects: [
      // The unit tier's files are pure (no globals kept between files), so they share one module graph per worker.
      { extends: true, test: { name: 'unit', include: UNIT, isolate: false } },
      { extends: true, test: { name: 'server', ...SERVER } },
      // Build the web pages once per run (only when stale) before any page suite starts. Each page suite starts its own
      // server and Chromium and sets no globals, so the files share one module graph per worker too (the server's
      // modules are imported once per worker, not once per file: import time 11 s instead of about 130 s).
      { extends: true, test: { name: 'browser', include: BROWSER, globalSetup: ['tests/helpers/global-setup.ts'], isolate: false } },
    ],
  },
});
