/** Small real images for the tests (sponsors' logos). */
import { PNG } from 'pngjs';

/** A real PNG of `w`×`h` in one colour. */
export function pngOf(w: number, h: number, rgb: [number, number, number]): Buffer {
  const png = new PNG({ width: w, height: h });
  for (let i = 0; i < w * h; i++) png.data.set([...rgb, 255], i * 4);
  return PNG.sync.write(png);
}

/** Upload a sponsor's logo to event `eventId` with the organiser token; the new sponsor's id (throws unless 201). */
export async function uploadSponsor(url: string, eventId: string, token: string, bytes: Buffer, name: string, seconds = 8): Promise<string> {
  const res = await fetch(`${url}/api/events/${eventId}/sponsors?name=${encodeURIComponent(name)}&seconds=${seconds}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    body: new Uint8Array(bytes),
  });
  const body = (await res.json()) as { sponsor?: { id: string } };
  if (res.status !== 201 || !body.sponsor) throw new Error(`upload sponsor: ${res.status} ${JSON.stringify(body)}`);
  return body.sponsor.id;
}
