/**
 * Version of the rules the engine applies (docs/rules.md as implemented in shared/rules/).
 * Every match record notes the version it was created under (`MatchRecord.rulesVersion`, returned by
 * `GET /api/matches/:id`), so a log can later be told apart from one the current engine would judge
 * differently. Records from before the version was kept carry none and count as version 1.
 *
 * Bump it when the engine would judge some step of an existing log differently: a new refusal, a
 * different score, foul count, turn, re-rack or pending choice for the same facts (e.g. a new rules item
 * such as D-31). Do not bump it for wording, statistics or performance changes that leave every
 * decision as it was.
 *
 * A stored log is never judged again: it was accepted once, and an acknowledged step must not be lost.
 * So a bump that adds a refusal of input (a fact a step may not carry, facts that contradict each other)
 * must leave the replay of older logs alone: the engine applies such a check to a stored step only when
 * the match was recorded under a version that had it (`replay(setup, steps, rulesVersion)`,
 * `applyStep(match, step, rulesVersion)`, with `inputChecked`). A new step is always judged by the current
 * rules, whatever the version of its match. A change of a transition (what the same accepted facts do:
 * score, fouls, turn, re-rack, placement) applies to old and new logs alike — the engine has one set of
 * transitions — so it is made only where the old result was wrong by the rules (as D-31 was).
 *
 * 1: the rules before the version was kept. 2: D-30 refusals of facts of the other discipline, of another kind
 * of shot and of contradicting facts (shared/rules/shot-checks.ts: `checkShot`, `checkOutcomeFacts`,
 * `checkStepVocabulary`; not applied when replaying a version-1 log); D-31 placement after a re-rack for a break.
 * The D-32 time foul (`fouls: ["time"]`) came without a bump: it is new vocabulary that no stored log can
 * contain (the step schema refused "time" before), and its refusals arise only in a report that carries it, so
 * every existing log replays exactly as it did. 3: D-32b, a 14-1 time foul by a player holding the cue ball in
 * hand behind the head string leaves it in hand there for the incoming player (version 2 gave none): a transition
 * change, for old and new logs alike.
 */
export const RULES_VERSION = 3;

/** The first rules version with the D-30 input refusals (shared/rules/shot-checks.ts). */
export const INPUT_CHECKS_SINCE = 2;

/**
 * Whether a step of a match recorded under `rulesVersion` is judged with the D-30 input refusals: from
 * INPUT_CHECKS_SINCE on. The refusals that version 1 already had (a ball not on the table, a choice not
 * pending, a push out not allowed now…) apply to every step.
 */
export function inputChecked(rulesVersion: number): boolean {
  return rulesVersion >= INPUT_CHECKS_SINCE;
}

/**
 * Which input refusals a step goes through: `all` (every D-30 refusal of the current rules) or `version-1` (a
 * stored step of a version-1 match: only what version 1 refused, shared/rules/shot-checks.ts `checkVersion1Shot`).
 * A stored step of a later version goes through them all again, so a log written past the rules (corrupt) does
 * not load.
 */
export type InputChecks = 'all' | 'version-1';

/** The input refusals of a step of a match recorded under `rulesVersion` (see `inputChecked`). */
export function inputChecksFor(rulesVersion: number): InputChecks {
  return inputChecked(rulesVersion) ? 'all' : 'version-1';
}
