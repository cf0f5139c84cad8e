/**
 * The import graph of our own source files and the cycles in it, read with the TypeScript compiler API
 * (`ts.preProcessFile`: every `import`, `import type`, `export … from` and dynamic `import()`), for the
 * no-cycles check (tests/protocol/no-cycles.test.ts). Svelte components are read too (their `<script>`
 * blocks), so a cycle through a component is found. Only relative specifiers are followed: packages are
 * not our code.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const SOURCE = /\.(ts|svelte)$/;

/** Every .ts and .svelte file (or every file whose name matches `pattern`) under `dir` (recursively), skipping node_modules, build output and .d.ts. */
export function sourceFiles(dir: string, pattern: RegExp = SOURCE): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    if (e === 'node_modules' || e === 'dist') continue;
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p, pattern));
    else if (pattern.test(e) && !e.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The script of a file: all of a .ts file, the `<script>` blocks of a .svelte component. */
function scriptOf(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (!file.endsWith('.svelte')) return text;
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
}

/** The file a relative specifier names (`./x` → x.ts, x/index.ts, or the exact path), or null. */
function resolveSpecifier(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const p of [base, `${base}.ts`, join(base, 'index.ts')]) if (existsSync(p) && statSync(p).isFile() && SOURCE.test(p)) return p;
  return null;
}

/** Each file's imports of our own files (absolute paths). */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const info = ts.preProcessFile(scriptOf(f), true, true);
    const deps = info.importedFiles
      .map((i) => i.fileName)
      .filter((s) => s.startsWith('.'))
      .map((s) => resolveSpecifier(f, s))
      .filter((p): p is string => p !== null);
    graph.set(resolve(f), [...new Set(deps)]);
  }
  return graph;
}

/**
 * The import cycles of `graph`: one per strongly connected component of more than one file (or a file that
 * imports itself), each as a path `a → b → … → a` of file names relative to `root` (Tarjan's algorithm).
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>, root: string): string[] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(c);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return components.map((c) =>
    cyclePath(graph, new Set(c), c[c.length - 1]!)
      .map((f) => relative(root, f))
      .join(' → '),
  );
}

/** One cycle through `start` inside the component `within`: a breadth-first path back to `start`. */
function cyclePath(graph: ReadonlyMap<string, readonly string[]>, within: ReadonlySet<string>, start: string): string[] {
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!within.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u = v; u !== start; u = from.get(u)!) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!from.has(w)) {
        from.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
