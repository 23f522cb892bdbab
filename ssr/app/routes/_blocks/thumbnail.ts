// The /blocks index's thumbnail of a catalogue entry: a picture of the entry's
// first example as its demo page shows it, light and dark, made by
// scripts/images/thumbnails.mjs (which reads this file for the names and the size).
// 5:2, the ratio of the index card's picture box (aspect-[5/2] in routes/_blocks/index.tsx).
export const THUMBNAIL = { width: 800, height: 320 } as const;

export const thumbnailOf = (routeId: string) => ({
  light: `/images/blocks/${routeId}.webp`,
  dark: `/images/blocks/${routeId}-dark.webp`,
});
