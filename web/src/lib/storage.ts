import type { OutboxStorage } from './outbox';

/** The browser's localStorage, or null where it is blocked (private mode, sandboxed frames). */
export function localStore(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The value stored under `key`, or null (none stored, no storage, or storage refusing to be read). */
export function readItem(storage: OutboxStorage | null, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Store `value` under `key` (null: remove it); a storage refusing it (private mode) leaves it for this page only. */
export function writeItem(storage: OutboxStorage | null, key: string, value: string | null): void {
  try {
    if (value !== null) storage?.setItem(key, value);
    else storage?.removeItem(key);
  } catch {
    /* private mode: the value lives for this page only */
  }
}
