// Issue 32.6: the catalogue a marketer uses. The featured-and-archive blog
// layout lists each post once.
import { expect, test } from "@playwright/test";

for (const js of [true, false]) {
  test(`/blog/posts-10 shows no post twice (JavaScript ${js ? "on" : "off"})`, async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto("/blog/posts-10");
    // Every link to a post that names it (not its "Read more", which names it in aria-label): each post once.
    const links = await page.locator('main a[href^="/blog/article/"]').evaluateAll((as) => as.map((a) => ({ href: a.getAttribute("href"), text: a.textContent?.trim() ?? "", readMore: a.hasAttribute("aria-label") })));
    const named = links.filter((l) => !l.readMore && l.text !== "").map((l) => l.href);
    expect(named.length).toBeGreaterThan(2);
    expect(new Set(named).size, named.join(" | ")).toBe(named.length);
    await context.close();
  });
}
