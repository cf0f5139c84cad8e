/**
 * Canonical JSON: the same text for the same value whatever the key order, so two steps can be compared
 * (a retried stepId must carry the step it was recorded with).
 */

/**
 * JSON text of `value` with every object's keys sorted (recursively); array order is kept. Keys whose
 * value is `undefined` are left out, as `JSON.stringify` does, so a step read back from the store (JSON)
 * compares equal to the parsed step it was written from.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

/** True when `a` and `b` have the same canonical JSON. */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
