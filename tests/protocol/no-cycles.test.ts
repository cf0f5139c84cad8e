/**
 * No import cycle anywhere in our code: shared/ (the rules and the protocol), server/, web/src/ (pages and
 * Svelte components), overlay/src/ (the OBS overlays) and companion/src/ (the Companion module), type-only
 * imports included (a cycle of types still ties two modules together). The check itself is shown to fail on a
 * cycle: small fixtures on disk with a cycle of .ts files, one through `import type`, one through a Svelte
 * component, and one without a cycle.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles, importGraph, sourceFiles } from '../helpers/import-graph';

const ROOT = resolve(import.meta.dirname, '../..');

describe('import cycles', () => {
  it('shared/, server/, web/src/, overlay/src/ and companion/src/ have none', () => {
    const files = ['shared', 'server', 'web/src', 'overlay/src', 'companion/src'].flatMap((d) => sourceFiles(join(ROOT, d)));
    expect(files.length).toBeGreaterThan(100);
    const graph = importGraph(files);
    // The graph is real: the engine imports the rules, a page its components.
    expect(graph.get(join(ROOT, 'shared/engine.ts'))).toContain(join(ROOT, 'shared/rules/fourteen-one.ts'));
    expect(graph.get(join(ROOT, 'web/src/pages/scorer.ts'))).toContain(join(ROOT, 'web/src/scorer/Scorer.svelte'));
    expect(graph.get(join(ROOT, 'companion/src/control.ts'))).toContain(join(ROOT, 'web/src/lib/client.ts'));
    expect(graph.get(join(ROOT, 'overlay/src/pages/overlay.ts'))).toContain(join(ROOT, 'web/src/lib/client.ts'));
    expect(importCycles(graph, ROOT)).toEqual([]);
  });

  describe('the check finds a cycle', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cuecast-cycles-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const write = (files: Record<string, string>): string => {
      const root = mkdtempSync(join(dir, 'case-'));
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(join(root, name, '..'), { recursive: true });
        writeFileSync(join(root, name), text);
      }
      return root;
    };
    const cyclesIn = (root: string) => importCycles(importGraph(sourceFiles(root)), root);

    it('of values (a → b → c → a), naming its files in order', () => {
      const root = write({
        'a.ts': "import { b } from './b';\nexport const a = () => b();\n",
        'b.ts': "import { c } from './lib/c';\nexport const b = () => c();\n",
        'lib/c.ts': "import { a } from '../a';\nexport const c = () => a;\n",
        'leaf.ts': "import { a } from './a';\nexport const leaf = a;\n",
      });
      expect(cyclesIn(root)).toEqual(['a.ts → b.ts → lib/c.ts → a.ts']);
    });

    it('of types only (as event.ts ↔ wire.ts was), and through a re-export', () => {
      const root = write({
        'event.ts': "import type { V } from './wire';\nexport interface E { v: V }\n",
        'wire.ts': "export type { E } from './event';\nexport type V = 3;\n",
      });
      expect(cyclesIn(root)).toHaveLength(1);
      expect(cyclesIn(root)[0]).toMatch(/^(event\.ts → wire\.ts → event\.ts|wire\.ts → event\.ts → wire\.ts)$/);
    });

    it('through a Svelte component', () => {
      const root = write({
        'Panel.svelte': '<script lang="ts">\n  import { words } from \'./words\';\n</script>\n<p>{words}</p>\n',
        'words.ts': "import Panel from './Panel.svelte';\nexport const words = String(Panel);\n",
      });
      expect(cyclesIn(root)).toHaveLength(1);
    });

    it('and none where there is none (a diamond, a package import)', () => {
      const root = write({
        'top.ts': "import { l } from './left';\nimport { r } from './right';\nimport { z } from 'zod';\nexport const t = [l, r, z];\n",
        'left.ts': "import { base } from './base';\nexport const l = base;\n",
        'right.ts': "import { base } from './base';\nexport const r = base;\n",
        'base.ts': 'export const base = 1;\n',
      });
      expect(cyclesIn(root)).toEqual([]);
    });
  });
});
