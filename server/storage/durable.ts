/** Durable file writes for the embedded stores: a directory's entries fsynced, a file replaced atomically. */
import { open, rename } from 'node:fs/promises';

/** fsync directory `dir`, so a file created or renamed in it survives a crash. */
export async function syncDir(dir: string): Promise<void> {
  const h = await open(dir, 'r');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}

/**
 * Replace `path` with `text` atomically and durably: written to `<path>.tmp`, fsynced, renamed over `path`,
 * and the directory `dir` fsynced. A crash leaves the old file or the new one, never a torn one.
 */
export async function writeDurably(dir: string, path: string, text: string | Uint8Array): Promise<void> {
  const h = await open(`${path}.tmp`, 'w');
  try {
    await h.writeFile(text);
    await h.sync();
  } finally {
    await h.close();
  }
  await rename(`${path}.tmp`, path);
  await syncDir(dir);
}

/** Create `path` empty, failing when it exists (to claim a new id before writing it with `writeDurably`). */
export async function claimFile(path: string): Promise<void> {
  await (await open(path, 'wx')).close();
}
