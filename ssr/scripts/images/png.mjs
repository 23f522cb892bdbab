// Tiny PNG writer (RGBA, zlib from node) and a rasteriser for the app icon,
// so the PWA icons are real PNG files made by the project, with no image tool.
import { deflateSync } from "node:zlib";

const CRC_TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** Encodes size×size RGBA pixels (Uint8Array, row-major) as a PNG. */
export function encodePNG(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    Buffer.from(rgba.buffer, y * size * 4, size * 4).copy(raw, y * (size * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const VIOLET = [0x74, 0x47, 0xfa];
const TEAL = [0x14, 0xb8, 0xa6];

/**
 * The Omnibus mark in unit coordinates (0..1): a violet-to-teal tile, a white
 * ring and four channel dots on its orbit. `maskable` fills the whole square
 * and keeps the mark inside the 80% safe zone; otherwise the tile is rounded.
 * Returns [r, g, b, a] in 0..1 for a point.
 */
function markAt(x, y, maskable) {
  const scale = maskable ? 0.72 : 1; // mark size relative to the tile
  const inTile = maskable || roundedRect(x, y, 0.5, 0.5, 0.5, 0.5, 0.22);
  if (!inTile) return [0, 0, 0, 0];
  const t = (x + y) / 2;
  let c = VIOLET.map((v, i) => (v + (TEAL[i] - v) * t * 0.9) / 255);
  const dx = (x - 0.5) / scale, dy = (y - 0.5) / scale;
  const r = Math.hypot(dx, dy);
  const ring = Math.abs(r - 0.21) < 0.055;
  const dots = [[0, -0.355], [0.355, 0], [0, 0.355], [-0.355, 0]].some(([px, py]) => Math.hypot(dx - px, dy - py) < 0.055);
  if (ring || dots) c = [1, 1, 1];
  return [...c, 1];
}

function roundedRect(x, y, cx, cy, hw, hh, radius) {
  const qx = Math.abs(x - cx) - (hw - radius), qy = Math.abs(y - cy) - (hh - radius);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius <= 0;
}

/** Renders the mark at size×size with 4×4 supersampling. */
export function iconPNG(size, { maskable = false } = {}) {
  const px = new Uint8Array(size * size * 4);
  const n = 4;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const [cr, cg, cb, ca] = markAt((x + (sx + 0.5) / n) / size, (y + (sy + 0.5) / n) / size, maskable);
          r += cr * ca; g += cg * ca; b += cb * ca; a += ca;
        }
      }
      const i = (y * size + x) * 4;
      if (a > 0) {
        px[i] = Math.round((r / a) * 255);
        px[i + 1] = Math.round((g / a) * 255);
        px[i + 2] = Math.round((b / a) * 255);
      }
      px[i + 3] = Math.round((a / (n * n)) * 255);
    }
  }
  return encodePNG(size, px);
}
