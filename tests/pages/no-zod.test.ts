/**
 * No built page carries zod: the schemas are the server's (shared/protocol/*-schemas.ts), the pages import
 * the zod-free types, rules and constants. Every .js file of web/dist and overlay/dist is searched for markers zod's own code
 * keeps through minification (its `$ZodType` class name and its `__zod_globalConfig` global). The check is
 * shown to catch zod: a minified Vite build of a one-line module that imports zod carries the markers.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type Rollup } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/global-setup';

const ROOT = resolve(import.meta.dirname, '../..');
/** The build folders: web/'s pages and overlay/'s OBS overlays. */
const DISTS = [join(ROOT, 'web/dist'), join(ROOT, 'overlay/dist')];
/** Strings of zod's runtime that survive minification (a class name given as a string, a global's name). */
const ZOD_MARKERS = ['$ZodType', '__zod_globalConfig'];

/** The zod markers found in `code`. */
const zodMarkersIn = (code: string): string[] => ZOD_MARKERS.filter((m) => code.includes(m));

/** Every .js file under `dir`. */
function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => join(e.parentPath, e.name));
}

describe('no zod in any built page', () => {
  it('web/dist/**/*.js and overlay/dist/**/*.js hold none of its markers', async () => {
    await ensureBuilt();
    for (const dist of DISTS) expect(jsFiles(dist).length, dist).toBeGreaterThan(2);
    const files = DISTS.flatMap(jsFiles);
    const found = files.map((f) => ({ file: f.slice(ROOT.length + 1), markers: zodMarkersIn(readFileSync(f, 'utf8')) })).filter((x) => x.markers.length > 0);
    expect(found).toEqual([]);
  });

  describe('the check catches zod in a bundle', () => {
    // Inside the project (under node_modules/.cache), so the probe resolves zod as a page would.
    const cache = join(ROOT, 'node_modules/.cache');
    mkdirSync(cache, { recursive: true });
    const dir = mkdtempSync(join(cache, 'cuecast-zod-probe-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('a minified build of a module importing zod carries its markers', async () => {
      const entry = join(dir, 'entry.ts');
      writeFileSync(entry, "import { z } from 'zod';\nexport const name = z.string().min(1);\n");
      const out = (await build({
        configFile: false,
        logLevel: 'silent',
        root: ROOT,
        build: { write: false, minify: true, target: 'es2022', lib: { entry, formats: ['es'], fileName: 'probe' } },
      })) as Rollup.RollupOutput | Rollup.RollupOutput[];
      const code = (Array.isArray(out) ? out : [out])
        .flatMap((o) => o.output)
        .map((c) => ('code' in c ? c.code : ''))
        .join('\n');
      expect(code.length).toBeGreaterThan(1000);
      expect(zodMarkersIn(code)).toEqual(ZOD_MARKERS);
    });
  });
});
