/**
 * Which options a draw's definition takes for its format (issue 27 §1), in one place for the server's check of a
 * new draw and the organiser's form (which shows and sends only these). Pure.
 */
import type { DrawFormat } from './types';

/** Every format, in the order the organiser's form lists them. */
export const DRAW_FORMATS: readonly DrawFormat[] = ['single', 'double', 'round-robin', 'groups-knockout'];

/** The formats' names in the server's messages (the pages word them per language). */
export const DRAW_FORMAT_NAMES: Readonly<Record<DrawFormat, string>> = {
  single: 'single elimination',
  double: 'double elimination',
  'round-robin': 'round robin',
  'groups-knockout': 'groups then knockout',
};

/** The options of a definition that depend on its format. */
export type DrawFormatOption = 'trueDouble' | 'groupSize' | 'advance' | 'knockout';

/** What a draw of `format` has (with groups then knockout, `knockout` is the knockout chosen; default single). */
export interface DrawFormatParts {
  /** A losers' side (double elimination, or a double knockout after the groups): its race and `trueDouble` apply. */
  losersSide: boolean;
  /** A final (every format but round robin): the final's race applies. */
  final: boolean;
  /** Which of the format-dependent options the definition takes. */
  options: Readonly<Record<DrawFormatOption, boolean>>;
}

/** The parts and options of a draw of `format` (and, after groups, of `knockout`). */
export function drawFormatParts(format: DrawFormat, knockout: 'single' | 'double' = 'single'): DrawFormatParts {
  const groups = format === 'round-robin' || format === 'groups-knockout';
  const losersSide = format === 'double' || (format === 'groups-knockout' && knockout === 'double');
  return {
    losersSide,
    final: format !== 'round-robin',
    options: { trueDouble: losersSide, groupSize: groups, advance: format === 'groups-knockout', knockout: format === 'groups-knockout' },
  };
}
