/**
 * The packaged Companion module, as Companion installs it: the .tgz that `npm run companion:package` (the official
 * packager `companion-module-build`, scripts/companion-package.mjs; `.ci/run` runs it before `npm test`) wrote is
 * unpacked into a temp folder, its manifest and licence are checked, and its entrypoint (`pkg/main.js`, the packager's
 * bundle, not the source or companion/dist) runs under the stand-in Companion host (tests/helpers/companion-host.ts)
 * against a real cuecast server on the real Redis: it registers, connects, defines its variables, actions and
 * feedbacks, and a press runs through the server.
 *
 * Without the .tgz: with CI=true the suite fails; otherwise it skips, saying to run `npm run companion:package`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { validateManifest, type ModuleManifest } from '@companion-module/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companionPackagePath } from '../../scripts/companion-package.mjs';
import { VARIABLES } from '../../companion/src/values';
import type { RunningServer } from '../../server/app';
import { createEvent, tableMatch, type CreatedEvent } from '../helpers/events';
import { feedback, press, startModule, type StandInHost } from '../helpers/companion-host';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { REPO_ROOT, startTestServer } from '../helpers/server';

const TGZ = companionPackagePath();
const hasPackage = existsSync(TGZ);
if (!hasPackage) {
  const msg = `no Companion package at ${relative(REPO_ROOT, TGZ)}: run \`npm run companion:package\` first`;
  if (process.env.CI === 'true') throw new Error(msg);
  console.warn(`[skip] ${msg}`);
}
const redis = hasPackage ? await requireRedis() : { url: '', available: false };

describe.skipIf(!hasPackage)('the packaged Companion module (.tgz)', () => {
  let dir: string;
  let pkg: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cuecast-companion-pkg-'));
    execFileSync('tar', ['xzf', TGZ, '-C', dir]);
    pkg = join(dir, 'pkg');
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('holds the bundle, the manifest (valid, pointing at the bundle), the help and the licences, nothing else', () => {
    expect(readdirSync(pkg).sort()).toEqual(['LICENSE', 'companion', 'main.js', 'package.json']);
    expect(readdirSync(join(pkg, 'companion')).sort()).toEqual(['HELP.md', 'manifest.json']);
    const manifest = JSON.parse(readFileSync(join(pkg, 'companion', 'manifest.json'), 'utf8')) as ModuleManifest;
    expect(() => validateManifest(manifest, false)).not.toThrow();
    expect(manifest.runtime.entrypoint).toBe('../main.js');
    const source = JSON.parse(readFileSync(join(REPO_ROOT, 'companion', 'companion', 'manifest.json'), 'utf8')) as ModuleManifest;
    expect(manifest).toMatchObject({ id: source.id, license: 'MIT', repository: '', bugs: '' });
    expect(JSON.stringify(manifest)).not.toMatch(/https?:\/\//);
    // The package's LICENSE: the module's own MIT text, then the licence of every library bundled into main.js.
    const licence = readFileSync(join(pkg, 'LICENSE'), 'utf8');
    expect(licence).toContain(readFileSync(join(REPO_ROOT, 'companion', 'LICENSE'), 'utf8').trim());
    for (const lib of ['socket.io-client@', 'engine.io-client@', 'ws@', 'ajv@']) expect(licence).toContain(lib);
    // One self-contained file: the package installs no dependencies.
    expect(JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'))).toMatchObject({ name: source.name, dependencies: {} });
  });

  describe.skipIf(!redis.available)('its entrypoint under a stand-in Companion host', () => {
    const prefix = testPrefix('companion-package');
    let server: RunningServer;
    let ev: CreatedEvent;
    let host: StandInHost;

    beforeAll(async () => {
      server = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
      ev = await createEvent(server.url);
      const [ann, bob] = ev.event.roster;
      await tableMatch(server.url, ev, 'tv-table', [ann!.id, bob!.id], true);
      host = await startModule(join(pkg, 'main.js'), join(pkg, 'companion', 'manifest.json'));
    });
    afterAll(async () => {
      await host?.close();
      await server?.close();
      await dropPrefix(redis.url, prefix);
    });

    it('connects, defines its variables, actions and feedbacks, shows the table and runs a press', async () => {
      const config = { url: server.url, eventId: ev.id, table: 'tv-table' };
      await host.call('init', {
        label: 'cuecast',
        isFirstInit: false,
        config,
        secrets: { token: ev.organiserToken },
        lastUpgradeIndex: -1,
        feedbacks: {},
        actions: {},
      });
      expect(host.record.variableIds).toEqual(VARIABLES.map(([id]) => id));
      expect(host.record.actionIds).toEqual(['card', 'caption', 'clock', 'start_next', 'undo_start']);
      expect(host.record.feedbackIds).toEqual(['at_table', 'two_fouls', 'clock_warning', 'card_up']);
      expect(host.record.presets.length).toBeGreaterThanOrEqual(10);
      await expect.poll(() => host.record.statuses.at(-1), { timeout: 10_000 }).toEqual({ status: 'ok', message: null });
      await expect
        .poll(() => host.record.variables, { timeout: 10_000 })
        .toMatchObject({ table_name: 'TV table', name_a: 'Ann Andersen', at_table: 'A', card: 'intro' });

      await host.call('updateFeedbacks', { feedbacks: { f1: feedback('f1', 'card_up', { kind: 'any' }) } });
      await expect.poll(() => host.record.feedbacks, { timeout: 10_000 }).toMatchObject({ f1: true });
      expect(await host.call('executeAction', press('card', { action: 'hide' }))).toEqual({ success: true });
      await expect.poll(() => host.record.feedbacks, { timeout: 10_000 }).toMatchObject({ f1: false });
      expect(host.record.variables).toMatchObject({ card: 'none' });
      await host.call('destroy', {});
    });
  });
});
