/**
 * Public surface of the pure shared code for the server, the tests, the benchmarks and the scripts: protocol
 * types and the rules engine. Nothing in shared/ imports zod, Node or anything outside shared/
 * (tests/protocol/shared-pure.test.ts); the server's checks of untrusted input (`parseSetup`, `parseStep`, the
 * envelopes) are its zod schemas in server/protocol/.
 */
export * from './protocol/vocabulary';
export * from './protocol/version';
export * from './protocol/errors';
export * from './protocol/steps';
export * from './protocol/setup';
export * from './protocol/state';
export * from './protocol/wire';
export * from './protocol/stats-delta';
export * from './rules/version';
export * from './engine';
export * from './protocol/event';
export * from './countries';
export * from './cards';
