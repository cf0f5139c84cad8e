/**
 * What the server keeps in memory of one loaded match (a `Live`): the engine's current `Match` (state,
 * incremental statistics, an undo stack trimmed to the newest WINDOW…WINDOW_MAX effective steps) and the
 * newest WINDOW…WINDOW_MAX log steps (stepId and step, and the state after each) for dedupe and duplicates.
 * Nothing here grows with the match beyond its score sheet. Pure bookkeeping; the live-match cache
 * (server/matches/live-cache.ts) does every read of the store.
 */
import { applyStep, statsOf, trimHistory, view, type Match, type MatchState, type Outcome, type Snapshot, type StatePush, type Step } from '../../shared/index';
import type { Core } from '../../shared/rules/core';
import { lastOutcome, scorebugFigures, statsDelta } from '../../shared/stats';
import type { ScorebugFigures } from '../../shared/protocol/wire';
import type { MatchRecord, StoredStep } from '../storage/ports';

/** Effective steps kept for undo, and log steps kept for dedupe: at least WINDOW (when the match has them)… */
export const WINDOW = 200;
/** …and at most WINDOW_MAX: reaching it, both are cut back to WINDOW (O(WINDOW) every WINDOW_MAX − WINDOW steps). */
export const WINDOW_MAX = WINDOW + WINDOW / 4;

/** What the public state at one version is made of (`projectState`); the core is shared with the undo stack. */
export interface StateAt {
  readonly core: Core;
  readonly depth: number;
  readonly last: Outcome | null;
}

/** One of the newest versions of a loaded match. */
interface Recent {
  readonly stepId: string;
  readonly step: Step;
  /** The state after this version; null for versions before the checkpoint the match was loaded from. */
  readonly at: StateAt | null;
}

/** What the public state of `m` is made of. */
export function stateAtOf(m: Match): StateAt {
  return { core: m.core, depth: m.depth, last: lastOutcome(m.stats) };
}

/** The pushes of one version: to the `full` room (with what changed in the statistics) and to the `scorebug` room. */
export interface Pushes {
  full: StatePush;
  scorebug: StatePush;
}

/** A loaded match. The service reads `record` and `match`; the rest belongs to the live-match cache. */
export interface Live {
  readonly id: string;
  readonly record: MatchRecord;
  /** The engine's match at the latest version (undo stack trimmed). */
  match: Match;
  /** Latest version (number of steps in the log). */
  version: number;
  /** The match at `version − 1`, when known (the base of the latest push's statistics delta). */
  before: Match | null;
  /** Versions `version − recent.length + 1` … `version`, oldest first. */
  recent: Recent[];
  /** stepId → version, for the steps in `recent`. */
  stepIds: Map<string, number>;
  /** Effective steps on `match`'s undo stack (fewer than `match.depth` once trimmed). */
  undoable: number;
  /** Public state at `version`, built once. */
  state: MatchState | null;
  /** Whole snapshot at `version` (statistics included), built on demand. */
  snap: Snapshot | null;
  /** Pushes of `version`, built once. */
  pushes: Pushes | null;
  /** Version of the newest checkpoint stored (or being stored). */
  checkpointed: number;
  /** The newest checkpoint this copy loaded from or wrote: its version and state hash (a replay past it is compared). */
  verified: { version: number; hash: string } | null;
  /** A catch-up queued and not started yet: later callers share it. */
  pendingRefresh: Promise<void> | null;
}

/** A loaded match at `version` with `match`, no recent steps yet. */
export function blankLive(id: string, record: MatchRecord, match: Match, version: number): Live {
  return {
    id,
    record,
    match,
    version,
    before: null,
    recent: [],
    stepIds: new Map(),
    undoable: 0,
    state: null,
    snap: null,
    pushes: null,
    checkpointed: 0,
    verified: null,
    pendingRefresh: null,
  };
}

/** Thrown when a logged undo reaches past the kept undo stack: the match must be rebuilt from its whole log. */
export class NeedsWholeLog extends Error {
  constructor(id: string) {
    super(`match ${id}: an undo reaches past the kept steps`);
  }
}

/**
 * Take the step at version `live.version + 1` whose resulting match is `match`. With `trim` (the default)
 * the undo stack and the recent steps are cut back to WINDOW once they pass WINDOW_MAX.
 */
export function advance(live: Live, entry: StoredStep, match: Match | null, trim = true): void {
  live.version++;
  live.recent.push({ stepId: entry.stepId, step: entry.step, at: match && stateAtOf(match) });
  live.stepIds.set(entry.stepId, live.version);
  live.state = null;
  live.snap = null;
  live.pushes = null;
  if (!match) return;
  live.before = live.match;
  live.match = match;
  live.undoable += 'undo' in entry.step ? -1 : 1;
  if (trim) trimWindow(live, WINDOW_MAX);
}

/** Cut the undo stack and the recent steps (with their stepIds) back to WINDOW where they hold more than `over`. */
export function trimWindow(live: Live, over: number): void {
  if (live.undoable > over) {
    live.match = trimHistory(live.match, WINDOW);
    live.undoable = WINDOW;
  }
  if (live.recent.length > over) {
    for (const gone of live.recent.splice(0, live.recent.length - WINDOW)) live.stepIds.delete(gone.stepId);
  }
}

/**
 * Decide a logged step again and take it (`advance`).
 * @throws NeedsWholeLog for an undo past the kept undo stack; Error when the step does not replay (a corrupt log).
 */
export function applyLogged(live: Live, entry: StoredStep, trim = true): void {
  if ('undo' in entry.step && live.undoable === 0 && live.match.depth > 0) throw new NeedsWholeLog(live.id);
  // A stored step: judged by the refusals of its match's rules version, not newer ones (shared/rules/version.ts).
  const r = applyStep(live.match, entry.step, live.record.rulesVersion);
  if (!r.ok) throw new Error(`match ${live.id}: log step ${live.version + 1} does not replay: ${r.error.message}`);
  advance(live, entry, r.match, trim);
}

/** The kept step at `version`, or undefined when it is older than the window. */
export function recentAt(live: Live, version: number): { step: Step; at: StateAt | null } | undefined {
  return live.recent[version - (live.version - live.recent.length) - 1];
}

/** Public state at the latest version (built once per version). */
export function stateOf(live: Live): MatchState {
  return (live.state ??= view(live.match));
}

/** The figures a scorebug shows beside the latest state (average, racks won: `ScorebugFigures`; O(racks)). */
export function figuresOf(live: Live): ScorebugFigures {
  const m = live.match;
  return scorebugFigures(m.setup, m.stats, m.core);
}

/** Whole snapshot at the latest version, statistics included (O(sheet rows), built once per version). */
export function snapshotOf(live: Live): Snapshot {
  if (live.snap?.version !== live.version) live.snap = { matchId: live.id, version: live.version, state: stateOf(live), stats: statsOf(live.match) };
  return live.snap;
}

/**
 * The pushes of the latest version (built once): the state, the scorebug's figures and the step that made it, and for the full
 * room what changed in the statistics since `version − 1` (left out when that version is not known here:
 * the page then resyncs). O(rows changed).
 */
export function pushesOf(live: Live): Pushes {
  if (live.pushes) return live.pushes;
  const last = live.recent[live.recent.length - 1];
  if (!last) throw new Error(`match ${live.id}: no step to push at version ${live.version}`);
  const scorebug: StatePush = { matchId: live.id, version: live.version, state: stateOf(live), figures: figuresOf(live), step: last.step };
  const m = live.match;
  const full: StatePush = live.before ? { ...scorebug, stats: statsDelta(m.setup, live.version - 1, live.before.stats, m.stats, m.core) } : scorebug;
  return (live.pushes = { full, scorebug });
}
