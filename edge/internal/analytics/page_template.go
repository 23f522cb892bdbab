package analytics

import "html/template"

// pageTemplate is the insights page. It has no script: the chart is HTML
// and CSS (chart.go), the range a GET form, the theme buttons the site's
// own no-JavaScript form (POST /api/v1/theme). Colours follow the theme
// cookie, else the system's dark mode. Tables wrap long paths rather than
// widen the page, so everything fits a 390 px phone.
var pageTemplate = template.Must(template.New("insights").Funcs(template.FuncMap{"thousands": Thousands}).Parse(`<!DOCTYPE html>
<html lang="en-US"{{if .Theme}} class="{{.Theme}}"{{end}}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Insights — Omnibus studio</title>
<link rel="icon" href="/favicon.webp" type="image/webp">
<style nonce="{{.Nonce}}">
:root{--bg:#fff;--fg:#111827;--muted:#4b5563;--line:#e5e7eb;--grid:#eef0f3;--bar:#6428ef;--link:#5519d6;--head:#f9fafb;color-scheme:light}
html.dark{--bg:#030712;--fg:#f3f4f6;--muted:#9ca3af;--line:#374151;--grid:#1f2937;--bar:#9275ff;--link:#b6a6ff;--head:#111827;color-scheme:dark}
@media (prefers-color-scheme:dark){html:not(.light){--bg:#030712;--fg:#f3f4f6;--muted:#9ca3af;--line:#374151;--grid:#1f2937;--bar:#9275ff;--link:#b6a6ff;--head:#111827;color-scheme:dark}}
*{box-sizing:border-box}
body{font:16px/1.5 ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:var(--bg);color:var(--fg)}
a{color:var(--link)}
.site{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;padding:.75rem 1rem;border-bottom:1px solid var(--line);background:var(--head)}
.brand{font-weight:700;font-size:1.15rem;color:var(--fg);text-decoration:none;margin-right:auto}
.site nav{display:flex;gap:1rem}.site nav a{text-decoration:none}.site nav a[aria-current]{font-weight:600;text-decoration:underline}
.theme{display:flex;gap:.25rem}.theme button{font:inherit;font-size:.85rem;padding:.2rem .5rem;border:1px solid var(--line);border-radius:.4rem;background:var(--bg);color:var(--fg);cursor:pointer}
main{max-width:60rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem;margin:.5rem 0}h2{font-size:1.2rem;margin-top:2rem}h3{font-size:1rem;margin-top:1.5rem}
.muted{color:var(--muted)}.note{border-left:3px solid var(--bar);padding:.25rem .75rem}
form.range{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;margin:1rem 0}
form.range label{display:flex;flex-direction:column;font-size:.9rem}
form.range input,form.range button{font:inherit;padding:.3rem .5rem;border:1px solid var(--line);border-radius:.4rem;background:var(--bg);color:var(--fg)}
form.range button{background:var(--bar);color:#fff;border-color:var(--bar)}
.presets{display:flex;flex-wrap:wrap;gap:.75rem;margin:0;padding:0;list-style:none}
.chart{display:grid;grid-template-columns:auto 1fr;gap:0 .5rem;margin:1rem 0 .5rem}
.yaxis{position:relative;height:15rem;margin:0;padding:0;list-style:none;font-size:.8rem;font-variant-numeric:tabular-nums;color:var(--muted)}
.yaxis li{position:absolute;right:0;transform:translateY(50%);white-space:nowrap}
.plot{position:relative;height:15rem;border-bottom:1px solid var(--muted)}
.plot .grid{position:absolute;left:0;right:0;border-top:1px solid var(--grid)}
.bars{position:absolute;inset:0;display:flex;align-items:flex-end;gap:1px;margin:0;padding:0;list-style:none}
.bars li{flex:1;height:100%;display:flex;align-items:flex-end;min-width:0}
.bars .bar{display:block;width:100%;background:var(--bar);border-radius:2px 2px 0 0}
.xaxis{grid-column:2;position:relative;height:1.5rem;display:flex;margin:0;padding:0;list-style:none;font-size:.8rem;color:var(--muted)}
.xaxis li{flex:1;min-width:0;position:relative}.xaxis span{position:absolute;left:0;top:.2rem;white-space:nowrap}.xaxis .last span{left:auto;right:0}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
details{margin:.5rem 0}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid var(--line);overflow-wrap:anywhere;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap;width:1%}
@media (max-width:30rem){th,td{padding:.3rem .25rem;font-size:.9rem}main{padding:.75rem}}
</style>
</head>
<body>
<header class="site">
<a class="brand" href="/">Omnibus</a>
<nav aria-label="Studio"><a href="/staff">Studio</a><a href="/staff/insights" aria-current="page">Insights</a></nav>
<form class="theme" method="post" action="/api/v1/theme" aria-label="Colour theme"><input type="hidden" name="back" value="/staff/insights?{{.Query}}">
<button name="theme" value="light">Light</button><button name="theme" value="dark">Dark</button><button name="theme" value="system">System</button></form>
</header>
<main>
<h1>Insights</h1>
<p class="muted">{{.From}} to {{.To}} (UTC), counted at the edge: no script, no cookie, nothing that names a visitor. <strong>{{thousands .Total}}</strong> page views.</p>
{{if .RangeNote}}<p class="note" role="status">{{.RangeNote}}</p>{{end}}
<form class="range" method="get" action="/staff/insights">
<label>From <input type="date" name="from" value="{{.From}}" max="{{.Today}}" required></label>
<label>To <input type="date" name="to" value="{{.To}}" max="{{.Today}}" required></label>
<button>Show</button>
</form>
<ul class="presets" aria-label="Ranges">{{range .Presets}}<li><a href="/staff/insights?{{.Query}}"{{if .Current}} aria-current="true"{{end}}>Last {{.Label}}</a></li>{{end}}</ul>

<h2 id="views">Page views per {{.Chart.Unit}}</h2>
<figure class="chart" aria-describedby="chart-data">
<ol class="yaxis" aria-hidden="true" style="width:{{.Chart.YWidth}}ch">{{range .Chart.Ticks}}<li style="bottom:{{.Pct}}%">{{.Label}}</li>{{end}}</ol>
<div class="plot">{{range .Chart.Ticks}}<span class="grid" style="bottom:{{.Pct}}%"></span>{{end}}
<ol class="bars">{{range .Chart.Bars}}<li title="{{.Day}}: {{.Views}} views" data-day="{{.Day}}" data-views="{{.Views}}"><span class="bar" style="height:{{.Pct}}%"></span></li>{{end}}</ol>
</div>
<ol class="xaxis" aria-hidden="true">{{range .Chart.Bars}}<li{{if .Last}} class="last"{{end}}>{{if .Label}}<span>{{.Label}}</span>{{end}}</li>{{end}}</ol>
</figure>
<details id="chart-data"><summary>The chart's numbers</summary>
<table><thead><tr><th>{{if eq .Chart.Unit "week"}}Week from{{else}}Day{{end}}</th><th class="n">Views</th></tr></thead><tbody>
{{range .Chart.Bars}}<tr><td>{{.Day}}</td><td class="n">{{.Views}}</td></tr>
{{end}}</tbody></table></details>
<p><a href="/staff/insights/views.csv?{{.Query}}" download>Views per day and page (CSV)</a></p>

<h2 id="pages">Top pages</h2>
<table><thead><tr><th>Page</th><th class="n">Views</th></tr></thead><tbody>
{{range .Pages}}<tr><td><a href="{{.Label}}">{{.Label}}</a></td><td class="n">{{thousands .Count}}</td></tr>
{{else}}<tr><td colspan="2">No views in this range.</td></tr>{{end}}</tbody></table>
<p><a href="/staff/insights/pages.csv?{{.Query}}" download>Top pages (CSV)</a></p>

<h2 id="campaigns">Landings by campaign</h2>
<table><thead><tr><th>Campaign</th><th>Source / medium</th><th class="n">Landings</th></tr></thead><tbody>
{{range .Campaigns}}<tr><td>{{.Label}}</td><td>{{.Detail}}</td><td class="n">{{thousands .Count}}</td></tr>
{{else}}<tr><td colspan="3">No tagged landings in this range.</td></tr>{{end}}</tbody></table>
<p><a href="/staff/insights/campaigns.csv?{{.Query}}" download>Landings by campaign (CSV)</a></p>

<h2 id="referrers">Landings by referring site</h2>
<table><thead><tr><th>Site</th><th class="n">Landings</th></tr></thead><tbody>
{{range .Referrers}}<tr><td>{{.Label}}</td><td class="n">{{thousands .Count}}</td></tr>
{{else}}<tr><td colspan="2">No landings in this range.</td></tr>{{end}}</tbody></table>
<p><a href="/staff/insights/referrers.csv?{{.Query}}" download>Landings by referring site (CSV)</a></p>

<h2 id="clicks">Short links</h2>
<table><thead><tr><th>Link</th><th>Goes to</th><th class="n">Clicks</th></tr></thead><tbody>
{{range .Clicks}}<tr><td>/go/{{.Label}}</td><td>{{.Detail}}</td><td class="n">{{thousands .Count}}</td></tr>
{{else}}<tr><td colspan="3">No short links yet.</td></tr>{{end}}</tbody></table>
<p><a href="/staff/insights/clicks.csv?{{.Query}}" download>Clicks per short link (CSV)</a></p>

{{template "searches" .}}

<h2 id="crawlers">Crawler visits</h2>
<table><thead><tr><th>Crawler</th><th class="n">Visits</th></tr></thead><tbody>
{{range .Crawlers}}<tr><td>{{.Label}}</td><td class="n">{{thousands .Count}}</td></tr>
{{else}}<tr><td colspan="2">No crawler visits in this range.</td></tr>{{end}}</tbody></table>
<table><thead><tr><th>Crawler</th><th>Page (route)</th><th class="n">Visits</th></tr></thead><tbody>
{{range .Crawls}}<tr><td>{{.Label}}</td><td>{{.Detail}}</td><td class="n">{{thousands .Count}}</td></tr>
{{end}}</tbody></table>
<p><a href="/staff/insights/crawlers.csv?{{.Query}}" download>Crawler visits by page (CSV)</a></p>
</main>
</body>
</html>
`))
