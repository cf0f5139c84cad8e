/**
 * Country codes a player may carry, each with a flag shipped with the pages (the `flag-icons` package's
 * 4×3 SVGs, copied to `/flags/<code>.svg` by the page build; never fetched from the internet):
 * - the 249 officially assigned ISO 3166-1 alpha-2 codes (upper case, e.g. `DE`, `JP`, `TW`);
 * - `XK` (Kosovo: user-assigned, used by the European Commission and sports bodies);
 * - the ISO 3166-2 codes of the four home nations, which compete under their own flags in cue sports:
 *   `GB-ENG`, `GB-SCT`, `GB-WLS`, `GB-NIR`.
 * Pure data, zod-free: the server validates with it, the pages pick from it.
 */

/** ISO 3166-1 alpha-2, officially assigned codes (2024), alphabetical. */
const ISO_3166_ALPHA2: readonly string[] =
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'.split(
    ' ',
  );

/** Codes beyond ISO 3166-1 that cue sports use: Kosovo and the four home nations of the United Kingdom. */
const EXTRA_COUNTRY_CODES: readonly string[] = ['XK', 'GB-ENG', 'GB-SCT', 'GB-WLS', 'GB-NIR'];

/** Every accepted country code. */
export const COUNTRY_CODES: ReadonlySet<string> = new Set([...ISO_3166_ALPHA2, ...EXTRA_COUNTRY_CODES]);

/** True when `code` is an accepted country code, exactly as written (upper case; `GB-ENG` with its hyphen). */
export function isCountryCode(code: string): boolean {
  return COUNTRY_CODES.has(code);
}

/** File name of a country's flag under `/flags/` (`DE` → `de.svg`, `GB-SCT` → `gb-sct.svg`). */
export function flagFile(code: string): string {
  return `${code.toLowerCase()}.svg`;
}
