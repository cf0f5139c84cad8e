import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    // Build the web pages once per run (only when stale) before any page suite starts.
    globalSetup: ['tests/pages/global-setup.ts'],
    // Timeouts catch a hung test, never a slow one: the Chromium suites take up to 25 s per test on a quiet
    // 2-core machine (28 page loads in overlay-colours) and a loaded CI machine can double that.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // 2-core machines: keep workers low; suites that share Redis or Chromium serialise themselves.
    maxWorkers: 2,
  },
});
