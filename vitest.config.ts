import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Three tiers (vitest projects); `npm test` runs all of them, `npm run test:unit|test:server|test:browser` one:
 * - unit: rules, case bank, protocol, formatters, page logic, and the server's services over the in-memory
 *   store with a fake clock — no build, no Redis, no browser;
 * - server: the real Redis (and a Redis Cluster), real disks, real sockets — and every test file the other two
 *   tiers do not name, so a suite in a new folder runs (with Redis at hand) instead of being left out;
 * - browser: the pages and the end-to-end matches in headless Chromium; only this tier builds the pages.
 */
const UNIT = ['tests/rules/**/*.test.ts', 'tests/draw/**/*.test.ts', 'tests/cases/**/*.test.ts', 'tests/protocol/**/*.test.ts', 'tests/scorer/**/*.test.ts', 'tests/events/cards-view.test.ts', 'tests/events/table-overlay-extras.test.ts', 'tests/events/start-undo.test.ts', 'tests/services/**/*.test.ts', 'tests/client/live-core.test.ts', 'tests/client/live-clock.test.ts', 'tests/client/clock-face.test.ts', 'tests/repo/doc-links.test.ts', 'tests/repo/api-schemas.test.ts', 'tests/repo/cited-paths.test.ts'];
const BROWSER = ['tests/pages/**/*.test.ts', 'tests/e2e/**/*.test.ts'];
/** tests/server, tests/client (but the live-client core's fake-port tests), tests/events/cards.test.ts, tests/companion, and anything new. */
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
