/**
 * Turning a zod issue into our error wording (`<field>: <reason>`), shared by the `*-schemas.ts` files.
 * Server side only (it is used with zod; pages never import it).
 */
import type { z } from 'zod';

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
  return { field, message: `${field}: ${message.split('; or ').map(reword).join('; or ')}` };
}

/** "a string", "an object", "a pair" for zod's type names. */
function typeName(t: string): string {
  const name = t === 'tuple' ? 'pair [A, B]' : t;
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}

/**
 * zod's stock wording in ours: a missing field is "required", a wrong type says what it must be and what it was,
 * a discriminator names its values. Anything else (our own refinements' reasons) is kept as it is.
 */
export function reword(message: string): string {
  const missing = /^(?:Invalid input: )?expected (\w+), received undefined$/.exec(message);
  if (missing) return `required (${typeName(missing[1]!)})`;
  const wrong = /^(?:Invalid input: )?expected (\w+), received (\w+)$/.exec(message);
  if (wrong) return `must be ${typeName(wrong[1]!)}, not ${typeName(wrong[2]!)}`;
  const discriminator = /^Invalid discriminator value\. Expected (.+)$/.exec(message);
  if (discriminator) return `must be one of ${discriminator[1]!.split(' | ').join(', ')}`;
  return message;
}
