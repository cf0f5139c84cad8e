/**
 * `npm run docs:api`: writes the request shapes of the REST API and the Socket.IO messages, generated from the
 * server's own zod schemas (every exported schema of `server/protocol/*-schemas.ts`) with zod 4's `z.toJSONSchema`:
 * docs/api-schemas.md shows each as a short TypeScript-like shape with the docstring the source gives it, and
 * docs/api-schemas.json holds them all as JSON Schema (draft 2020-12, one `$defs` entry per schema) for programs.
 * `npm run docs:api -- --check` only compares and exits 1 when a file is stale; `tests/repo/api-schemas.test.ts`
 * does the same check in the unit tier.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';

const ROOT = join(import.meta.dirname, '..');
const PROTOCOL_DIR = join(ROOT, 'server/protocol');
/** The generated files: the shapes to read, and every schema as JSON Schema for programs. */
export const API_SCHEMAS_FILES = { md: 'docs/api-schemas.md', json: 'docs/api-schemas.json' } as const;

/** The headings of the schema files, in this order; a file not named here follows under its own name. */
const FILES: Record<string, string> = {
  'wire-schemas.ts': 'Match messages: subscribe, record',
  'step-schemas.ts': 'Steps: what a record carries',
  'setup-schemas.ts': 'The set-up of a match',
  'shot-clock-schemas.ts': 'The shot clock',
  'event-schemas.ts': 'Events and tables',
  'draw-schemas.ts': 'Draws (brackets and groups)',
  'results-schemas.ts': 'Roster import and webhooks',
};

type Json = { [key: string]: unknown } & {
  type?: string | string[];
  anyOf?: Json[];
  oneOf?: Json[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, Json>;
  required?: string[];
  additionalProperties?: boolean | Json;
  items?: Json;
  prefixItems?: Json[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
};

/**
 * JSON Schema of a request as a client writes it: the input side (before defaults and transforms), with a text's
 * length and pattern from the check that follows its normalisation (`displayText`: trimmed, then 1–60 characters).
 */
export function jsonSchemaOf(schema: z.ZodType): Json {
  const options = { io: 'input', unrepresentable: 'any' } as const;
  const json = z.toJSONSchema(schema, {
    ...options,
    override: ({ zodSchema, jsonSchema }) => {
      const def = zodSchema._zod.def as { type: string; out?: z.ZodType };
      if (def.type !== 'pipe' || !def.out || (def.out._zod.def as { type: string }).type === 'transform') return;
      const { $schema: _drop, ...out } = z.toJSONSchema(def.out, options) as Json;
      Object.assign(jsonSchema, out);
    },
  }) as Json;
  delete json.$schema;
  return json;
}

const NO_MAX = Number.MAX_SAFE_INTEGER;

function range(min: number | undefined, max: number | undefined, unit = ''): string {
  const hi = max === undefined || max >= NO_MAX ? undefined : max;
  if (min === undefined && hi === undefined) return '';
  if (hi === undefined) return ` ≥ ${min}${unit}`;
  if (min === undefined) return ` ≤ ${hi}${unit}`;
  if (min === hi) return ` ${min}${unit}`;
  return min < 0 ? ` ${min} … ${hi}${unit}` : ` ${min}–${hi}${unit}`;
}

/** A JSON Schema as a TypeScript-like shape: `key?:` optional, `a | b` either, `[A, B]` a pair, ranges inline. */
export function shapeOf(js: Json, indent = ''): string {
  const union = js.anyOf ?? js.oneOf;
  if (union) {
    // A branch of several lines starts a line of its own; a short one follows on the same line (`} | null`).
    return union.map((b) => shapeOf(b, indent)).reduce((all, part) => `${all}${part.includes('\n') ? `\n${indent}| ` : ' | '}${part}`);
  }
  if ('const' in js) return JSON.stringify(js.const);
  if (js.enum) return js.enum.map((v) => JSON.stringify(v)).join(' | ');
  const type = Array.isArray(js.type) ? js.type.join(' | ') : js.type;
  switch (type) {
    case 'object': {
      const inner = `${indent}  `;
      const props = Object.entries(js.properties ?? {}).map(([key, value]) => {
        const optional = js.required?.includes(key) ? '' : '?';
        return `${inner}${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}${optional}: ${shapeOf(value, inner)}`;
      });
      if (typeof js.additionalProperties === 'object') props.push(`${inner}[key: string]: ${shapeOf(js.additionalProperties, inner)}`);
      return props.length === 0 ? (js.additionalProperties === false ? '{}' : '{ [key: string]: unknown }') : `{\n${props.join(',\n')}\n${indent}}`;
    }
    case 'array':
      if (js.prefixItems) return `[${js.prefixItems.map((i) => shapeOf(i, indent)).join(', ')}]`;
      {
        const items = range(js.minItems, js.maxItems, ' items');
        return `${js.items ? wrap(shapeOf(js.items, indent)) : 'unknown'}[]${items ? ` (${items.trim()})` : ''}`;
      }
    case 'string':
      return `string${range(js.minLength, js.maxLength, ' characters')}${js.pattern ? ` matching /${js.pattern}/` : ''}`;
    case 'integer':
    case 'number':
      return `${type}${range(js.minimum, js.maximum)}`;
    case undefined:
      return 'unknown';
    default:
      return type;
  }
}

/** JSON with two-space indents, each object or array on one line when it fits in 100 characters. */
export function compactJson(value: unknown, indent = '', lead = 0): string {
  const flat = JSON.stringify(value);
  if (value === null || typeof value !== 'object' || indent.length + lead + flat.length <= 100) return flat;
  const inner = `${indent}  `;
  const items = Array.isArray(value)
    ? value.map((v) => `${inner}${compactJson(v, inner)}`)
    : Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${compactJson(v, inner, JSON.stringify(k).length + 2)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${items.join(',\n')}\n${indent}${close}`;
}

/** An array's element in parentheses when it is more than one word (`(integer 1–15)[]`, `("a" | "b")[]`). */
function wrap(shape: string): string {
  return shape.includes(' ') && !shape.startsWith('{') ? `(${shape})` : shape;
}

/** The docstring right before `export const <name>` in `source`, as one paragraph, or ''. */
export function docstringOf(source: string, name: string): string {
  const m = new RegExp(`/\\*\\*((?:(?!\\*/)[^])*)\\*/\\s*export const ${name}\\b`).exec(source);
  if (!m) return '';
  return m[1]!
    .split('\n')
    .map((l) => l.replace(/^\s*\*\s?/, '').trim())
    .filter(Boolean)
    .join(' ');
}

/** The schema files of server/protocol, in the order of FILES, then by name. */
function schemaFiles(): string[] {
  const all = readdirSync(PROTOCOL_DIR).filter((f) => f.endsWith('-schemas.ts'));
  const known = Object.keys(FILES).filter((f) => all.includes(f));
  return [...known, ...all.filter((f) => !known.includes(f)).sort()];
}

/** The generated files as they should read now (repository path → text). */
export async function renderApiSchemas(): Promise<Record<string, string>> {
  const defs: Record<string, Json> = {};
  const out: string[] = [
    "# Request shapes: generated from the server's schemas",
    '',
    '<!-- Generated by `npm run docs:api` (scripts/api-schemas.ts) from server/protocol/*-schemas.ts: do not edit.',
    '     tests/repo/api-schemas.test.ts fails when this file is stale. -->',
    '',
    'Every request body and Socket.IO message the server checks, as the zod schema the server checks it with',
    "(`server/protocol/*-schemas.ts`), turned into JSON Schema (draft 2020-12) by zod 4's `z.toJSONSchema` — so this",
    'page cannot drift from the server. Each entry is a short shape (`key?:` may be left out, `a | b` either, `[A, B]` a',
    'pair, ranges inline); every one is in [api-schemas.json](api-schemas.json) as JSON Schema, under `$defs` by its',
    'name, for programs that check their requests. Objects refuse unknown keys (`"additionalProperties": false`);',
    'texts are trimmed before their length is counted. What JSON Schema cannot say',
    "— no control or text-direction characters, a real calendar day, the meaning of a clock's settings — the server",
    'checks as well, and its refusal names the field and the reason ([error codes](api.md#error-codes)). The routes and',
    'the answers are described in [api.md](api.md).',
    '',
  ];
  const toc: string[] = [];
  const body: string[] = [];
  for (const file of schemaFiles()) {
    const source = readFileSync(join(PROTOCOL_DIR, file), 'utf8');
    const mod = (await import(pathToFileURL(join(PROTOCOL_DIR, file)).href)) as Record<string, unknown>;
    const names = [...source.matchAll(/^export const (\w+)/gm)].map((m) => m[1]!).filter((n) => mod[n] instanceof z.ZodType);
    if (names.length === 0) continue;
    const title = FILES[file] ?? file.replace(/-schemas\.ts$/, '');
    toc.push(`- [${title}](#${slug(title)}): ${names.map((n) => `[\`${n}\`](#${n.toLowerCase()})`).join(', ')}`);
    body.push(`## ${title}`, '', `From \`server/protocol/${file}\`.`, '');
    for (const name of names) {
      const json = jsonSchemaOf(mod[name] as z.ZodType);
      const doc = docstringOf(source, name);
      body.push(`### \`${name}\``, '');
      if (doc) body.push(doc, '');
      body.push('```ts', shapeOf(json), '```', '');
      if (defs[name]) throw new Error(`two schemas named ${name}: name them apart (docs/api-schemas.json keys them by name)`);
      defs[name] = json;
    }
  }
  const json = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $comment:
      'Generated by `npm run docs:api` (scripts/api-schemas.ts) from server/protocol/*-schemas.ts: do not edit. Each request schema is under $defs by the name of its zod schema; docs/api-schemas.md shows them as shapes.',
    $defs: defs,
  };
  return {
    [API_SCHEMAS_FILES.md]: `${[...out, ...toc, '', ...body].join('\n').replace(/\n+$/, '')}\n`,
    [API_SCHEMAS_FILES.json]: `${compactJson(json)}\n`,
  };
}

/** GitHub's slug of a heading made of words, spaces, colons and commas. */
function slug(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\-_ ]/gu, '')
    .replace(/ /g, '-');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const [path, want] of Object.entries(await renderApiSchemas())) {
    const have = existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), 'utf8') : '';
    if (have === want) console.log(`${path} is current`);
    else if (check) {
      console.error(`${path} is stale: run \`npm run docs:api\``);
      stale++;
    } else {
      writeFileSync(join(ROOT, path), want);
      console.log(`wrote ${path} (${want.split('\n').length - 1} lines)`);
    }
  }
  if (stale > 0) process.exit(1);
}
