// The landing page's app screenshot: the Omnibus admin console drawn as SVG,
// once per theme. Run `node ssr/scripts/images/make.mjs` to rewrite the files.

const THEMES = {
  light: {
    page: "#f6f5fb", window: "#ffffff", chrome: "#eeecf6", border: "#e4e1ee", sidebar: "#fbfaff",
    text: "#161326", muted: "#6b6880", faint: "#dcd8ea", active: "#efeaff", activeText: "#5519d6",
    card: "#ffffff", grid: "#eeecf4", url: "#ffffff",
  },
  dark: {
    page: "#0b0a14", window: "#12101f", chrome: "#1b1830", border: "#2a2642", sidebar: "#0f0d1b",
    text: "#f2f0fb", muted: "#9a96b3", faint: "#2e2a48", active: "#2a1f5c", activeText: "#c9bcff",
    card: "#171429", grid: "#242038", url: "#0f0d1b",
  },
};

const CHANNELS = [
  { name: "Website", value: "₹1,84,200", delta: "+12.4%", color: "#7447fa" },
  { name: "Point-of-sale", value: "₹96,450", delta: "+6.1%", color: "#14b8a6" },
  { name: "Mobile app", value: "₹62,300", delta: "+18.9%", color: "#f59e0b" },
  { name: "Marketplace", value: "₹1,21,900", delta: "+9.7%", color: "#ec4899" },
];

const MENU = ["Dashboard", "Orders", "Products", "Customers", "Discounts", "AI Studio", "Ads", "Analytics", "Settings"];

const ORDERS = [
  ["#10482", "Website", "Ananya R.", "₹2,340", "Shipped", "#14b8a6"],
  ["#10481", "Point-of-sale", "Walk-in", "₹860", "Paid", "#7447fa"],
  ["#10480", "Marketplace", "Rohit K.", "₹4,120", "Partially fulfilled", "#f59e0b"],
  ["#10479", "Mobile app", "Farah S.", "₹1,275", "Refunded", "#ec4899"],
];

// Two weeks of sales (thousands of rupees): all channels, and the website alone.
const TOTAL = [310, 342, 298, 365, 402, 388, 420, 396, 445, 470, 452, 498, 521, 465];
const WEB = [120, 131, 118, 140, 152, 149, 161, 150, 172, 180, 171, 190, 199, 184];

function series(values, x0, y0, w, h, max) {
  const step = w / (values.length - 1);
  return values.map((v, i) => `${(x0 + i * step).toFixed(1)},${(y0 + h - (v / max) * h).toFixed(1)}`);
}

const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

export function dashboardSVG(themeName) {
  const t = THEMES[themeName];
  const o = [];
  const text = (x, y, s, size, fill, weight = 400, anchor = "start") =>
    o.push(`<text x="${x}" y="${y}" font-size="${size}" fill="${fill}"${weight !== 400 ? ` font-weight="${weight}"` : ""}${anchor !== "start" ? ` text-anchor="${anchor}"` : ""}>${esc(s)}</text>`);

  o.push(`<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="800" viewBox="0 0 1280 800" font-family="ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif">`);
  o.push(`<defs><linearGradient id="area" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#7447fa" stop-opacity=".35"/><stop offset="1" stop-color="#7447fa" stop-opacity="0"/></linearGradient>`);
  o.push(`<linearGradient id="mark" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7447fa"/><stop offset="1" stop-color="#14b8a6"/></linearGradient></defs>`);
  // Window and browser chrome.
  o.push(`<rect width="1280" height="800" rx="18" fill="${t.window}"/>`);
  o.push(`<path d="M0 18a18 18 0 0 1 18-18h1244a18 18 0 0 1 18 18v30H0z" fill="${t.chrome}"/>`);
  for (const [i, c] of ["#ff5f57", "#febc2e", "#28c840"].entries()) o.push(`<circle cx="${26 + i * 20}" cy="24" r="6" fill="${c}"/>`);
  o.push(`<rect x="460" y="12" width="360" height="24" rx="12" fill="${t.url}" stroke="${t.border}"/>`);
  text(640, 29, "admin.omnibus.example/dashboard", 12, t.muted, 400, "middle");
  o.push(`<path d="M0 48h1280" stroke="${t.border}"/>`);

  // Sidebar.
  o.push(`<path d="M0 48h232v734a18 18 0 0 1-18 18H18a18 18 0 0 1-18-18z" fill="${t.sidebar}"/><path d="M232 48v752" stroke="${t.border}"/>`);
  o.push(`<rect x="24" y="72" width="32" height="32" rx="9" fill="url(#mark)"/><circle cx="40" cy="88" r="8" fill="none" stroke="#fff" stroke-width="3.5"/>`);
  text(66, 94, "Omnibus", 18, t.text, 700);
  MENU.forEach((m, i) => {
    const y = 136 + i * 44;
    if (i === 0) o.push(`<rect x="16" y="${y - 4}" width="200" height="36" rx="9" fill="${t.active}"/>`);
    o.push(`<rect x="32" y="${y + 6}" width="16" height="16" rx="4" fill="${i === 0 ? "#7447fa" : t.faint}"/>`);
    text(60, y + 19, m, 14, i === 0 ? t.activeText : t.muted, i === 0 ? 600 : 400);
  });
  o.push(`<rect x="16" y="700" width="200" height="76" rx="12" fill="${t.active}"/>`);
  text(32, 728, "Uptime this month", 12, t.muted);
  text(32, 756, "99.998%", 22, t.activeText, 700);

  // Header.
  text(264, 100, "Good morning, Meera", 26, t.text, 700);
  text(264, 126, "Today across all your channels · Saturday", 14, t.muted);
  o.push(`<rect x="1004" y="78" width="244" height="40" rx="20" fill="#7447fa"/>`);
  text(1126, 103, "+ Add product", 15, "#ffffff", 600, "middle");

  // Channel cards.
  CHANNELS.forEach((c, i) => {
    const x = 264 + i * 250;
    o.push(`<rect x="${x}" y="152" width="234" height="112" rx="14" fill="${t.card}" stroke="${t.border}"/>`);
    o.push(`<circle cx="${x + 24}" cy="180" r="6" fill="${c.color}"/>`);
    text(x + 38, 185, c.name, 14, t.muted);
    text(x + 20, 228, c.value, 26, t.text, 700);
    o.push(`<rect x="${x + 20}" y="238" width="64" height="20" rx="10" fill="${c.color}" fill-opacity=".15"/>`);
    text(x + 52, 252, c.delta, 12, c.color, 600, "middle");
  });

  // Sales chart.
  o.push(`<rect x="264" y="284" width="640" height="292" rx="14" fill="${t.card}" stroke="${t.border}"/>`);
  text(288, 318, "Sales, last 14 days", 16, t.text, 600);
  text(288, 340, "₹46.5 lakh · +14% on the fortnight before", 13, t.muted);
  const cx = 296, cy = 364, cw = 584, ch = 180, max = 560;
  for (let i = 0; i <= 3; i++) o.push(`<path d="M${cx} ${cy + (ch / 3) * i}h${cw}" stroke="${t.grid}"/>`);
  const total = series(TOTAL, cx, cy, cw, ch, max);
  const web = series(WEB, cx, cy, cw, ch, max);
  o.push(`<path d="M${total.join("L")}L${cx + cw},${cy + ch}L${cx},${cy + ch}z" fill="url(#area)"/>`);
  o.push(`<path d="M${total.join("L")}" fill="none" stroke="#7447fa" stroke-width="3" stroke-linejoin="round"/>`);
  o.push(`<path d="M${web.join("L")}" fill="none" stroke="#14b8a6" stroke-width="3" stroke-dasharray="6 6" stroke-linejoin="round"/>`);
  const last = total[total.length - 2].split(",");
  o.push(`<circle cx="${last[0]}" cy="${last[1]}" r="6" fill="#7447fa" stroke="${t.card}" stroke-width="3"/>`);

  // AI Studio card.
  o.push(`<rect x="920" y="284" width="328" height="292" rx="14" fill="${t.card}" stroke="${t.border}"/>`);
  o.push(`<rect x="944" y="304" width="92" height="24" rx="12" fill="#7447fa" fill-opacity=".15"/>`);
  text(990, 321, "✦ AI Studio", 12, "#7447fa", 700, "middle");
  text(944, 358, "Indigo block-print kurta", 16, t.text, 600);
  ["Breathable, hand-block printed cotton", "in a deep natural indigo, cut for long", "summer days. Each piece is printed", "by artisans in Bagru…"].forEach((l, i) =>
    text(944, 386 + i * 22, l, 13, t.muted));
  o.push(`<rect x="944" y="486" width="134" height="34" rx="17" fill="#7447fa"/>`);
  text(1011, 508, "Use description", 13, "#ffffff", 600, "middle");
  o.push(`<rect x="1088" y="486" width="136" height="34" rx="17" fill="none" stroke="${t.border}"/>`);
  text(1156, 508, "Post to Instagram", 13, t.text, 500, "middle");
  text(944, 548, "Social captions ready: 3", 12, t.muted);

  // Orders table.
  o.push(`<rect x="264" y="592" width="984" height="184" rx="14" fill="${t.card}" stroke="${t.border}"/>`);
  text(288, 624, "Latest orders", 16, t.text, 600);
  const cols = [288, 388, 548, 708, 828];
  ORDERS.forEach((r, i) => {
    const y = 660 + i * 30;
    o.push(`<path d="M288 ${y - 20}h936" stroke="${t.grid}"/>`);
    text(cols[0], y, r[0], 13, t.text, 600);
    text(cols[1], y, r[1], 13, t.muted);
    text(cols[2], y, r[2], 13, t.muted);
    text(cols[3], y, r[3], 13, t.text, 600);
    const w = r[4].length * 7 + 24;
    o.push(`<rect x="${cols[4]}" y="${y - 15}" width="${w}" height="22" rx="11" fill="${r[5]}" fill-opacity=".15"/>`);
    text(cols[4] + w / 2, y, r[4], 12, r[5], 600, "middle");
  });
  o.push(`</svg>`);
  return o.join("\n") + "\n";
}
