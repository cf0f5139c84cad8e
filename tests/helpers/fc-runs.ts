/**
 * fast-check run counts. Each property names its own count (the default, what CI runs); `FC_RUNS=<n>` (a
 * positive integer) runs every property and sample `n` times instead — fewer for a quick local run, more to
 * search harder. Anything else in FC_RUNS is refused with a message, so a typo never silently runs 0 cases.
 */
export function fcRuns(defaultRuns: number): number {
  const raw = process.env.FC_RUNS;
  if (raw === undefined || raw === '') return defaultRuns;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`FC_RUNS must be a positive integer (runs per property), got "${raw}"`);
  return n;
}
