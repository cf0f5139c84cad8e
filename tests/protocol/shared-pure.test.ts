/**
 * shared/ is pure (the brief): no I/O, clock, randomness, globals or zod. Everything depends on shared/, never the
 * reverse. This reads every import of every file under shared/ (type imports included) and every use of the
 * impure globals, and fails on: a package (zod or any other), a Node built-in, a path leaving shared/, `Date`,
 * `Math.random`, `performance`, timers, `process`, `globalThis`, `fetch`, `crypto`.
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../helpers/import-graph';

const ROOT = resolve(import.meta.dirname, '../..');
const SHARED = join(ROOT, 'shared');
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const IMPURE = /\b(?:Date\.now|new Date\b|Math\.random|performance\.now|setTimeout|setInterval|process\.|globalThis|fetch\(|crypto\.)/;

/** What is wrong with one source text at `file` (a path under shared/): its impure imports and uses, or none. */
function impurities(file: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2]!;
    if (!spec.startsWith('.')) found.push(`imports ${spec}`);
    else if (relative(SHARED, resolve(file, '..', spec)).startsWith('..')) found.push(`imports ${spec} (outside shared/)`);
  }
  // Code only: comments may name what is not used.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const use = code.match(IMPURE);
  if (use) found.push(`uses ${use[0]}`);
  return found;
}

describe('shared/ is pure', () => {
  it('no file under shared/ imports a package, a Node built-in or anything outside shared/, or uses a clock, randomness or a global', () => {
    const files = sourceFiles(SHARED).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(30);
    const problems = files.flatMap((f) => impurities(f, readFileSync(f, 'utf8')).map((p) => `${relative(ROOT, f)}: ${p}`));
    expect(problems).toEqual([]);
  });

  it('the check finds each kind (it is not blind)', () => {
    const f = join(SHARED, 'protocol', 'x.ts');
    expect(impurities(f, "import { z } from 'zod';")).toEqual(['imports zod']);
    expect(impurities(f, "import type { Server } from 'socket.io';")).toEqual(['imports socket.io']);
    expect(impurities(f, "import { readFileSync } from 'node:fs';")).toEqual(['imports node:fs']);
    expect(impurities(f, "export { parseStep } from '../../server/protocol/step-schemas';")).toEqual([
      'imports ../../server/protocol/step-schemas (outside shared/)',
    ]);
    expect(impurities(f, "import { RACK_BALLS } from './limits';\nconst t = Date.now();")).toEqual(['uses Date.now']);
    expect(impurities(f, 'const r = Math.random();')).toEqual(['uses Math.random']);
    expect(impurities(f, '/** Date.now is not used here */\nexport const A = 1;')).toEqual([]);
  });
});
