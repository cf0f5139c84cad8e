/**
 * Sponsors' logos through the REST routes on a server over the real Redis (the stores' image methods are in the
 * shared store-port suite, tests/server/store-port.test.ts) — the type read from the
 * content (not the name or the Content-Type), the 512 KiB and 20-logo limits, refusals naming the field and
 * changing nothing, order and seconds, removal, and the image served with `nosniff` and a sandboxing CSP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app';
import { createEvent, type CreatedEvent } from '../helpers/events';
import { pngOf } from '../helpers/images';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis';
import { api, startTestServer } from '../helpers/server';

const redis = await requireRedis();

const SVG = Buffer.from(
  '<?xml version="1.0"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#0a5"/><script>alert(1)</script></svg>',
);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8L'), Buffer.alloc(14)]);

describe.skipIf(!redis.available)('sponsor routes (Redis store)', () => {
  const prefix = testPrefix('sponsors');
  let s: RunningServer;
  let ev: CreatedEvent;
  const base = () => `${s.url}/api/events/${ev.id}/sponsors`;
  const upload = (bytes: Buffer, query: string, opts: { token?: string | null; type?: string } = {}) =>
    fetch(`${base()}?${query}`, {
      method: 'POST',
      headers: {
        'content-type': opts.type ?? 'application/octet-stream',
        ...(opts.token === null ? {} : { authorization: `Bearer ${opts.token ?? ev.organiserToken}` }),
      },
      body: new Uint8Array(bytes),
    });
  const sponsors = async () => (await api(s.url, `/api/events/${ev.id}`)).body.sponsors ?? [];

  beforeAll(async () => {
    s = await startTestServer({ redisUrl: redis.url, redisPrefix: prefix });
    ev = await createEvent(s.url);
  });
  afterAll(async () => {
    await s?.close();
    await dropPrefix(redis.url, prefix);
  });

  it('takes PNG, JPEG, WebP and SVG by their content, lists them in order with their seconds, and serves each as an image', async () => {
    const png = pngOf(8, 4, [0, 120, 255]);
    // The content decides: a PNG sent as "image/svg+xml" is a PNG.
    const res = await upload(png, 'name=Blue%20Chalk&seconds=5', { type: 'image/svg+xml' });
    expect(res.status).toBe(201);
    const { sponsor } = (await res.json()) as { sponsor: { id: string } };
    expect(sponsor).toMatchObject({ name: 'Blue Chalk', type: 'image/png', size: png.length, seconds: 5 });
    for (const [bytes, type] of [
      [JPEG, 'image/jpeg'],
      [WEBP, 'image/webp'],
      [SVG, 'image/svg+xml'],
    ] as const) {
      const r = await upload(bytes, `name=${encodeURIComponent(type.split('/')[1]!)}`);
      expect(r.status, type).toBe(201);
      expect(((await r.json()) as { sponsor: { type: string; seconds: number } }).sponsor).toMatchObject({ type, seconds: 8 });
    }
    expect((await sponsors()).map((x: { name: string }) => x.name)).toEqual(['Blue Chalk', 'jpeg', 'webp', 'svg+xml']);
    // The table state carries them (the table screen and the overlay follow it).
    expect((await api(s.url, `/api/events/${ev.id}/tables/tv-table`)).body.sponsors).toHaveLength(4);

    const img = await fetch(`${base()}/${sponsor.id}/image`);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(Buffer.compare(Buffer.from(await img.arrayBuffer()), png)).toBe(0);
    const svgId = (await sponsors())[3].id;
    const svg = await fetch(`${base()}/${svgId}/image`);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(svg.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(svg.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses what is not an image, too large, unnamed, bad seconds, without the token, or past 20 — naming the field, storing nothing', async () => {
    const before = await sponsors();
    const cases: [string, Promise<Response>, number, string, string][] = [
      ['HTML named logo.png', upload(Buffer.from('<html><script>alert(1)</script></html>'), 'name=x', { type: 'image/png' }), 400, 'invalid-event', 'image'],
      ['an empty body', upload(Buffer.alloc(0), 'name=x'), 400, 'invalid-event', 'image'],
      ['over 512 KiB', upload(Buffer.concat([pngOf(1, 1, [0, 0, 0]), Buffer.alloc(512 * 1024)]), 'name=x'), 413, 'too-large', 'image'],
      ['no name', upload(JPEG, 'seconds=5'), 400, 'invalid-event', 'name'],
      ['seconds 1', upload(JPEG, 'name=x&seconds=1'), 400, 'invalid-event', 'seconds'],
      ['no token', upload(JPEG, 'name=x', { token: null }), 401, 'unauthorized', 'token'],
      ['a wrong token', upload(JPEG, 'name=x', { token: 'nope' }), 403, 'forbidden', 'token'],
    ];
    for (const [what, pending, status, code, field] of cases) {
      const res = await pending;
      expect(res.status, what).toBe(status);
      expect(((await res.json()) as { error: unknown }).error, what).toMatchObject({ code, field });
    }
    expect(await sponsors()).toEqual(before);
    for (let i = before.length; i < 20; i++) expect((await upload(JPEG, `name=n${i}`)).status).toBe(201);
    const over = await upload(JPEG, 'name=twenty-first');
    expect(over.status).toBe(400);
    expect(((await over.json()) as { error: unknown }).error).toMatchObject({ code: 'invalid-event', field: 'sponsors' });
    expect(await sponsors()).toHaveLength(20);
  });

  it('changes the order, seconds and name; removes a logo and its image', async () => {
    const [a, b] = await sponsors();
    const auth = { token: ev.organiserToken };
    const moved = await api(s.url, `/api/events/${ev.id}/sponsors/${b.id}`, {
      ...auth,
      method: 'PATCH',
      body: { position: 0, seconds: 12, name: 'Chalk & Co' },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.event.sponsors.slice(0, 2).map((x: { id: string }) => x.id)).toEqual([b.id, a.id]);
    expect(moved.body.event.sponsors[0]).toMatchObject({ seconds: 12, name: 'Chalk & Co' });
    expect((await api(s.url, `/api/events/${ev.id}/sponsors/${b.id}`, { ...auth, method: 'PATCH', body: { seconds: 99 } })).body.error).toMatchObject({
      code: 'invalid-event',
      field: 'seconds',
    });
    expect((await api(s.url, `/api/events/${ev.id}/sponsors/${b.id}`, { ...auth, method: 'PATCH', body: { colour: 'red' } })).body.error).toMatchObject({
      code: 'invalid-event',
      field: 'colour',
    });
    expect((await api(s.url, `/api/events/${ev.id}/sponsors/nosuch`, { ...auth, method: 'PATCH', body: { seconds: 5 } })).body.error).toMatchObject({
      code: 'not-found',
      field: 'sponsorId',
    });
    const gone = await api(s.url, `/api/events/${ev.id}/sponsors/${a.id}`, { ...auth, method: 'DELETE' });
    expect(gone.status).toBe(200);
    expect(gone.body.event.sponsors.some((x: { id: string }) => x.id === a.id)).toBe(false);
    expect((await fetch(`${base()}/${a.id}/image`)).status).toBe(404);
  });
});
