/**
 * The scorer console's service worker, the parts that run without a browser: which files of the build it
 * precaches (web/scorer-worker-plugin.ts `scorerFiles`, read from the bundle) and how the page registers it
 * (web/src/scorer/offline-worker.ts). The worker itself runs in Chromium: tests/pages/scorer-worker.test.ts.
 */
import { describe, expect, test, vi } from 'vitest';
import { scorerFiles } from '../../web/scorer-worker-plugin';
import { registerScorerWorker, SCORER_WORKER } from '../../web/src/scorer/offline-worker';

type Bundle = Parameters<typeof scorerFiles>[0];

const chunk = (fileName: string, name: string, opts: { entry?: boolean; imports?: string[]; dynamic?: string[]; css?: string[] } = {}) => ({
  type: 'chunk',
  fileName,
  name,
  isEntry: opts.entry ?? false,
  imports: opts.imports ?? [],
  dynamicImports: opts.dynamic ?? [],
  viteMetadata: { importedCss: new Set(opts.css ?? []), importedAssets: new Set<string>() },
});
const asset = (fileName: string) => ({ type: 'asset', fileName });

function bundleOf(...outs: { fileName: string }[]): Bundle {
  return Object.fromEntries(outs.map((o) => [o.fileName, o])) as unknown as Bundle;
}

describe('scorerFiles: what the worker precaches', () => {
  test('the scorer entry, every chunk it imports (static, dynamic, transitively) and their CSS; no other page', () => {
    const bundle = bundleOf(
      chunk('assets/scorer-a.js', 'scorer', { entry: true, imports: ['assets/client-b.js'], dynamic: ['assets/lazy-c.js'], css: ['assets/scorer-a.css'] }),
      chunk('assets/client-b.js', 'client', { imports: ['assets/runtime-d.js'], css: ['assets/problem-b.css'] }),
      chunk('assets/lazy-c.js', 'lazy', { imports: ['assets/client-b.js'] }),
      chunk('assets/runtime-d.js', 'runtime'),
      chunk('assets/dashboard-e.js', 'dashboard', { entry: true, imports: ['assets/client-b.js'] }),
      chunk('assets/only-dashboard-f.js', 'chart'),
      asset('scorer.html'),
      asset('dashboard.html'),
      asset('flags/fr.svg'),
    );
    expect(scorerFiles(bundle).sort()).toEqual(
      [
        'scorer.html',
        'assets/scorer-a.js',
        'assets/scorer-a.css',
        'assets/client-b.js',
        'assets/problem-b.css',
        'assets/lazy-c.js',
        'assets/runtime-d.js',
      ].sort(),
    );
  });

  test('a build without the scorer entry or its page is refused by name', () => {
    expect(() => scorerFiles(bundleOf(chunk('assets/dashboard-e.js', 'dashboard', { entry: true }), asset('scorer.html')))).toThrow(
      "scorer worker: no 'scorer' entry chunk in the build",
    );
    expect(() => scorerFiles(bundleOf(chunk('assets/scorer-a.js', 'scorer', { entry: true })))).toThrow('scorer worker: scorer.html is not in the build');
  });
});

describe('registerScorerWorker', () => {
  test('registers /scorer-sw.js for the scope /scorer/ only', async () => {
    const register = vi.fn(async () => ({}));
    expect(await registerScorerWorker({ serviceWorker: { register } })).toBe(true);
    expect(register).toHaveBeenCalledExactlyOnceWith('/scorer-sw.js', { scope: '/scorer/' });
    expect(SCORER_WORKER).toEqual({ url: '/scorer-sw.js', scope: '/scorer/' });
  });

  test('without service workers, or when the browser refuses, the console goes on: false, the reason logged', async () => {
    expect(await registerScorerWorker({})).toBe(false);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const refused = new Error('SecurityError: insecure origin');
      expect(await registerScorerWorker({ serviceWorker: { register: async () => Promise.reject(refused) } })).toBe(false);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('service worker not registered'), refused);
    } finally {
      warn.mockRestore();
    }
  });
});
