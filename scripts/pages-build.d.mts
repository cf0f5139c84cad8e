/** Types for scripts/pages-build.mjs (used by the test suite's global setup). */
export function distIsStale(): boolean;
export function buildPages(): void;
export function ensureBuilt(): Promise<boolean>;
export function acquireLock(lock: string, options?: { waitMs?: number; staleMs?: number; pollMs?: number }): Promise<() => void>;
