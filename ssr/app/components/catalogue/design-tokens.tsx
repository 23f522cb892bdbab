// The design tokens as the stylesheet defines them: app.css's @theme block
// (and Tailwind's own theme for the type scale) is parsed, not retyped, so a
// token changed in the CSS changes here too.
export interface Token {
  name: string;
  value: string;
}

/** `--name: value;` declarations inside the first `@theme { … }` block of a stylesheet. */
export function themeTokens(css: string, prefix: string): Token[] {
  const start = css.search(/@theme\b[^{]*\{/);
  if (start < 0) return [];
  let depth = 0;
  let end = css.length;
  for (let i = css.indexOf("{", start); i < css.length; i++) {
    if (css[i] === "{") depth++;
    else if (css[i] === "}" && --depth === 0) {
      end = i;
      break;
    }
  }
  const body = css.slice(start, end).replace(/\/\*[\s\S]*?\*\//g, "");
  const tokens: Token[] = [];
  for (const m of body.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)) {
    if (m[1].startsWith(prefix)) tokens.push({ name: m[1], value: m[2].trim() });
  }
  return tokens;
}

/** Swatches: each colour painted with its own custom property. */
export function ColorTokens({ tokens }: { tokens: Token[] }) {
  return (
    <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
      {tokens.map((t) => (
        <li key={t.name} className="overflow-hidden rounded-xl ring-1 ring-gray-200 dark:ring-white/10">
          <span aria-hidden="true" className="block h-16" style={{ backgroundColor: `var(${t.name})` }} />
          <span className="block px-3 py-2 text-xs">
            <code className="block font-semibold text-gray-900 dark:text-white">{t.name}</code>
            <code className="block text-gray-600 dark:text-gray-400">{t.value}</code>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Font stacks and sizes: each sample set in its own custom property. */
export function TypeTokens({ tokens, sample }: { tokens: Token[]; sample: string }) {
  return (
    <ul className="divide-y divide-gray-200 dark:divide-white/10">
      {tokens.map((t) => (
        <li key={t.name} className="flex flex-col gap-1 py-4 sm:flex-row sm:items-baseline sm:gap-6">
          <code className="w-40 flex-none text-xs text-gray-600 dark:text-gray-400">
            {t.name}
            <span className="block break-all">{t.value.length > 40 ? `${t.value.slice(0, 40)}…` : t.value}</span>
          </code>
          <span
            className="min-w-0 break-words text-gray-900 dark:text-white"
            style={t.name.startsWith("--font") ? { fontFamily: `var(${t.name})` } : { fontSize: `var(${t.name})`, lineHeight: `var(${t.name}--line-height)` }}
          >
            {sample}
          </span>
        </li>
      ))}
    </ul>
  );
}
