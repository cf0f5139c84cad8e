/**
 * The draw (issue 27): pure, rebuilt from its definition and entries, property-tested (tests/draw/).
 * Formats, seeding, byes and the bracket's shape: structure.ts; the state and its queries: state.ts; group
 * tables: standings.ts; the draw page's view and per-change delta: view.ts; a match's place as one line:
 * place-label.ts; which options each format takes: options.ts; the random draw's generator: prng.ts.
 */
export * from './types';
export * from '../prng';
export * from './structure';
export * from './options';
export * from './standings';
export * from './state';
export * from './view';
export * from './labels';
export * from './place-label';
