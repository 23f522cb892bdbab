// The home page laid out for phones of 360 to 430 px. The hero's
// highlighted line never leaves its last word alone on a line ("all."), and
// the 8-card feature grid leaves no hole: every row reaches the grid's
// right edge. At 1280 px too, where SPEC's 3 columns leave 2 cards in the
// last row: the last card spans what is left.
import { expect, test, type Page } from "@playwright/test";
import { waitForHydration } from "./helpers";
import landing from "@omnibus/shared/content/landing.json" with { type: "json" };

/** The words on each rendered line of an element's text (by the rectangles of each word). */
async function lines(page: Page, selector: string): Promise<string[][]> {
  return page.locator(selector).evaluate((el) => {
    const text = el.firstChild as Text;
    const out: { top: number; words: string[] }[] = [];
    const re = /\S+/g;
    for (let m = re.exec(text.data); m; m = re.exec(text.data)) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      const top = Math.round(range.getClientRects()[0].top);
      const line = out.find((l) => Math.abs(l.top - top) < 4);
      if (line) line.words.push(m[0]);
      else out.push({ top, words: [m[0]] });
    }
    return out.map((l) => l.words);
  });
}

/** For each row of the feature grid: its cards and the room left empty at its end (px). */
async function gridRows(page: Page) {
  return page.locator("#features [data-feature-grid]").evaluate((grid) => {
    const box = grid.getBoundingClientRect();
    const rows = new Map<number, { cards: number; right: number }>();
    for (const li of grid.children) {
      const r = li.getBoundingClientRect();
      const top = Math.round(r.top);
      const row = rows.get(top) ?? { cards: 0, right: box.left };
      rows.set(top, { cards: row.cards + 1, right: Math.max(row.right, r.right) });
    }
    return [...rows.values()].map((row) => ({ cards: row.cards, empty: Math.round(box.right - row.right) }));
  });
}

for (const width of [360, 390, 430, 1280]) {
  test(`hero and feature grid at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/");
    // The grid is below the first screen: its columns come with the full stylesheet,
    // which is in by the time a visitor scrolls there (lib/deferred-scripts.tsx).
    await waitForHydration(page);
    for (const selector of ["#hero-title", "#hero-title + p"]) {
      const words = await lines(page, selector);
      if (words.length > 1) expect(words.at(-1)!.length, `${selector}: last line ${JSON.stringify(words)}`).toBeGreaterThan(1);
    }
    expect((await lines(page, "#hero-title + p")).flat().join(" ")).toBe(landing.hero.highlight);
    const rows = await gridRows(page);
    expect(rows.reduce((sum, row) => sum + row.cards, 0)).toBe(8);
    for (const [i, row] of rows.entries()) expect(row.empty, `room left at the end of row ${i + 1} of ${JSON.stringify(rows)}`).toBeLessThanOrEqual(1);
  });
}
