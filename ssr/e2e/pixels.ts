// Whether a picture shows something (the /blocks thumbnails): at
// least 1% of its pixels are not in its most common colour (the background;
// colours compared at 5 bits a channel), and the box around those pixels
// covers at least 4% of the picture. A blank thumbnail had 0.1% of its pixels
// drawn; a "mostly empty" one a small button in one corner. Raw RGB bytes.
export function drawing(rgb: Uint8Array, width: number) {
  const key = (i: number) => ((rgb[i] >> 3) << 10) | ((rgb[i + 1] >> 3) << 5) | (rgb[i + 2] >> 3);
  const counts = new Map<number, number>();
  for (let i = 0; i < rgb.length; i += 3) counts.set(key(i), (counts.get(key(i)) ?? 0) + 1);
  let background = 0;
  let most = 0;
  for (const [k, n] of counts) if (n > most) [background, most] = [k, n];
  const pixels = rgb.length / 3;
  const height = pixels / width;
  let [left, right, top, bottom] = [width, -1, height, -1];
  for (let p = 0; p < pixels; p++) {
    if (key(p * 3) === background) continue;
    const x = p % width;
    const y = Math.floor(p / width);
    left = Math.min(left, x);
    right = Math.max(right, x);
    top = Math.min(top, y);
    bottom = Math.max(bottom, y);
  }
  return { share: 1 - most / pixels, spanX: right < 0 ? 0 : (right - left + 1) / width, spanY: bottom < 0 ? 0 : (bottom - top + 1) / height };
}

export function showsSomething(rgb: Uint8Array, width: number) {
  const d = drawing(rgb, width);
  return { drawn: d.share >= 0.01, large: d.spanX * d.spanY >= 0.04 };
}
