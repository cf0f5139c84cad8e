#!/usr/bin/env node
/**
 * `npm run companion:package`: package the Companion module the way Bitfocus ships modules, with the official
 * packager (`companion-module-build` from `@companion-module/tools`, pinned in companion/package.json). The packager
 * bundles the file package.json's `main` names (companion/dist/main.cjs), so the module's own build
 * (`npm run build -w companion`, esbuild) runs first. The packager validates the manifest with
 * `@companion-module/base`'s `validateManifest`, writes the package's LICENSE from the module's licence and those of the
 * `dependencies` it bundles, and writes `companion/<manifest id>-<version>.tgz` (one folder `pkg/`: main.js, LICENSE,
 * package.json, and a copy of the module's companion/companion folder: the manifest and HELP.md).
 *
 * Prints the package's path, size and files and the time taken; exits non-zero when a step fails.
 * tests/companion/package.test.ts unpacks that .tgz and runs it under the stand-in Companion host.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MODULE_DIR = join(ROOT, 'companion');

/**
 * Where the packager writes the module's package: `companion/<id>-<version>.tgz`, the manifest's id and the module's
 * package.json version, with the packager's own sanitising (characters other than letters, digits, `-` and `.` become `-`).
 */
export function companionPackagePath() {
  const manifest = JSON.parse(readFileSync(join(MODULE_DIR, 'companion', 'manifest.json'), 'utf8'));
  const pkg = JSON.parse(readFileSync(join(MODULE_DIR, 'package.json'), 'utf8'));
  const name = `${manifest.id}-${pkg.version}`.replace(/[^a-zA-Z0-9-.]/g, '-').replace(/[-+]/g, '-');
  return join(MODULE_DIR, `${name}.tgz`);
}

/** Build the module, then package it with `companion-module-build`; returns the .tgz's path. */
export function packageCompanionModule() {
  const tgz = companionPackagePath();
  rmSync(tgz, { force: true });
  execFileSync('npm', ['run', 'build', '--workspace', 'companion'], { cwd: ROOT, stdio: 'inherit' });
  // --no-install: use the pinned packager from node_modules, never fetch one.
  execFileSync('npx', ['--no-install', 'companion-module-build'], { cwd: MODULE_DIR, stdio: 'inherit' });
  if (!existsSync(tgz)) throw new Error(`companion-module-build finished but wrote no ${relative(ROOT, tgz)}`);
  return tgz;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const start = Date.now();
  const tgz = packageCompanionModule();
  const bytes = statSync(tgz).size;
  const files = execFileSync('tar', ['tzf', tgz], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !f.endsWith('/'));
  console.log(`Companion package: ${relative(ROOT, tgz)}, ${(bytes / 1024).toFixed(1)} KiB (${bytes} bytes): ${files.join(', ')}`);
  console.log(`Companion package built in ${((Date.now() - start) / 1000).toFixed(1)} s`);
}
