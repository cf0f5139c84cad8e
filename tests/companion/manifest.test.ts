/**
 * The Companion module's package metadata: its manifest validates against the JSON schema `@companion-module/base`
 * ships (assets/manifest.schema.json, with ajv); no URL in it points at a project that is not ours (cuecast has no
 * public home yet: `repository` and `bugs`, which the schema requires, are empty); the MIT licence text is there for
 * the package (companion/LICENSE, not empty); the README says where to report problems.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');

describe('the Companion module package', () => {
  const manifest = JSON.parse(read('companion/companion/manifest.json')) as Record<string, unknown>;

  it("the manifest validates against @companion-module/base's schema", () => {
    const schema = JSON.parse(read('node_modules/@companion-module/base/assets/manifest.schema.json')) as object;
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    const ok = validate(manifest);
    expect(validate.errors ?? [], JSON.stringify(validate.errors)).toEqual([]);
    expect(ok).toBe(true);
    // The schema catches a broken manifest (the check can fail).
    expect(validate({ ...manifest, runtime: { type: 'node22' } })).toBe(false);
  });

  it("no URL points at someone else's project; the licence is MIT, its text shipped", () => {
    const urls = JSON.stringify(manifest).match(/https?:\/\/[^"]+/g) ?? [];
    expect(urls).toEqual([]);
    expect(manifest).toMatchObject({ repository: '', bugs: '', license: 'MIT' });
    const licence = read('companion/LICENSE');
    expect(licence).toMatch(/^MIT License/);
    expect(licence).toContain('Permission is hereby granted, free of charge');
    expect(JSON.parse(read('companion/package.json')).license).toBe('MIT');
    expect(read('companion/README.md')).toMatch(/report problems/i);
  });
});
