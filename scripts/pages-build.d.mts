/** Types for scripts/pages-build.mjs (used by the test suite's global setup). */
export function distIsStale(): boolean;
export function buildPages(): void;
export function ensureBuilt(): Promise<boolean>;
