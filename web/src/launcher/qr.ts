/**
 * The scorer link as a QR code for the launcher's hand-off (a tablet at the table scans it). Encoding is
 * uqr's (pinned, dependency-free); this module turns its module matrix into one compact SVG path. Only the
 * launcher imports it, so only the launcher's bundle carries the encoder.
 */
import { encode } from 'uqr';

/** A QR code as an SVG path: `size` × `size` modules (quiet zone included), dark modules in `d`. */
export interface QrPath {
  size: number;
  d: string;
}

/** Modules of white border around the code: the QR specification's quiet zone. */
export const QUIET_ZONE = 4;

/**
 * Encode `text` (error correction M: survives a smudged or glossy screen) and draw each run of dark
 * modules in a row as one rectangle of the path, in module units.
 */
export function qrPath(text: string): QrPath {
  const { data, size } = encode(text, { ecc: 'M', border: QUIET_ZONE });
  let d = '';
  for (let y = 0; y < size; y++) {
    const row = data[y]!;
    for (let x = 0; x < size;) {
      if (!row[x]) {
        x++;
        continue;
      }
      let end = x;
      while (end < size && row[end]) end++;
      d += `M${x} ${y}h${end - x}v1h${x - end}z`;
      x = end;
    }
  }
  return { size, d };
}
