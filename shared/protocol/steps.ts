/**
 * The step vocabulary: what a referee reports at the table. It is the vocabulary of the scoring case
 * bank (docs/case-format.md) and the wire vocabulary between scorer, server and engine: the same
 * JSON travels unchanged. Schemas are zod; `parseStep` turns unknown input into a typed `Step` or a
 * `RulesError('invalid-step')` naming the field.
 */
import { z } from 'zod';
import { RulesError } from './errors';

const ballNo = z.number().int().min(1).max(15);

/** Extra fouls a referee may call beside scratch / off table / no contact / no rail (14-1 §08, ROT §10, S-12). */
export const OTHER_FOULS = [
  'touched-ball',
  'double-hit',
  'feet-off-floor',
  'push-shot',
  'balls-moving',
  'bad-cue-ball-placement',
  'cue-on-table',
  'slow-play',
] as const;
export type OtherFoul = (typeof OTHER_FOULS)[number];

/**
 * D-32 time foul: the shot clock ran out before the stroke. A standard foul with no stroke, so a report that
 * carries it carries nothing else (`{"fouls": ["time"]}`); it is never part of a stroke's foul list, which is
 * why it is not an `OtherFoul` (the scorer's foul menus list those).
 */
export const TIME_FOUL = 'time';
/** Every word of a report's `fouls` list: the other fouls of a stroke, and the time foul (D-32). */
export const SHOT_FOULS = [...OTHER_FOULS, TIME_FOUL] as const;
/** A word of a report's `fouls` list (docs/case-format.md `fouls`). */
export type ShotFoul = (typeof SHOT_FOULS)[number];

export const callSchema = z.union([
  z.literal('safety'),
  z.strictObject({
    ball: ballNo.optional(),
    /** The called pocket, as the scorer names it (informational: only whether the call was made scores). */
    pocket: z.string().min(1).max(24).optional(),
    made: z.boolean().optional(),
  }),
]);

export const rackAreaSchema = z.strictObject({
  cueBall: z.boolean().optional(),
  breakBall: z.boolean().optional(),
  breakBallInKitchen: z.boolean().optional(),
  headSpotTaken: z.boolean().optional(),
});

export const shotSchema = z.strictObject({
  call: callSchema.optional(),
  pocketed: z.union([z.array(ballNo).max(15), z.number().int().min(0).max(15)]).optional(),
  offTable: z.array(ballNo).max(15).optional(),
  firstContact: ballNo.nullable().optional(),
  rail: z.boolean().optional(),
  breakRails: z
    .strictObject({ objectBalls: z.number().int().min(0).max(15), cueBall: z.boolean().optional() })
    .optional(),
  cueBall: z.enum(['scratch', 'off-table']).optional(),
  fouls: z.array(z.enum(SHOT_FOULS)).max(8).optional(),
  pushOut: z.boolean().optional(),
  cueBallInKitchen: z.boolean().optional(),
  rackArea: rackAreaSchema.optional(),
});

export const placementSchema = z.strictObject({
  cueBall: z.enum(['as-is', 'kitchen', 'anywhere']),
  lowestBall: z.enum(['as-is', 'center-spot', 'foot-spot']),
  /** Extension: the lowest ball lies behind the head string (then `kitchen` + `as-is` is forbidden, R-8). */
  lowestBallInKitchen: z.boolean().optional(),
});

export const choiceSchema = z.union([
  z.enum(['accept', 'rebreak', 'rerack', 'shoot', 'pass']),
  placementSchema,
]);

const playerKey = z.enum(['A', 'B']);

/** One schema per step kind, keyed by the step's single key. */
const stepBranches = {
  shot: z.strictObject({ shot: shotSchema }),
  choice: z.strictObject({ choice: choiceSchema }),
  undo: z.strictObject({ undo: z.literal(true) }),
  /** 14-1 S-20 stalemate: re-rack 15, scores kept, the lag winner opens. */
  stalemate: z.strictObject({ stalemate: z.strictObject({ breaker: playerKey }) }),
  /** 14-1 S-15 with `requireTwoFoulWarning`: the referee warns the player on two fouls. */
  warning: z.strictObject({ warning: playerKey }),
} as const;
type StepKind = keyof typeof stepBranches;
const STEP_KINDS = Object.keys(stepBranches) as StepKind[];

export const stepSchema = z.union([
  stepBranches.shot, stepBranches.choice, stepBranches.undo, stepBranches.stalemate, stepBranches.warning,
]);

export type Call = z.infer<typeof callSchema>;
export type RackArea = z.infer<typeof rackAreaSchema>;
/** One stroke as the referee reports it (docs/case-format.md `shot`). */
export type Shot = z.infer<typeof shotSchema>;
/** Rotation foul placement: where the incoming player puts the cue ball and the lowest ball. */
export type Placement = z.infer<typeof placementSchema>;
/** A decision by the player entitled to it (docs/case-format.md `choice`). */
export type Choice = z.infer<typeof choiceSchema>;
/** One recorded step: a shot, a choice, an undo, a stalemate or a two-foul warning. */
export type Step = z.infer<typeof stepSchema>;

/** Dotted path of a zod issue, prefixed by `root` (e.g. `step.shot.pocketed.0`). */
export function issuePath(root: string, path: readonly PropertyKey[]): string {
  return [root, ...path.map(String)].filter(Boolean).join('.');
}

/** Human text for the first issue of a failed parse: "<field>: <reason>"; an unknown key is its own field ("<path>.<key>: unknown field"). */
export function describeIssue(err: z.ZodError, root: string): { field: string; message: string } {
  const issue = err.issues[0]!;
  // An unknown key is named itself (`step.shot.foo`), as the event bodies name theirs: the field at fault is the key.
  if (issue.code === 'unrecognized_keys' && issue.keys.length > 0) {
    const field = issuePath(root, [...issue.path, issue.keys[0]!]);
    return { field, message: `${field}: unknown field` };
  }
  let path = issue.path;
  let message = issue.message;
  // A union failure: report the branch that got furthest, so the field is specific.
  if (issue.code === 'invalid_union' && 'errors' in issue && Array.isArray(issue.errors)) {
    const firsts = (issue.errors as z.core.$ZodIssue[][])
      .map((branch) => branch[0])
      .filter((i): i is z.core.$ZodIssue => i !== undefined && i.code !== 'unrecognized_keys');
    const best = [...firsts].sort((a, b) => b.path.length - a.path.length)[0];
    if (best && best.path.length > 0) {
      path = [...path, ...best.path];
      message = best.message;
    } else if (firsts.length > 0) {
      // Every branch failed at this level: say what each would have accepted.
      message = firsts.map((i) => i.message.replace(/^Invalid (option|input): /, '')).join('; or ');
    }
  }
  const field = issuePath(root, path);
  return { field, message: `${field}: ${message}` };
}

/**
 * Parse untrusted input into a `Step`.
 * @throws RulesError `invalid-step` with the field path and the reason.
 */
export function parseStep(input: unknown, root = 'step'): Step {
  // Dispatch on the step's single key first, so an error names the field inside that kind of step.
  const keys = input !== null && typeof input === 'object' && !Array.isArray(input) ? Object.keys(input) : null;
  if (!keys || keys.length !== 1 || !STEP_KINDS.includes(keys[0] as StepKind)) {
    const got = keys ? `{${keys.join(', ')}}` : input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input;
    throw new RulesError('invalid-step', `${root}: must have exactly one key of ${STEP_KINDS.join(', ')} (got ${got})`, root);
  }
  const res = stepBranches[keys[0] as StepKind].safeParse(input);
  if (res.success) return res.data as Step;
  const { field, message } = describeIssue(res.error, root);
  throw new RulesError('invalid-step', message, field);
}
