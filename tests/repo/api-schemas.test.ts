/**
 * docs/api-schemas.md and docs/api-schemas.json are generated from the server's zod schemas (`npm run docs:api`,
 * scripts/api-schemas.ts): this fails when either is stale, i.e. a schema changed and the documents were not made
 * again, and checks the generator against a small schema of its own.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { API_SCHEMAS_FILES, docstringOf, jsonSchemaOf, renderApiSchemas, shapeOf } from '../../scripts/api-schemas';

describe('the generated API schemas', () => {
  it('docs/api-schemas.md and .json are what `npm run docs:api` makes from server/protocol/*-schemas.ts now', async () => {
    const want = await renderApiSchemas();
    expect(Object.keys(want).sort()).toEqual(Object.values(API_SCHEMAS_FILES).sort());
    for (const [path, text] of Object.entries(want)) expect(readFileSync(path, 'utf8'), `${path} is stale: run npm run docs:api`).toBe(text);
    const defs = (JSON.parse(want[API_SCHEMAS_FILES.json]!) as { $defs: Record<string, unknown> }).$defs;
    for (const name of ['recordBodySchema', 'recordSchema', 'subscribeSchema', 'stepSchema', 'setupSchema', 'eventCreateSchema', 'shotClockSettingsBodySchema'])
      expect(defs, name).toHaveProperty(name);
  });

  it('shows a schema as the shape a client writes: optional keys, unions, pairs, ranges, texts counted after trimming', () => {
    const name = z
      .string()
      .trim()
      .transform((s) => s.normalize('NFC'))
      .pipe(z.string().min(1).max(60));
    const schema = z.strictObject({
      players: z.tuple([name, name]),
      ruleset: z.enum(['nba', 'wpa']).optional(),
      start: z.strictObject({ score: z.number().int().min(-10000).max(10000), onTable: z.array(z.number().int().min(1).max(15)).max(15) }).optional(),
      clock: z.union([z.strictObject({ preset: z.literal('pro') }), z.null()]),
    });
    expect(jsonSchemaOf(schema).properties!.players).toEqual({
      type: 'array',
      prefixItems: [
        { type: 'string', minLength: 1, maxLength: 60 },
        { type: 'string', minLength: 1, maxLength: 60 },
      ],
      items: false,
      minItems: 2,
      maxItems: 2,
    });
    expect(shapeOf(jsonSchemaOf(schema))).toBe(
      [
        '{',
        '  players: [string 1–60 characters, string 1–60 characters],',
        '  ruleset?: "nba" | "wpa",',
        '  start?: {',
        '    score: integer -10000 … 10000,',
        '    onTable: (integer 1–15)[] (≤ 15 items)',
        '  },',
        '  clock: {',
        '    preset: "pro"',
        '  } | null',
        '}',
      ].join('\n'),
    );
  });

  it("takes each schema's docstring from its source", () => {
    const source = '/** Socket.IO `subscribe`.\n * Second line. */\nexport const subscribeSchema = z.object({});\nexport const other = 1;';
    expect(docstringOf(source, 'subscribeSchema')).toBe('Socket.IO `subscribe`. Second line.');
    expect(docstringOf(source, 'other')).toBe('');
  });
});
