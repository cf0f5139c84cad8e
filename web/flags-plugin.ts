/**
 * Vite plugin: ship the players' flags with the pages. Every flag of shared/countries.ts (the `flag-icons`
 * package's 4×3 SVGs) is emitted as `flags/<code>.svg` beside the pages (and served from the package by the
 * dev server), so no page bundle carries a flag: a page loads, from this server, only the flags it shows.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { COUNTRY_CODES, flagFile } from '../shared/countries';

const FLAGS = fileURLToPath(new URL('../node_modules/flag-icons/flags/4x3/', import.meta.url));

export function flagsPlugin(): Plugin {
  const files = new Set([...COUNTRY_CODES].map(flagFile));
  return {
    name: 'cuecast-flags',
    generateBundle() {
      for (const file of files) this.emitFile({ type: 'asset', fileName: `flags/${file}`, source: readFileSync(FLAGS + file) });
    },
    configureServer(server) {
      server.middlewares.use('/flags', (req, res, next) => {
        const file = (req.url ?? '').replace(/^\//, '').split('?')[0]!;
        if (!files.has(file)) return next();
        res.setHeader('Content-Type', 'image/svg+xml');
        res.end(readFileSync(FLAGS + file));
      });
    },
  };
}
