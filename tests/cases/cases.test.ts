/** The scoring case bank (../shared/cases, docs/case-format.md) is the contract for the rules: every case must pass. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatResult, runCase, runFolder } from '../helpers/case-runner';

const bank = resolve(process.cwd(), '../shared/cases');
const extra = resolve(process.cwd(), 'tests/cases/extra');

describe.each([
  ['shared case bank', bank],
  ['project cases', extra],
])('%s', (_name, dir) => {
  const present = existsSync(dir);
  if (!present && process.env.CI === 'true' && dir === bank) throw new Error(`case bank missing at ${dir}`);
  it.runIf(present)('every case passes', () => {
    const results = runFolder(dir);
    expect(results.length).toBeGreaterThan(0);
    const failed = results.filter((r) => !r.passed).map(formatResult);
    expect(failed).toEqual([]);
  });
});

describe('case runner', () => {
  it('reports the failing step and each differing field with expected and actual', () => {
    const r = runCase(
      {
        id: 'x',
        discipline: '14-1',
        ruleset: 'nba',
        players: ['A', 'B'],
        targets: [100, 100],
        steps: [{ shot: { call: { ball: 3 }, pocketed: [3] } }, { expect: { score: [2, 0], run: 1, turn: 'B' } }],
      },
      'x.json',
    );
    expect(r.passed).toBe(false);
    expect(formatResult(r)).toBe('FAIL x at step 1: score: expected [2,0], got [1,0]; turn: expected "B", got "A"');
  });

  it('fails a reject step that is accepted', () => {
    const r = runCase(
      { id: 'y', discipline: 'rotation', players: ['A', 'B'], targets: [120, 120], steps: [{ reject: { shot: { firstContact: 1 } } }] },
      'y.json',
    );
    expect(formatResult(r)).toMatch(/^FAIL y at step 0: expected the step to be refused/);
  });
});
