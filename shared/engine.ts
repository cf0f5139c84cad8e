/**
 * The rules engine as a decider over an append-only log (Emmett style):
 * - `newMatch(setup)` is the initial state;
 * - `applyStep(match, step)` decides (refuses with a typed error, leaving the match untouched) and evolves;
 * - `replay(setup, steps, rulesVersion)` folds a stored log.
 * A stored step is not judged again by refusals newer than its match's rules version (shared/rules/version.ts:
 * `inputChecksFor`): both take the rules version the steps were recorded under, the current one by default.
 * A `Match` is immutable. Effective steps form a persistent stack, so `undo` is O(1) and recording a
 * step never replays the log. The statistics and score sheet are evolved with each step and kept on the
 * stack beside the core (shared/stats.ts), so their cost per step does not grow with the match and undo
 * restores them for free. A server keeps only the newest part of the stack (`trimHistory`) and may resume
 * a match from a stored core and statistics (`resumeMatch`). Discipline rules live in `rules/fourteen-one.ts`
 * and `rules/rotation.ts`. The rule ids the rules code cites (S-n for 14-1, R-n for Rotation, D-n for decisions,
 * §n for sections) are those of docs/rules.md, each an anchor there (`docs/rules.md#d-30`).
 */
import { RulesError } from './protocol/errors';
import type { MatchSetup } from './protocol/setup';
import type { MatchState, Outcome } from './protocol/state';
import type { Step } from './protocol/steps';
import type { MatchStats } from './protocol/wire';
import { type Core, initialCore, nextOf } from './rules/core';
import { decideStraightPool } from './rules/fourteen-one';
import { decideRotation } from './rules/rotation';
import { type InputChecks, inputChecksFor, RULES_VERSION } from './rules/version';
import { coreFromState, projectState } from './view';
import { EMPTY_STATS, evolveStats, lastOutcome, statsView, type StatsState } from './stats';

/** One effective step on the undo stack: the state and statistics before it, and what it did. */
export interface HistoryNode {
  readonly prev: HistoryNode | null;
  /** State before this step. */
  readonly before: Core;
  /** Statistics before this step. */
  readonly beforeStats: StatsState;
  readonly step: Step;
  readonly outcome: Outcome;
}

/**
 * An immutable match: set-up, current core state and statistics, and the stack of effective steps. The
 * stack may hold fewer than `depth` nodes (`trimHistory`, `resumeMatch`): its older part was dropped.
 */
export interface Match {
  readonly setup: MatchSetup;
  readonly core: Core;
  readonly stats: StatsState;
  readonly history: HistoryNode | null;
  /** Number of effective steps (undo pops one). */
  readonly depth: number;
}

/** Result of `applyStep`: the new match and the outcome, or the refusal. */
export type Applied = { ok: true; match: Match; outcome: Outcome } | { ok: false; error: RulesError };

/** Initial state of a match (fresh, or picked up in progress from `setup.start`). */
export function newMatch(setup: MatchSetup): Match {
  return { setup, core: initialCore(setup), stats: EMPTY_STATS, history: null, depth: 0 };
}

/**
 * A match resumed at a stored point: its core, statistics and number of effective steps, with an empty
 * undo stack (an undo of a step before this point needs the log replayed).
 */
export function resumeMatch(setup: MatchSetup, core: Core, stats: StatsState, depth: number): Match {
  return { setup, core, stats, history: null, depth };
}

/**
 * The match with only its newest `keep` effective steps on the undo stack (O(keep): those nodes are copied;
 * the older ones are left to the garbage collector). Undo then reaches back `keep` steps at most.
 */
export function trimHistory(match: Match, keep: number): Match {
  const kept: HistoryNode[] = [];
  for (let n = match.history; n && kept.length < keep; n = n.prev) kept.push(n);
  if (kept.length === 0 || kept[kept.length - 1]!.prev === null) return match;
  let history: HistoryNode | null = null;
  for (let i = kept.length - 1; i >= 0; i--) {
    const n = kept[i]!;
    history = { prev: history, before: n.before, beforeStats: n.beforeStats, step: n.step, outcome: n.outcome };
  }
  return { setup: match.setup, core: match.core, stats: match.stats, history, depth: match.depth };
}

/** Number of effective steps on the undo stack (O(that number)). */
export function undoable(match: Match): number {
  let n = 0;
  for (let h = match.history; h; h = h.prev) n++;
  return n;
}

/**
 * Decide and apply one step. Undo pops the last effective step (any kind) and restores the state before it.
 * Returns `{ok: false, error}` (codes of D-30: `match-over`, `choice-pending`, `ball-not-on-table`, …)
 * for a step the rules cannot accept now; the given match is never modified. `rulesVersion`: the rules
 * version the step was recorded under — the current one for a new step (the default); a stored step of a
 * match recorded under version 1 is taken without the D-30 input refusals (shared/rules/version.ts).
 */
export function applyStep(match: Match, step: Step, rulesVersion = RULES_VERSION): Applied {
  return applyWith(match, step, inputChecksFor(rulesVersion));
}

function applyWith(match: Match, step: Step, checks: InputChecks): Applied {
  if ('undo' in step) {
    const top = match.history;
    if (!top) return { ok: false, error: new RulesError('nothing-to-undo', 'undo: there is no step to take back', 'undo') };
    return { ok: true, match: undone(match, top), outcome: undoOutcome(top) };
  }
  try {
    const next = advance(match, step, checks);
    return { ok: true, match: next, outcome: next.history!.outcome };
  } catch (e) {
    if (e instanceof RulesError) return { ok: false, error: e };
    throw e;
  }
}

/** The outcome of an undo: what it took back (`undone`) and the situation it returns to. */
function undoOutcome(top: HistoryNode): Outcome {
  const before = top.before;
  const by = top.outcome.by;
  return {
    kind: 'undo',
    by,
    points: 0,
    penalty: 0,
    run: 0,
    standingFouls: before.fouls[by === 'A' ? 0 : 1],
    rack: before.rack,
    next: nextOf(before),
    undone: top.outcome,
  };
}

/** The match with its last effective step taken back. */
function undone(match: Match, top: HistoryNode): Match {
  return { setup: match.setup, core: top.before, stats: top.beforeStats, history: top.prev, depth: match.depth - 1 };
}

/** Decide and apply a shot, choice, stalemate or warning (`checks`: which input refusals, shared/rules/version.ts). @throws RulesError when refused. */
function advance(match: Match, step: Step, checks: InputChecks): Match {
  const t =
    match.setup.discipline === '14-1' ? decideStraightPool(match.setup, match.core, step, checks) : decideRotation(match.setup, match.core, step, checks);
  const node: HistoryNode = { prev: match.history, before: match.core, beforeStats: match.stats, step, outcome: t.outcome };
  const stats = evolveStats(match.setup, match.stats, match.core, t.outcome, t.core);
  return { setup: match.setup, core: t.core, stats, history: node, depth: match.depth + 1 };
}

/**
 * Fold a stored log (steps already accepted once) into a match recorded under `rulesVersion` (default the
 * current one): the D-30 input refusals apply only when that version had them (shared/rules/version.ts).
 * @throws RulesError if a step is refused: a log that does not replay is corrupt.
 */
export function replay(setup: MatchSetup, steps: readonly Step[], rulesVersion = RULES_VERSION): Match {
  const checks = inputChecksFor(rulesVersion);
  // `advance` and `undone` written out on local variables: no Match object per step, one at the end.
  const fourteenOne = setup.discipline === '14-1';
  let core = initialCore(setup);
  let stats = EMPTY_STATS;
  let history: HistoryNode | null = null;
  let depth = 0;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    try {
      if ('undo' in step) {
        if (!history) throw new RulesError('nothing-to-undo', 'undo: there is no step to take back', 'undo');
        core = history.before;
        stats = history.beforeStats;
        history = history.prev;
        depth--;
      } else {
        const t = fourteenOne ? decideStraightPool(setup, core, step, checks) : decideRotation(setup, core, step, checks);
        history = { prev: history, before: core, beforeStats: stats, step, outcome: t.outcome };
        // The statistics of the steps an undo took back are dropped here: their records may be overwritten.
        stats = evolveStats(setup, stats, core, t.outcome, t.core, true);
        core = t.core;
        depth++;
      }
    } catch (e) {
      if (e instanceof RulesError) throw new RulesError(e.code, `log step ${i}: ${e.message}`, `steps.${i}`);
      throw e;
    }
  }
  return { setup, core, stats, history, depth };
}

/**
 * Public state of the match (docs/case-format.md `expect` fields plus broadcast fields). The last outcome comes from
 * the statistics' recent steps, so it is right also when the undo stack was trimmed or resumed.
 */
export function view(match: Match): MatchState {
  return projectState(match.setup, match.core, match.depth, lastOutcome(match.stats));
}

/** Effective steps, oldest first, with their outcomes and the state before each. */
export function effectiveSteps(match: Match): HistoryNode[] {
  const out: HistoryNode[] = [];
  for (let n = match.history; n; n = n.prev) out.push(n);
  return out.reverse();
}

/**
 * Statistics, score sheet and consistency check for the dashboard (docs/rules.md §3.13, §4.8), from the
 * incremental statistics: O(sheet rows), for a subscription or a request (a push sends `statsDelta`).
 */
export function statsOf(match: Match): MatchStats {
  return statsView(match.setup, match.stats, match.core);
}

/** Result of `projectSteps`: the state after the steps that could be played, and why it stopped early. */
export interface Projection {
  state: MatchState;
  /** How many of the steps were played. */
  applied: number;
  /** The refusal that stopped the projection (an undo reaching past the snapshot, or a rules error). */
  error?: RulesError;
}

/**
 * Play steps forward from a public snapshot (no history needed): the scorer console's view of steps still
 * queued while offline. The same rules decide, so the console shows the panels the queued steps lead to.
 * An undo can only take back a step projected here; one reaching past the snapshot stops the projection.
 */
export function projectSteps(setup: MatchSetup, state: MatchState, steps: readonly Step[]): Projection {
  // Statistics are not projected (the console shows the state only).
  let m: Match = resumeMatch(setup, coreFromState(state), EMPTY_STATS, state.steps);
  let last = state.last;
  for (let i = 0; i < steps.length; i++) {
    const r = applyStep(m, steps[i]!);
    if (!r.ok) return { state: projectState(setup, m.core, m.depth, last), applied: i, error: r.error };
    m = r.match;
    last = r.match.history ? r.match.history.outcome : state.last;
  }
  return { state: projectState(setup, m.core, m.depth, last), applied: steps.length };
}
