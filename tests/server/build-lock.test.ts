/**
 * The page-build lock (scripts/pages-build.mjs `acquireLock`) across processes: the page suites run in parallel
 * and each calls `ensureBuilt()`, so one process checks the lock while another removes it. A CI run failed on
 * exactly that (`stat` of a lock removed between `existsSync` and `statSync`). Here several processes take and
 * release one lock many times, as fast as they can, and every step of the wait must tolerate the lock vanishing.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, utimesSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireLock } from '../../scripts/pages-build.mjs';

const dir = mkdtempSync(join(tmpdir(), 'cuecast-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MODULE = pathToFileURL(join(__dirname, '..', '..', 'scripts', 'pages-build.mjs')).href;

/** A child process that takes the lock `rounds` times; inside, it checks that no other holder left its mark. */
function worker(lock: string, marks: string, id: number, rounds: number): Promise<{ code: number | null; err: string }> {
  const code = `
    import { acquireLock } from ${JSON.stringify(MODULE)};
    import { mkdirSync, rmSync } from 'node:fs';
    import { join } from 'node:path';
    for (let i = 0; i < ${rounds}; i++) {
      const release = await acquireLock(${JSON.stringify(lock)}, { waitMs: 60_000, pollMs: 1 });
      const mark = join(${JSON.stringify(marks)}, 'held');
      try { mkdirSync(mark); } catch (e) { console.error('two holders at once: ' + e.code); process.exit(2); }
      rmSync(mark, { recursive: true });
      release();
    }
  `;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('exit', (c) => resolve({ code: c, err: `worker ${id}: ${err}` }));
  });
}

describe('the page-build lock', () => {
  it('four processes take and release one lock 150 times each: never two holders, never an error', async () => {
    const lock = join(dir, 'race.lock');
    const marks = join(dir, 'marks');
    mkdirSync(marks);
    const results = await Promise.all([0, 1, 2, 3].map((id) => worker(lock, marks, id, 150)));
    for (const r of results) expect(r, r.err).toMatchObject({ code: 0 });
    expect(existsSync(lock)).toBe(false);
  }, 60_000);

  it('a lock left by a killed process (older than staleMs) is taken over', async () => {
    const lock = join(dir, 'stale.lock');
    mkdirSync(lock);
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(lock, old, old);
    const release = await acquireLock(lock, { staleMs: 60_000, waitMs: 5_000, pollMs: 10 });
    expect(existsSync(lock)).toBe(true);
    release();
    expect(existsSync(lock)).toBe(false);
  });

  it('a lock still held when the wait ends gives an error that names the lock', async () => {
    const lock = join(dir, 'held.lock');
    mkdirSync(lock);
    await expect(acquireLock(lock, { waitMs: 50, pollMs: 10 })).rejects.toThrow(`for the lock ${lock}`);
  });

  it('a lock that cannot be made (its folder is missing) fails at once instead of waiting', async () => {
    const lock = join(dir, 'no-such-folder', 'x.lock');
    await expect(acquireLock(lock, { waitMs: 60_000 })).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
