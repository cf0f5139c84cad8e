/**
 * Runs scoring cases (docs/case-format.md) through the rules engine. The adapter is thin on purpose:
 * a case's set-up and steps are the product's own vocabulary, so they go to `parseSetup`/`parseStep` as is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyStep, type Match, newMatch, RulesError, SETUP_KEYS, view } from '../../shared/index';
import { parseSetup } from '../../server/protocol/setup-schemas';
import { parseStep } from '../../server/protocol/step-schemas';

/** One field that differs from the case's `expect`. */
export interface Mismatch {
  field: string;
  expected: unknown;
  actual: unknown;
}

/** Result of one case: pass, or the first failing step with its differing fields or error. */
export interface CaseResult {
  id: string;
  title: string;
  file: string;
  passed: boolean;
  /** Index of the failing step in `steps` (absent when the set-up failed). */
  step?: number;
  mismatches?: Mismatch[];
  error?: string;
}

interface CaseFile {
  id?: string;
  title?: string;
  steps?: unknown[];
  [k: string]: unknown;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(canon(a)) === JSON.stringify(canon(b));
function canon(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

/** Run one parsed case file. Never throws: failures are reported in the result. */
export function runCase(c: CaseFile, file: string): CaseResult {
  const id = c.id ?? file;
  const title = c.title ?? '';
  let match: Match;
  try {
    // The case's set-up fields go to the engine as they are; id, title, steps, source stay with the runner.
    match = newMatch(parseSetup(Object.fromEntries(Object.entries(c).filter(([k]) => SETUP_KEYS.has(k)))));
  } catch (e) {
    return { id, title, file, passed: false, error: `set-up refused: ${(e as Error).message}` };
  }
  const steps = c.steps ?? [];
  for (let i = 0; i < steps.length; i++) {
    const raw = steps[i] as Record<string, unknown>;
    try {
      if (raw && typeof raw === 'object' && 'expect' in raw) {
        const state = view(match) as unknown as Record<string, unknown>;
        const mismatches: Mismatch[] = [];
        for (const [field, expected] of Object.entries(raw.expect as Record<string, unknown>)) {
          if (!(field in state)) mismatches.push({ field, expected, actual: '(no such field)' });
          else if (!same(state[field], expected)) mismatches.push({ field, expected, actual: state[field] });
        }
        if (mismatches.length) return { id, title, file, passed: false, step: i, mismatches };
      } else if (raw && typeof raw === 'object' && 'reject' in raw) {
        const before = JSON.stringify(view(match));
        let refused: RulesError | null = null;
        try {
          const r = applyStep(match, parseStep(raw.reject));
          if (!r.ok) refused = r.error;
        } catch (e) {
          if (e instanceof RulesError) refused = e;
          else throw e;
        }
        if (!refused) return { id, title, file, passed: false, step: i, error: 'expected the step to be refused, but it was accepted' };
        if (JSON.stringify(view(match)) !== before) return { id, title, file, passed: false, step: i, error: 'a refused step changed the state' };
      } else {
        const r = applyStep(match, parseStep(raw));
        if (!r.ok) return { id, title, file, passed: false, step: i, error: `step refused: ${r.error.code}: ${r.error.message}` };
        match = r.match;
      }
    } catch (e) {
      return { id, title, file, passed: false, step: i, error: `${e instanceof RulesError ? `${e.code}: ` : ''}${(e as Error).message}` };
    }
  }
  return { id, title, file, passed: true };
}

/** Run every `*.json` case of a folder, sorted by file name. */
export function runFolder(dir: string): CaseResult[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      try {
        return runCase(JSON.parse(readFileSync(join(dir, f), 'utf8')) as CaseFile, f);
      } catch (e) {
        return { id: f, title: '', file: f, passed: false, error: `unreadable case: ${(e as Error).message}` };
      }
    });
}

/** One printable line per case: id, PASS/FAIL, and for a failure the step and each differing field. */
export function formatResult(r: CaseResult): string {
  if (r.passed) return `PASS ${r.id}  ${r.title}`;
  const where = r.step === undefined ? '' : ` at step ${r.step}`;
  const diffs = (r.mismatches ?? []).map((m) => `${m.field}: expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.actual)}`);
  return `FAIL ${r.id}${where}: ${[...diffs, ...(r.error ? [r.error] : [])].join('; ')}`;
}
