package analytics

import (
	"encoding/csv"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"omnibus/edge/internal/security"
)

// StaffPath is the staff page; its tables are StaffPath/<table>.csv.
// Decision 0028: the edge draws it itself (no renderer, no JavaScript).
const StaffPath = "/staff/insights"

// csvTables are the downloads, each a table of the page.
var csvTables = map[string]bool{"views": true, "pages": true, "campaigns": true, "referrers": true, "clicks": true, "crawlers": true}

// staffPage answers GET/HEAD of StaffPath and its CSV files to a staff
// member with a studio session (StaffAccess). False for everyone else, whom the page handler answers with the
// 404 page: the page's existence is not revealed.
func (t *Tracker) staffPage(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	table := ""
	if rest := r.URL.Path[len(StaffPath):]; rest != "" {
		name, ok := strings.CutSuffix(strings.TrimPrefix(rest, "/"), ".csv")
		if !ok || !csvTables[name] {
			return false
		}
		table = name
	}
	if t.opts.StaffAccess == nil {
		return false
	}
	if allowed, answered := t.opts.StaffAccess(w, r); answered || !allowed {
		return answered
	}
	h := w.Header()
	h.Set("Cache-Control", "no-store, private")
	h.Set("X-Robots-Tag", "noindex, nofollow")
	h.Add("Vary", "Cookie")
	rep, err := t.Report(r.Context())
	if err != nil {
		t.log.ErrorContext(r.Context(), "analytics: staff page", "err", err)
		h.Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, `{"errorDetail":"The counts cannot be read right now. Please try again."}`)
		return true
	}
	if table != "" {
		h.Set("Content-Type", "text/csv; charset=utf-8")
		h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="omnibus-%s-%s.csv"`, table, rep.To))
		if r.Method == http.MethodGet {
			writeCSV(w, table, rep)
		}
		return true
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	if r.Method == http.MethodGet {
		if err := pageTemplate.Execute(w, pageData{Report: rep, Nonce: security.Nonce(r), Chart: chart(rep)}); err != nil {
			t.log.WarnContext(r.Context(), "analytics: staff page", "err", err)
		}
	}
	return true
}

// writeCSV writes one table. A cell that a spreadsheet would take for a
// formula gets a leading apostrophe.
func writeCSV(w http.ResponseWriter, table string, rep *Report) {
	cw := csv.NewWriter(w)
	row := func(cells ...string) {
		for i, c := range cells {
			if c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) {
				cells[i] = "'" + c
			}
		}
		cw.Write(cells)
	}
	n := func(v int64) string { return strconv.FormatInt(v, 10) }
	switch table {
	case "views":
		row("day", "route", "views")
		for _, v := range rep.Views {
			row(v.Day, v.Route, n(v.Views))
		}
	case "pages":
		row("route", "views")
		for _, v := range rep.Pages {
			row(v.Label, n(v.Count))
		}
	case "campaigns":
		row("utm_campaign", "utm_source", "utm_medium", "landings")
		for _, v := range rep.Campaigns {
			src, med, _ := cutSlash(v.Detail)
			row(v.Label, src, med, n(v.Count))
		}
	case "referrers":
		row("referrer", "landings")
		for _, v := range rep.Referrers {
			row(v.Label, n(v.Count))
		}
	case "clicks":
		row("link", "target", "clicks")
		for _, v := range rep.Clicks {
			row(LinkPrefix+v.Label, v.Detail, n(v.Count))
		}
	case "crawlers":
		row("crawler", "route", "visits")
		for _, v := range rep.Crawls {
			row(v.Label, v.Detail, n(v.Count))
		}
	case "searches":
		writeSearchCSV(row, rep)
	}
	cw.Flush()
}

type pageData struct {
	*Report
	Nonce string
	Chart chartData
}

// chartData is the views-per-day bar chart, laid out here (no script).
type chartData struct {
	Width, Height, Top int
	Bars               []bar
	Ticks              []tick
}

type bar struct {
	X, Y, W, H int
	Day        string
	Label      string // day shown under every fifth bar
	Views      int64
}

type tick struct {
	Y     int
	Label string
}

const (
	chartW, chartH = 720, 240
	padL, padB     = 48, 28
	padT           = 12
	// padR leaves room right of the plot for the last day's label, which
	// starts at its bar and is wider than one.
	padR = 32
)

func chart(rep *Report) chartData {
	c := chartData{Width: chartW + padR, Height: chartH, Top: padT}
	step := tickStep(rep.Max)
	top := 4 * step
	plotH := chartH - padB - padT
	slot := (chartW - padL) / len(rep.Days)
	for i, d := range rep.Days {
		h := int(int64(plotH) * d.Views / top)
		if d.Views > 0 && h == 0 {
			h = 1
		}
		b := bar{X: padL + i*slot + 2, Y: padT + plotH - h, W: slot - 4, H: h, Day: d.Day, Views: d.Views}
		if i%5 == 0 || i == len(rep.Days)-1 {
			b.Label = d.Day[5:]
		}
		c.Bars = append(c.Bars, b)
	}
	for f := range int64(5) {
		v := step * f
		c.Ticks = append(c.Ticks, tick{Y: padT + plotH - int(int64(plotH)*v/top), Label: strconv.FormatInt(v, 10)})
	}
	return c
}

// tickStep is the chart's step between its five ticks: the smallest 1, 2 or
// 5 times a power of ten whose four steps reach v, so the top (four steps)
// and every tick label are whole numbers at evenly spaced lines.
func tickStep(v int64) int64 {
	for p := int64(1); ; p *= 10 {
		for _, m := range []int64{1, 2, 5} {
			if 4*m*p >= v {
				return m * p
			}
		}
	}
}

var pageTemplate = template.Must(template.New("insights").Funcs(template.FuncMap{
	"add": func(a, b int) int { return a + b },
}).Parse(`<!DOCTYPE html>
<html lang="en-US">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Insights — Omnibus staff</title>
<link rel="icon" href="/favicon.webp" type="image/webp">
<style nonce="{{.Nonce}}">
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem 1.5rem;color:#1a1a2e}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2rem}h3{font-size:1rem;margin-top:1.5rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ddd}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
svg{max-width:100%;height:auto}.bar{fill:#4338ca}.axis{stroke:#888}.grid{stroke:#e5e5e5}
svg text{font-size:11px;fill:#444}a{color:#4338ca}.muted{color:#555}
</style>
</head>
<body>
<main>
<h1>Insights</h1>
<p class="muted">Last 30 days ({{.From}} to {{.To}}, UTC), counted at the edge: no script, no cookie, nothing that names a visitor. {{.Total}} page views.</p>

<h2 id="views">Page views per day</h2>
<svg role="img" aria-labelledby="chart-title" viewBox="0 0 {{.Chart.Width}} {{.Chart.Height}}" width="{{.Chart.Width}}" height="{{.Chart.Height}}" xmlns="http://www.w3.org/2000/svg">
<title id="chart-title">Page views per day, {{.From}} to {{.To}}</title>
{{range .Chart.Ticks}}<line class="grid" x1="48" x2="720" y1="{{.Y}}" y2="{{.Y}}"/><text x="42" y="{{add .Y 4}}" text-anchor="end">{{.Label}}</text>
{{end}}{{range .Chart.Bars}}<rect class="bar" x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}" data-day="{{.Day}}" data-views="{{.Views}}"><title>{{.Day}}: {{.Views}} views</title></rect>{{if .Label}}<text x="{{add .X 2}}" y="{{$.Chart.Height}}" dy="-8">{{.Label}}</text>{{end}}
{{end}}</svg>
<p><a href="/staff/insights/views.csv" download>Views per day and page (CSV)</a></p>

<h2 id="pages">Top pages</h2>
<table><thead><tr><th>Page (route)</th><th class="n">Views</th></tr></thead><tbody>
{{range .Pages}}<tr><td>{{.Label}}</td><td class="n">{{.Count}}</td></tr>
{{else}}<tr><td colspan="2">No views yet.</td></tr>{{end}}</tbody></table>
<p><a href="/staff/insights/pages.csv" download>Top pages (CSV)</a></p>

<h2 id="campaigns">Landings by campaign</h2>
<table><thead><tr><th>Campaign</th><th>Source / medium</th><th class="n">Landings</th></tr></thead><tbody>
{{range .Campaigns}}<tr><td>{{.Label}}</td><td>{{.Detail}}</td><td class="n">{{.Count}}</td></tr>
{{else}}<tr><td colspan="3">No tagged landings yet.</td></tr>{{end}}</tbody></table>
<p><a href="/staff/insights/campaigns.csv" download>Landings by campaign (CSV)</a></p>

<h2 id="referrers">Landings by referring site</h2>
<table><thead><tr><th>Site</th><th class="n">Landings</th></tr></thead><tbody>
{{range .Referrers}}<tr><td>{{.Label}}</td><td class="n">{{.Count}}</td></tr>
{{else}}<tr><td colspan="2">No landings yet.</td></tr>{{end}}</tbody></table>
<p><a href="/staff/insights/referrers.csv" download>Landings by referring site (CSV)</a></p>

<h2 id="clicks">Short links</h2>
<table><thead><tr><th>Link</th><th>Goes to</th><th class="n">Clicks</th></tr></thead><tbody>
{{range .Clicks}}<tr><td>/go/{{.Label}}</td><td>{{.Detail}}</td><td class="n">{{.Count}}</td></tr>
{{else}}<tr><td colspan="3">No short links in shared/content/campaign-links.json.</td></tr>{{end}}</tbody></table>
<p><a href="/staff/insights/clicks.csv" download>Clicks per short link (CSV)</a></p>

{{template "searches" .}}

<h2 id="crawlers">Crawler visits</h2>
<table><thead><tr><th>Crawler</th><th class="n">Visits</th></tr></thead><tbody>
{{range .Crawlers}}<tr><td>{{.Label}}</td><td class="n">{{.Count}}</td></tr>
{{else}}<tr><td colspan="2">No crawler visits yet.</td></tr>{{end}}</tbody></table>
<table><thead><tr><th>Crawler</th><th>Page (route)</th><th class="n">Visits</th></tr></thead><tbody>
{{range .Crawls}}<tr><td>{{.Label}}</td><td>{{.Detail}}</td><td class="n">{{.Count}}</td></tr>
{{end}}</tbody></table>
<p><a href="/staff/insights/crawlers.csv" download>Crawler visits by page (CSV)</a></p>
</main>
</body>
</html>
`))
