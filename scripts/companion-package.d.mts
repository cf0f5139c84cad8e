/** Types for scripts/companion-package.mjs (used by tests/companion/package.test.ts). */
export function companionPackagePath(): string;
export function packageCompanionModule(): string;
