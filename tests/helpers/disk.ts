/**
 * Real-disk fault helpers for the store-fault suites (a small tmpfs that a test fills to its last byte).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Fill the file system of `dir` to its last byte with a new file `<dir>/<name>`; returns its path. */
export function fillDisk(dir: string, name = 'filler'): string {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  try {
    for (const size of [1 << 20, 64 << 10, 4 << 10, 512, 1]) {
      const chunk = Buffer.alloc(size, 1);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw err;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return path;
}
