/**
 * Public surface of the pure shared code for the server, the tests, the benchmarks and the scripts: protocol
 * types, the rules engine, and the zod schemas (`parseSetup`, `parseStep`). Pages do not import this file (it
 * pulls in zod): they import the zod-free modules they need (tests/pages/no-zod.test.ts checks the bundles).
 */
export * from './protocol/vocabulary';
export * from './protocol/version';
export * from './protocol/errors';
export * from './protocol/steps';
export * from './protocol/step-schemas';
export * from './protocol/setup';
export * from './protocol/setup-schemas';
export * from './protocol/zod-issues';
export * from './protocol/state';
export * from './protocol/wire';
export * from './protocol/stats-delta';
export * from './rules/version';
export * from './engine';
export * from './protocol/event';
export * from './countries';
export * from './cards';
