import { describe, expect, it } from "vitest";
import { fillPlaceholders, isExternal, telHref } from "./site";
import { DEFAULT_SITE_SETTINGS, siteData, siteSettings } from "./site.server";

const settings = { email: "help@shop.example", phone: "+91 80 1234 5678", scheduleDemoUrl: "https://cal.example/demo" };

describe("fillPlaceholders", () => {
  it("replaces {email}, {phone} and {scheduleDemoUrl} everywhere, leaving the input untouched", () => {
    const content = { a: "Write to {email}", list: [{ to: "{scheduleDemoUrl}" }, "Call {phone} or {phone}"], n: 3, other: "{unknown}" };
    expect(fillPlaceholders(content, settings)).toEqual({
      a: "Write to help@shop.example",
      list: [{ to: "https://cal.example/demo" }, "Call +91 80 1234 5678 or +91 80 1234 5678"],
      n: 3,
      other: "{unknown}",
    });
    expect(content.a).toBe("Write to {email}");
  });

  it("drops the content files' $comment notes, which no visitor sees, at every depth", () => {
    const content = { $comment: "for editors", items: [{ $comment: "also", label: "Shown" }] };
    expect(fillPlaceholders(content, settings)).toEqual({ items: [{ label: "Shown" }] });
  });
});

describe("site settings", () => {
  it("come from SUPPORT_EMAIL, SUPPORT_PHONE and SCHEDULE_DEMO_URL, with defaults", () => {
    expect(siteSettings({})).toEqual(DEFAULT_SITE_SETTINGS);
    expect(siteSettings({ SUPPORT_EMAIL: " help@shop.example ", SUPPORT_PHONE: "+91 80 1234 5678", SCHEDULE_DEMO_URL: "https://cal.example/demo" })).toEqual(settings);
  });

  it("leave no placeholder in the site, footer and newsletter content", () => {
    const data = siteData(settings);
    const text = JSON.stringify(data);
    expect(text).not.toMatch(/\{(email|phone|scheduleDemoUrl)\}/);
    expect(data.site.support.email).toBe(settings.email);
    expect(data.site.support.phone).toBe(settings.phone);
    expect(data.footer.cta.links.map((l) => l.to)).toEqual(["/register", settings.scheduleDemoUrl]);
  });
});

describe("footer content (SPEC §3 shape)", () => {
  const { footer, site } = siteData(settings);

  it("has the call to action with two links and benefits", () => {
    expect(footer.cta.subtitle).toBeTruthy();
    expect(footer.cta.title).toBeTruthy();
    expect(footer.cta.links).toHaveLength(2);
    expect(footer.cta.benefits.length).toBeGreaterThan(0);
  });

  it("links every column entry to a route path or an external URL, never both", () => {
    for (const column of footer.columns) {
      for (const link of column.links) {
        const l = link as { to?: string; url?: string };
        expect(Boolean(l.to) !== Boolean(l.url), `${link.label}`).toBe(true);
        if (l.to) expect(l.to.startsWith("/")).toBe(true);
        if (l.url) expect(isExternal(l.url)).toBe(true);
      }
    }
  });

  it("has the resource, policy and company links of SPEC §1, socials and the copyright 2022-2023", () => {
    const labels = footer.columns.flatMap((c) => c.links.map((l) => l.label.toLowerCase()));
    for (const label of ["omnibus university", "docs", "blog", "forum", "about", "partner with us", "careers", "get in touch"]) {
      expect(labels).toContain(label);
    }
    expect(footer.links.map((l) => l.to)).toEqual(["/terms-of-use", "/privacy-policy", "/cookie-policy", "/disclaimer"]);
    for (const social of footer.socials) expect(Object.keys(social).sort()).toEqual(["icon", "link", "name"]);
    expect(footer.copyright).toBe("2022-2023");
    expect(site.address.lines.join(" ")).toMatch(/Bangalore.*India/);
  });
});

describe("links", () => {
  it("tel: hrefs keep only digits and the plus", () => {
    expect(telHref("+91 80 4000 0000")).toBe("tel:+918040000000");
  });

  it("external means another origin or a mail/phone link", () => {
    expect(isExternal("https://calendly.com/x")).toBe(true);
    expect(isExternal("mailto:a@b.c")).toBe(true);
    expect(isExternal("/register")).toBe(false);
    expect(isExternal("/#about")).toBe(false);
  });
});
