/**
 * Zod schemas of the step vocabulary typed in `steps.ts`, for the server and the tests (pages never import
 * this file: it pulls in zod). Each schema's output is checked at compile time to be exactly its type, so
 * the two cannot drift apart. `parseStep` turns unknown input into a typed `Step` or a
 * `RulesError('invalid-step')` naming the field; the server calls it before the engine sees a step.
 */
import { z } from 'zod';
import { unsafeTextReason } from '../../shared/protocol/limits';
import { RulesError } from '../../shared/protocol/errors';
import {
  SHOT_FOULS,
  STEP_KINDS,
  type Call,
  type Choice,
  type Placement,
  type RackArea,
  type Shot,
  type Step,
  type StepKind,
} from '../../shared/protocol/steps';
import { describeIssue } from './zod-issues';

const ballNo = z.number().int().min(1).max(15);

/** A 14-1 shot's call (`shot.call`): `"safety"`, or the called ball and pocket and whether it was made (S-4, `14-1 §04`). */
export const callSchema = z.union([
  z.literal('safety'),
  z.strictObject({
    ball: ballNo.optional(),
    /** The called pocket, as the scorer names it (informational: only whether the call was made scores). */
    pocket: z
      .string()
      .min(1)
      .max(24)
      .superRefine((v, ctx) => {
        const why = unsafeTextReason(v);
        if (why) ctx.addIssue({ code: 'custom', message: why });
      })
      .optional(),
    made: z.boolean().optional(),
  }),
]);

/** 14-1 re-rack facts (`shot.rackArea`): where the cue ball and the break ball lie when the balls are re-racked (S-17–S-19). */
export const rackAreaSchema = z.strictObject({
  cueBall: z.boolean().optional(),
  breakBall: z.boolean().optional(),
  breakBallInKitchen: z.boolean().optional(),
  headSpotTaken: z.boolean().optional(),
});

/** One stroke as the referee reports it (`{"shot": …}`); which facts a kind of shot may carry is `SHOT_FACTS` (shared/rules/shot-checks.ts). */
export const shotSchema = z.strictObject({
  call: callSchema.optional(),
  pocketed: z.union([z.array(ballNo).max(15), z.number().int().min(0).max(15)]).optional(),
  offTable: z.array(ballNo).max(15).optional(),
  firstContact: ballNo.nullable().optional(),
  rail: z.boolean().optional(),
  breakRails: z.strictObject({ objectBalls: z.number().int().min(0).max(15), cueBall: z.boolean().optional() }).optional(),
  cueBall: z.enum(['scratch', 'off-table']).optional(),
  fouls: z.array(z.enum(SHOT_FOULS)).max(8).optional(),
  pushOut: z.boolean().optional(),
  cueBallInKitchen: z.boolean().optional(),
  rackArea: rackAreaSchema.optional(),
});

/** A Rotation foul placement chosen by the incoming player (`{"choice": {cueBall, lowestBall}}`, R-8, `ROT §10`). */
export const placementSchema = z.strictObject({
  cueBall: z.enum(['as-is', 'kitchen', 'anywhere']),
  lowestBall: z.enum(['as-is', 'center-spot', 'foot-spot']),
  /** Extension: the lowest ball lies behind the head string (then `kitchen` + `as-is` is forbidden, R-8). */
  lowestBallInKitchen: z.boolean().optional(),
});

/** A pending decision's answer (`{"choice": …}`): accept, re-break, re-rack, shoot, pass, or a Rotation placement. */
export const choiceSchema = z.union([z.enum(['accept', 'rebreak', 'rerack', 'shoot', 'pass']), placementSchema]);

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

/** A step, the `step` of a record: one of shot, choice, undo, stalemate, warning (`parseStep` names the field at fault). */
export const stepSchema = z.union([stepBranches.shot, stepBranches.choice, stepBranches.undo, stepBranches.stalemate, stepBranches.warning]);

/** True when A and B are assignable both ways. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/** Compile-time: each schema's output is its type in steps.ts, and every step kind has a schema. */
export type StepSchemasMatchTypes = [
  Assert<Same<z.output<typeof callSchema>, Call>>,
  Assert<Same<z.output<typeof rackAreaSchema>, RackArea>>,
  Assert<Same<z.output<typeof shotSchema>, Shot>>,
  Assert<Same<z.output<typeof placementSchema>, Placement>>,
  Assert<Same<z.output<typeof choiceSchema>, Choice>>,
  Assert<Same<z.output<typeof stepSchema>, Step>>,
  Assert<Same<keyof typeof stepBranches, StepKind>>,
];

/**
 * Parse untrusted input into a `Step`.
 * @throws RulesError `invalid-step` with the field path and the reason.
 */
export function parseStep(input: unknown, root = 'step'): Step {
  // Dispatch on the step's single key first, so an error names the field inside that kind of step.
  const keys = input !== null && typeof input === 'object' && !Array.isArray(input) ? Object.keys(input) : null;
  if (!keys || keys.length !== 1 || !(STEP_KINDS as readonly string[]).includes(keys[0]!)) {
    const got = keys ? `{${keys.join(', ')}}` : input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input;
    throw new RulesError('invalid-step', `${root}: must have exactly one key of ${STEP_KINDS.join(', ')} (got ${got})`, root);
  }
  const res = stepBranches[keys[0] as StepKind].safeParse(input);
  if (res.success) return res.data;
  const { field, message } = describeIssue(res.error, root);
  throw new RulesError('invalid-step', message, field);
}
