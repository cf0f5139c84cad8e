/**
 * The Companion module as Companion runs it: the built entrypoint (companion/dist/main.cjs, `npm run build -w
 * companion`) in its own process under a stand-in module host (tests/helpers/companion-host.ts: the host side of
 * `@companion-module/base`'s IPC API), against a real cuecast server on the real Redis. The adapter defines the
 * variables, actions, feedbacks and preset buttons, reports its status, sends the table's values, runs actions (a refusal fails the
 * action with the server's words) and updates feedbacks; bad settings are `bad_config` naming the field. The manifest
 * passes the library's own check.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateManifest, type ModuleManifest } from '@companion-module/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VARIABLES } from '../../companion/src/values';
import type { RunningServer } from '../../server/app';
import { createEvent, recordStep, tableMatch, type CreatedEvent } from '../helpers/events';
import { feedback, press, startModule, type StandInHost } from '../helpers/companion-host';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { REPO_ROOT, startTestServer } from '../helpers/server';

const redis = await requireRedis();
const MODULE_DIR = join(REPO_ROOT, 'companion');
const MANIFEST = join(MODULE_DIR, 'companion', 'manifest.json');

describe('the module manifest', () => {
  it("passes @companion-module/base's validation and names the built entrypoint and the library version in use", () => {
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as ModuleManifest;
    expect(() => validateManifest(manifest, false)).not.toThrow();
    const base = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/@companion-module/base/package.json'), 'utf8')) as { version: string };
    expect(manifest.runtime.apiVersion).toBe(base.version);
    const pkg = JSON.parse(readFileSync(join(MODULE_DIR, 'package.json'), 'utf8')) as { main: string; version: string; dependencies: Record<string, string> };
    // A runtime dependency (bundled into the package, so the packager lists its licence), pinned to the version in use.
    expect(pkg.dependencies['@companion-module/base']).toBe(base.version);
    expect(join(MODULE_DIR, 'companion', manifest.runtime.entrypoint)).toBe(join(MODULE_DIR, pkg.main));
    expect(manifest.version).toBe(pkg.version);
  });
});

describe.skipIf(!redis.available)('the Companion module under a stand-in Companion host', () => {
  const prefix = testPrefix('companion-module');
  let server: RunningServer;
  let ev: CreatedEvent;
  let match: { id: string; scorerToken: string };
  let host: StandInHost;
  const vars = () => host.record.variables;

  beforeAll(async () => {
    execFileSync('npm', ['run', 'build', '--workspace', 'companion'], { cwd: REPO_ROOT, stdio: 'pipe' });
    server = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    ev = await createEvent(server.url);
    const [ann, bob] = ev.event.roster;
    match = await tableMatch(server.url, ev, 'tv-table', [ann!.id, bob!.id], true);
    host = await startModule(join(MODULE_DIR, 'dist/main.cjs'), MANIFEST);
  });
  afterAll(async () => {
    await host?.close();
    await server?.close();
    await dropPrefix(redis.url, prefix);
  });

  it('init: definitions, status ok, the table values; a shot over REST and an action pressed through Companion change variables and feedbacks', async () => {
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
    // The preset buttons name only variables, actions and feedbacks the module defines, under the connection's label.
    expect(host.record.presets.length).toBeGreaterThanOrEqual(10);
    for (const p of host.record.presets) {
      for (const [, label, id] of p.style!.text.matchAll(/\$\(([^:)]+):([^)]+)\)/g)) {
        expect(label).toBe('cuecast');
        expect(host.record.variableIds, p.id).toContain(id);
      }
      for (const a of p.steps!.flatMap((s) => s.down)) expect(host.record.actionIds, p.id).toContain(a.actionId);
      for (const f of p.feedbacks!) expect(host.record.feedbackIds, p.id).toContain(f.feedbackId);
    }
    expect(host.record.presets.find((p) => p.id === 'player_a')?.style?.text).toBe('$(cuecast:short_a)\n$(cuecast:score_a)');
    await expect.poll(() => host.record.statuses.at(-1), { timeout: 10_000 }).toEqual({ status: 'ok', message: null });
    await expect
      .poll(vars, { timeout: 10_000 })
      .toMatchObject({ table_name: 'TV table', name_a: 'Ann Andersen', short_a: 'Ann', score_a: 0, card: 'intro', at_table: 'A' });

    await host.call('updateFeedbacks', {
      feedbacks: {
        f1: feedback('f1', 'card_up', { kind: 'intro' }),
        f2: feedback('f2', 'at_table', { player: 'A' }),
        f3: feedback('f3', 'at_table', { player: 'B' }),
      },
    });
    await expect.poll(() => host.record.feedbacks, { timeout: 10_000 }).toMatchObject({ f1: true, f2: true, f3: false });

    await recordStep(server.url, match, { shot: { call: { ball: 1 }, pocketed: [1] } });
    await expect.poll(vars, { timeout: 10_000 }).toMatchObject({ score_a: 1, run: 1, card: 'none' });
    await expect.poll(() => host.record.feedbacks, { timeout: 10_000 }).toMatchObject({ f1: false });

    expect(await host.call('executeAction', press('card', { action: 'intro' }))).toEqual({ success: true });
    await expect.poll(() => host.record.feedbacks, { timeout: 10_000 }).toMatchObject({ f1: true });
    expect(vars()).toMatchObject({ card: 'intro', card_up: true });

    const refused = await host.call<{ success: boolean; errorMessage: string }>('executeAction', press('clock', { action: 'start' }));
    expect(refused.success).toBe(false);
    expect(refused.errorMessage).toMatch(/clock/);
  });

  it('bad settings: bad_config naming the field; fixed settings connect again', async () => {
    await host.call('updateConfigAndLabel', {
      label: 'cuecast',
      config: { url: server.url, eventId: ev.id, table: 'TV table' },
      secrets: { token: ev.organiserToken },
    });
    await expect
      .poll(() => host.record.statuses.at(-1), { timeout: 10_000 })
      .toEqual({ status: 'bad_config', message: expect.stringMatching(/^table: "TV table" is not a table id/) });
    const refused = await host.call<{ success: boolean; errorMessage: string }>('executeAction', press('start_next'));
    expect(refused).toMatchObject({ success: false, errorMessage: expect.stringMatching(/not connected/) });
    await host.call('updateConfigAndLabel', { label: 'cuecast', config: { url: server.url, eventId: ev.id, table: 'table-1' }, secrets: { token: 'wrong' } });
    await expect
      .poll(() => host.record.statuses.at(-1), { timeout: 10_000 })
      .toEqual({ status: 'authentication_failure', message: `the organiser token is not valid for event ${ev.id}` });
    await host.call('updateConfigAndLabel', {
      label: 'cuecast',
      config: { url: server.url, eventId: ev.id, table: 'tv-table' },
      secrets: { token: ev.organiserToken },
    });
    await expect.poll(() => host.record.statuses.at(-1), { timeout: 10_000 }).toEqual({ status: 'ok', message: null });
    await host.call('destroy', {});
  });
});
