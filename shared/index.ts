/** Public surface of the pure shared code: protocol types and the rules engine. */
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
