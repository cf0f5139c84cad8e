/**
 * Given-when-then helpers for rules tests (Emmett style): given a set-up and steps, when a step, then the state.
 */
import { expect } from 'vitest';
import { applyStep, type Match, type MatchState, newMatch, type RulesError, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { parseStep } from '../../server/protocol/step-schemas';

/** A fresh or picked-up match from set-up input, with the given steps applied (each must be accepted). */
export function given(setup: Record<string, unknown>, steps: unknown[] = []): Match {
  let m = newMatch(parseSetup({ players: ['A', 'B'], ...setup }));
  for (const s of steps) m = accept(m, s);
  return m;
}

/** Apply a step that must be accepted. */
export function accept(m: Match, step: unknown): Match {
  const r = applyStep(m, parseStep(step));
  if (!r.ok) throw new Error(`step ${JSON.stringify(step)} refused: ${r.error.code}: ${r.error.message}`);
  return r.match;
}

/** Apply a step that must be refused; returns the error and checks the state did not change. */
export function refuse(m: Match, step: unknown): RulesError {
  const before = JSON.stringify(view(m));
  const r = applyStep(m, parseStep(step));
  if (r.ok) throw new Error(`step ${JSON.stringify(step)} was accepted, expected a refusal`);
  expect(JSON.stringify(view(m))).toBe(before);
  return r.error;
}

/** Check a subset of the public state. */
export function expectState(m: Match, expected: Partial<MatchState>): void {
  const state = view(m) as unknown as Record<string, unknown>;
  const picked = Object.fromEntries(Object.keys(expected).map((k) => [k, state[k]]));
  expect(picked).toEqual(expected);
}

export const fresh141 = { discipline: '14-1' as const, ruleset: 'nba' as const, targets: [100, 100] as [number, number] };
export const freshRot = { discipline: 'rotation' as const, targets: [120, 120] as [number, number] };
