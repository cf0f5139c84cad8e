/**
 * The answers each pending decision takes, the usual one first: 14-1 S-9 breaking foul (accept the table or
 * make the breaker re-break), S-14 / D-5 NBA third foul (accept or re-rack for the offender's break); Rotation
 * R-10 push out (shoot or pass back), R-4b / D-17 illegal break (accept or re-rack). A foul placement is
 * answered with a placement instead (./placement). The engines refuse any other word (`wrong-choice`); the
 * scorer console offers exactly these (web/src/scorer/choices.ts). Pure constants, imports types only.
 */
import type { Discipline } from '../protocol/setup';
import type { Awaiting, ChoiceMade } from '../protocol/state';

/** A decision answered with a choice word (every pending decision but the foul placement). */
export type WordDecision = Exclude<Awaiting, null | 'foul-placement'>;

export const CHOICE_WORDS: Readonly<Record<WordDecision, readonly [ChoiceMade, ChoiceMade]>> = {
  'break-foul-choice': ['accept', 'rebreak'],
  'three-foul-choice': ['accept', 'rerack'],
  'push-out-choice': ['shoot', 'pass'],
  'illegal-break-choice': ['accept', 'rerack'],
};

/**
 * The decisions answered with a word that each discipline has: 14-1 S-9 and S-14 / D-5; Rotation R-4b / D-17 and
 * R-10 (its foul placement, R-8, is answered with a placement).
 */
export const WORD_DECISIONS: Readonly<Record<Discipline, readonly WordDecision[]>> = {
  '14-1': ['break-foul-choice', 'three-foul-choice'],
  rotation: ['illegal-break-choice', 'push-out-choice'],
};

/**
 * Every choice word discipline `d` has, each once, in the order of its decisions: 14-1 accept, rebreak, rerack;
 * Rotation accept, rerack, shoot, pass. A word outside it is the other discipline's (`foreign-fact`, D-30).
 */
export function disciplineChoiceWords(d: Discipline): readonly ChoiceMade[] {
  return [...new Set(WORD_DECISIONS[d].flatMap((k) => CHOICE_WORDS[k]))];
}
