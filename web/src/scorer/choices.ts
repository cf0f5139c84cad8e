/**
 * The answers the choice panel offers for a pending decision, each with the step it sends: only the choice
 * words of the match's discipline (14-1 S-9, S-14: accept / re-break / re-rack; Rotation R-4b, R-8, R-10:
 * accept / re-rack, shoot / pass, a legal foul placement), so the rules' vocabulary check never refuses one.
 * Pure; ./ChoicePanel.svelte words them, tests/scorer/console-legal.test.ts plays them.
 */
import type { MatchState } from '../../../shared/protocol/state';
import type { Placement, Step } from '../../../shared/protocol/steps';
import { lowestKitchenMatters, placementOptions } from './rotation';

/** One answer: what it says (`label`: whose name it names), the step, and its test id. */
export interface ChoiceOption {
  label: 'acceptTable' | 'rebreak' | 'rerack15' | 'shoot' | 'pass' | 'acceptIllegal' | 'rerackIllegal' | 'placement';
  /** Whose name the label names: the player deciding, or the other one. */
  who: 'decider' | 'other';
  step: Step;
  testid: string;
  placement?: Placement;
}

/** whether the panel asks where the lowest ball lies (only when the answer changes the legal placements). */
export function asksLowestKitchen(s: MatchState): boolean {
  return s.awaiting === 'foul-placement' && s.lowestBall !== null && !!s.foulPlacement && lowestKitchenMatters(s.foulPlacement);
}

type Word = 'accept' | 'rebreak' | 'rerack' | 'shoot' | 'pass';

/** The two answers of each decision other than a foul placement: label, whose name it names, choice word. */
const ANSWERS: Record<'break-foul-choice' | 'three-foul-choice' | 'push-out-choice' | 'illegal-break-choice', [ChoiceOption['label'], ChoiceOption['who'], Word][]> = {
  'break-foul-choice': [['acceptTable', 'decider', 'accept'], ['rebreak', 'other', 'rebreak']],
  'three-foul-choice': [['acceptTable', 'decider', 'accept'], ['rerack15', 'other', 'rerack']],
  'push-out-choice': [['shoot', 'decider', 'shoot'], ['pass', 'other', 'pass']],
  'illegal-break-choice': [['acceptIllegal', 'decider', 'accept'], ['rerackIllegal', 'decider', 'rerack']],
};

/** The answers to the pending decision, first the usual one; empty when nothing is pending. */
export function choiceOptions(s: MatchState, lowestInKitchen: boolean): ChoiceOption[] {
  if (s.awaiting === null) return [];
  if (s.awaiting !== 'foul-placement') {
    return ANSWERS[s.awaiting].map(([label, who, word]) => ({ label, who, step: { choice: word }, testid: `choice-${word}` }));
  }
  if (!s.foulPlacement) return [];
  return placementOptions(s.foulPlacement, asksLowestKitchen(s) && lowestInKitchen).map((p) => ({
    label: 'placement',
    who: 'decider',
    step: { choice: p },
    testid: `place-${p.cueBall}-${p.lowestBall}`,
    placement: p,
  }));
}
