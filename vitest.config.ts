import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    // Build the web pages once per run (only when stale) before any page suite starts.
    globalSetup: ['tests/pages/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // 2-core machines: keep workers low; suites that share Redis or Chromium serialise themselves.
    maxWorkers: 2,
  },
});
