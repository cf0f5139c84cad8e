/**
 * Version of the rules the engine applies (../shared/rules/rules.md as implemented in shared/rules/).
 * Every match record notes the version it was created under (`MatchRecord.rulesVersion`, returned by
 * `GET /api/matches/:id`), so a log can later be told apart from one the current engine would judge
 * differently. Records from before the version was kept carry none and count as version 1.
 *
 * Bump it when the engine would judge some step of an existing log differently: a new refusal, a
 * different score, foul count, turn, re-rack or pending choice for the same facts (e.g. a new rules item
 * such as D-31). Do not bump it for wording, statistics or performance changes that leave every
 * decision as it was.
 *
 * 1: the rules before the version was kept. 2: D-30 refusals of facts of the other discipline, of another kind
 * of shot and of contradicting facts (shared/rules/shot-fields.ts); D-31 placement after a re-rack for a break.
 */
export const RULES_VERSION = 2;
