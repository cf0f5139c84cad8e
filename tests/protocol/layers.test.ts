/**
 * No upward import (the brief: one storage adapter per backend, importing only shared/, its driver and the
 * port types). The layers of our own code, lowest first, are defined once in `LAYERS`; a file may import its
 * own layer or a lower one, never a higher one. Every import (type imports included) of every file under
 * shared/ and server/ is read (tests/helpers/import-graph.ts); a file in no layer fails too, so a new folder
 * is placed on purpose.
 */
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, sourceFiles } from '../helpers/import-graph';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The layers, lowest first: each a name and the paths (relative to the repository, a folder ending in `/`)
 * it holds. Root files of server/ not named here are wiring (the top layer).
 */
export const LAYERS: readonly { name: string; paths: readonly string[] }[] = [
  { name: 'domain', paths: ['shared/'] },
  { name: 'storage', paths: ['server/storage/'] },
  { name: 'server basics', paths: ['server/protocol/', 'server/clock.ts', 'server/failure.ts', 'server/tokens.ts'] },
  {
    name: 'services',
    paths: ['server/matches/', 'server/events/', 'server/shot-clock/', 'server/draws/', 'server/results/', 'server/webhooks/', 'server/assistant/'],
  },
  { name: 'transport', paths: ['server/transport/'] },
  { name: 'fan-out', paths: ['server/fanout/'] },
  { name: 'wiring', paths: ['server/'] },
];

/** The layer index of `file` (relative to the repository), or -1 when it is in none. The most specific path wins. */
export function layerOf(file: string): number {
  let best = -1;
  let length = -1;
  LAYERS.forEach((layer, i) => {
    for (const p of layer.paths) {
      const hit = p.endsWith('/') ? file.startsWith(p) && (p !== 'server/' || !file.slice(p.length).includes('/')) : file === p;
      if (hit && p.length > length) [best, length] = [i, p.length];
    }
  });
  return best;
}

/** What is wrong in `graph` (file → the files it imports, paths relative to the repository): each upward import and each file in no layer. */
export function layerProblems(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const problems: string[] = [];
  for (const [file, deps] of graph) {
    const from = layerOf(file);
    if (from < 0) {
      problems.push(`${file}: in no layer (add its folder to LAYERS in tests/protocol/layers.test.ts)`);
      continue;
    }
    for (const dep of deps) {
      const to = layerOf(dep);
      if (to > from) problems.push(`${file} (${LAYERS[from]!.name}) imports ${dep} (${LAYERS[to]!.name}): an upward import`);
    }
  }
  return problems;
}

/** The import graph of shared/ and server/, paths relative to the repository. */
function ourGraph(): Map<string, string[]> {
  const files = [...sourceFiles(join(ROOT, 'shared')), ...sourceFiles(join(ROOT, 'server'))];
  const graph = importGraph(files);
  const rel = (f: string) => relative(ROOT, f);
  return new Map([...graph].map(([f, deps]) => [rel(f), deps.map(rel)]));
}

describe('no upward import', () => {
  it('every file of shared/ and server/ is in a layer and imports only its own layer or lower ones', () => {
    const graph = ourGraph();
    expect(graph.size).toBeGreaterThan(80);
    expect([...graph.keys()].filter((f) => f.startsWith('server/storage/')).length).toBeGreaterThan(8);
    expect(layerProblems(graph)).toEqual([]);
  });

  it('the check finds a planted offender of each kind (it is not blind)', () => {
    const graph = new Map<string, string[]>([
      ['server/storage/sqlite-store.ts', ['server/storage/ports.ts', 'shared/protocol/limits.ts', 'server/matches/keyed-cache.ts']],
      ['server/storage/redis-storage.ts', ['server/fanout/bus.ts']],
      ['server/shot-clock/socket.ts', ['server/transport/socket.ts']],
      ['shared/rules/core.ts', ['server/storage/ports.ts']],
      ['server/fanout/viewers.ts', ['server/transport/socket.ts', 'server/matches/service.ts']],
      ['server/app.ts', ['server/transport/socket.ts']],
      ['server/nowhere/service.ts', ['server/storage/ports.ts']],
    ]);
    expect(layerProblems(graph)).toEqual([
      'server/storage/sqlite-store.ts (storage) imports server/matches/keyed-cache.ts (services): an upward import',
      'server/storage/redis-storage.ts (storage) imports server/fanout/bus.ts (fan-out): an upward import',
      'server/shot-clock/socket.ts (services) imports server/transport/socket.ts (transport): an upward import',
      'shared/rules/core.ts (domain) imports server/storage/ports.ts (storage): an upward import',
      'server/nowhere/service.ts: in no layer (add its folder to LAYERS in tests/protocol/layers.test.ts)',
    ]);
  });
});
