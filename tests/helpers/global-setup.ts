/**
 * vitest globalSetup: build the web pages once per test run, only when web/dist or overlay/dist is missing or older
 * than its sources (the same check `npm start` uses). Page suites may also call `ensureBuilt()` directly;
 * a lock makes concurrent callers wait for one build.
 */
import { ensureBuilt } from '../../scripts/pages-build.mjs';

export { distIsStale, ensureBuilt } from '../../scripts/pages-build.mjs';

export default async function setup(): Promise<void> {
  await ensureBuilt();
}
