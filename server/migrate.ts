/**
 * Data that moves between backends (`npm run migrate`, scripts/migrate.ts): copy every match (its record, every
 * step with its stepId and time, its latest checkpoint), tournament, shot clock and sponsor's logo from one
 * backend's storage ports to another's — embedded SQLite to Redis, Redis to SQLite, or any two — through the
 * ports only (never raw SQL or Redis), so it works over any two backends.
 *
 * - It plans first: nothing is written when the target holds a different match, tournament, shot clock or logo
 *   under an id the source uses (`MigrationConflict`, naming each).
 * - Idempotent: what the target holds already, equal, is left alone (a second run copies nothing); a match whose
 *   log on the target is a prefix of the source's (an interrupted run) gets only its missing steps.
 * - Each match on the target is then checked by its replay hash (server/matches/state-hash.ts): the target's log
 *   replayed must reach the state the source's log reaches, and a copied checkpoint keeps its hash.
 * Order of writes: matches, shot clocks, logos, then the tournaments that list them, so a tournament on the target
 * never lists a match or a logo that is not there yet.
 */
import { isDeepStrictEqual } from 'node:util';
import { applyStep, newMatch, replay, view, type Match } from '../shared/index';
import { matchHash } from './matches/state-hash';
import { summaryOf } from './matches/service';
import type { Checkpoint, TournamentDoc, LoadedLog, ShotClockDoc, SponsorImage, StoragePorts, StoredStep } from './storage/ports';

/** The storage ports of one backend that a migration reads (source) or writes (target). */
export type MigratePorts = Pick<StoragePorts, 'matches' | 'tournaments' | 'shotClocks' | 'sponsors'>;

/** What a migration did (or, for a run that found everything there, did not need to do). */
export interface MigrationReport {
  matches: { copied: number; resumed: number; same: number; steps: number };
  tournaments: { copied: number; same: number };
  shotClocks: { copied: number; updated: number; same: number };
  sponsors: { copied: number; same: number };
  /** Matches on the target whose replay hash equals the source's. */
  verified: number;
}

/** The target holds something else under an id the source uses; nothing was written. */
export class MigrationConflict extends Error {
  constructor(readonly conflicts: readonly string[]) {
    super(
      `the target holds different data under ${conflicts.length} id(s) the source uses; nothing was copied:\n${conflicts.map((c) => `  - ${c}`).join('\n')}`,
    );
    this.name = 'MigrationConflict';
  }
}

/** A target match's log does not reproduce the source's state. */
export class MigrationCheckFailed extends Error {
  constructor(
    readonly matchId: string,
    detail: string,
  ) {
    super(`match ${matchId}: ${detail}`);
    this.name = 'MigrationCheckFailed';
  }
}

/** Every listed row (the ports list newest first, up to a limit). */
const ALL = 2 ** 31 - 1;
/** Matches copied at once. */
const PARALLEL = 8;

/** Run `f` over `items`, at most `n` at a time. */
async function eachLimited<T>(items: readonly T[], n: number, f: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await f(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}

/** How a match stands on the target: absent, or equal up to `have` steps (then the rest is missing). */
type MatchPlan = { id: string; have: number | null; total: number };

/** Why the target's `tgt` is not the source's `src` (or a prefix of it), or null when it is. */
function matchDifference(src: LoadedLog, tgt: LoadedLog): string | null {
  if (!isDeepStrictEqual(tgt.record, src.record)) {
    const fields = (Object.keys(src.record) as (keyof LoadedLog['record'])[]).filter((k) => !isDeepStrictEqual(src.record[k], tgt.record[k]));
    return `another match (its ${fields.join(', ')} differ${fields.length === 1 ? 's' : ''})`;
  }
  if (tgt.steps.length > src.steps.length) return `its log is longer on the target (${tgt.steps.length} steps, the source has ${src.steps.length})`;
  const at = tgt.steps.findIndex((s, i) => !isDeepStrictEqual(s, src.steps[i]));
  return at === -1 ? null : `its log differs at version ${at + 1}`;
}

/** The replay hash of a stored log (its steps judged by its own rules version). */
function replayHash(log: LoadedLog): string {
  return matchHash(
    replay(
      log.record.setup,
      log.steps.map((s) => s.step),
      log.record.rulesVersion,
    ),
  );
}

/**
 * Copy everything `from` holds into `to` (see the module comment). `onProgress` hears a line per stage.
 * @returns what was copied and what was there already.
 * @throws MigrationConflict (nothing written) when the target holds different data under a source id;
 *   MigrationCheckFailed when a copied match does not replay to the source's state; a store's error on I/O failure.
 */
export async function migrate(from: MigratePorts, to: MigratePorts, onProgress: (line: string) => void = () => {}): Promise<MigrationReport> {
  const report: MigrationReport = {
    matches: { copied: 0, resumed: 0, same: 0, steps: 0 },
    tournaments: { copied: 0, same: 0 },
    shotClocks: { copied: 0, updated: 0, same: 0 },
    sponsors: { copied: 0, same: 0 },
    verified: 0,
  };
  const conflicts: string[] = [];

  // 1. Plan: read both sides, decide, and write nothing yet.
  const matchIds = (await from.matches.list(ALL)).map((m) => m.id);
  const plans: MatchPlan[] = [];
  const clocks: { id: string; doc: ShotClockDoc; expected: number }[] = [];
  await eachLimited(matchIds, PARALLEL, async (id) => {
    const src = await from.matches.load(id);
    if (!src) return; // removed since the listing
    const tgt = await to.matches.load(id);
    const diff = tgt && matchDifference(src, tgt);
    if (diff) return void conflicts.push(`match ${id}: ${diff}`);
    plans.push({ id, have: tgt ? tgt.steps.length : null, total: src.steps.length });
    const clock = await from.shotClocks.read(id);
    if (!clock) return;
    const there = await to.shotClocks.read(id);
    if (there === null) clocks.push({ id, doc: clock, expected: 0 });
    else if (isDeepStrictEqual(there, clock)) report.shotClocks.same++;
    else if (there.revision < clock.revision) clocks.push({ id, doc: clock, expected: there.revision });
    else conflicts.push(`shot clock of match ${id}: the target's is at revision ${there.revision}, the source's at ${clock.revision}, and they differ`);
  });
  const tournaments: TournamentDoc[] = [];
  const logos: { eventId: string; sponsorId: string; image: SponsorImage }[] = [];
  for (const { id } of await from.tournaments.listTournaments(ALL)) {
    const doc = await from.tournaments.loadTournament(id);
    if (!doc) continue;
    const there = await to.tournaments.loadTournament(id);
    if (there && !isDeepStrictEqual(there, doc)) {
      conflicts.push(
        `tournament ${id} ("${doc.name}"): the target holds another version of it (version ${there.version}, "${there.name}"; the source's is version ${doc.version})`,
      );
      continue;
    }
    if (there) report.tournaments.same++;
    else tournaments.push(doc);
    for (const s of doc.sponsors ?? []) {
      const image = await from.sponsors.load(id, s.id);
      if (!image) continue; // listed but never stored (cannot happen through the services); nothing to copy
      const have = await to.sponsors.load(id, s.id);
      if (!have) logos.push({ eventId: id, sponsorId: s.id, image });
      else if (have.type === image.type && Buffer.from(have.bytes).equals(Buffer.from(image.bytes))) report.sponsors.same++;
      else conflicts.push(`logo ${s.id} ("${s.name}") of tournament ${id}: another image on the target`);
    }
  }
  if (conflicts.length > 0) throw new MigrationConflict(conflicts.sort());

  // 2. Copy: matches (steps and checkpoints), shot clocks, logos, then the tournaments that list them.
  await eachLimited(plans, PARALLEL, async (plan) => {
    if (plan.have === plan.total) return void report.matches.same++;
    const steps = await copyMatch(from, to, plan);
    report.matches.steps += steps;
    if (plan.have === null) report.matches.copied++;
    else report.matches.resumed++;
  });
  onProgress(
    `matches: ${report.matches.copied} copied, ${report.matches.resumed} completed, ${report.matches.same} already there (${report.matches.steps} steps written)`,
  );
  for (const c of clocks) {
    if (!(await to.shotClocks.write(c.id, c.doc, c.expected))) throw new Error(`shot clock of match ${c.id}: changed on the target while copying; run again`);
    if (c.expected === 0) report.shotClocks.copied++;
    else report.shotClocks.updated++;
  }
  onProgress(`shot clocks: ${report.shotClocks.copied} copied, ${report.shotClocks.updated} updated, ${report.shotClocks.same} already there`);
  for (const l of logos) await to.sponsors.put(l.eventId, l.sponsorId, l.image);
  report.sponsors.copied = logos.length;
  onProgress(`sponsors' logos: ${report.sponsors.copied} copied, ${report.sponsors.same} already there`);
  for (const doc of tournaments) await to.tournaments.createTournament(doc);
  report.tournaments.copied = tournaments.length;
  onProgress(`tournaments: ${report.tournaments.copied} copied, ${report.tournaments.same} already there`);

  // 3. Check every match on the target by its replay hash.
  await eachLimited(plans, PARALLEL, async ({ id }) => {
    const [src, tgt] = await Promise.all([from.matches.load(id), to.matches.load(id)]);
    if (!src || !tgt) throw new MigrationCheckFailed(id, `not readable on the ${src ? 'target' : 'source'} after the copy`);
    if (tgt.steps.length < src.steps.length) throw new MigrationCheckFailed(id, `the target has ${tgt.steps.length} of its ${src.steps.length} steps`);
    const [want, got] = [replayHash(src), replayHash({ ...tgt, steps: tgt.steps.slice(0, src.steps.length) })];
    if (want !== got)
      throw new MigrationCheckFailed(id, `the target's log replays to another state (hash ${got.slice(0, 12)}…, the source's ${want.slice(0, 12)}…)`);
    const [srcCk, tgtCk] = await Promise.all([from.matches.open(id, 0), to.matches.open(id, 0)]);
    if (srcCk?.checkpoint && srcCk.checkpoint.hash !== tgtCk?.checkpoint?.hash)
      throw new MigrationCheckFailed(id, `its checkpoint at version ${srcCk.checkpoint.version} did not arrive with its hash`);
    report.verified++;
  });
  onProgress(`checked: ${report.verified} of ${plans.length} matches replay on the target to the source's state hash`);
  return report;
}

/**
 * Copy match `plan.id`'s missing steps (all of them when the target has none) with the snapshot after each, and
 * its latest checkpoint with the append of its version (or on its own when that step was there already).
 * @returns the number of steps written.
 */
async function copyMatch(from: MigratePorts, to: MigratePorts, plan: MatchPlan): Promise<number> {
  const src = (await from.matches.load(plan.id))!;
  const ck: Checkpoint | null = (await from.matches.open(plan.id, 0))?.checkpoint ?? null;
  const { record } = src;
  const have = plan.have ?? 0;
  let match: Match = newMatch(record.setup);
  const snapshotOf = (m: Match, version: number, at: number) => {
    const state = view(m);
    return { summary: summaryOf(record.id, state, version, at), state };
  };
  if (plan.have === null) await to.matches.create(record, snapshotOf(match, 0, record.createdAt));
  for (const [i, entry] of src.steps.entries()) {
    const applied = applyStep(match, entry.step, record.rulesVersion);
    if (!applied.ok) throw new MigrationCheckFailed(record.id, `the source's step ${i + 1} does not replay (${applied.error.message})`);
    match = applied.match;
    if (i < have) continue;
    const extras = ck && ck.version === i + 1 ? { checkpoint: ck } : undefined;
    const res = await to.matches.append(record.id, i, entry as StoredStep, snapshotOf(match, i + 1, entry.at), extras);
    if (res.status !== 'ok') throw new Error(`match ${record.id}: the target's log changed while copying (${res.status} at version ${res.version}); run again`);
  }
  // A checkpoint at a version the target had already: kept on its own.
  if (ck && ck.version <= have) {
    const there = (await to.matches.open(record.id, 0))?.checkpoint;
    if (!isDeepStrictEqual(there, ck)) await to.matches.saveCheckpoint(record.id, ck);
  }
  return src.steps.length - have;
}
