package analytics

import (
	"html/template"
	"strconv"
)

// The staff page's site-search section: a piece of its own (the page
// includes it with {{template "searches" .}}) and its CSV, searches.csv.
func init() {
	template.Must(pageTemplate.New("searches").Parse(searchesTemplate))
	csvTables["searches"] = true
}

const searchesTemplate = `<section id="searches" aria-labelledby="searches-title">
<h2 id="searches-title">Site search</h2>
<p class="muted">What visitors searched for on /search, per day (the last {{len .Searches}} days with searches). “No results” is the list of articles to write next; “No result opened” are answers visitors did not recognise. Queries that look like an e-mail address or a phone or card number are never kept: they count under “other”, as does every query past the day's first 200.</p>
{{range .Searches}}<h3>{{.Day}}: {{.Searches}} searches</h3>
<table><thead><tr><th>Top queries</th><th class="n">Searches</th><th class="n">Results opened</th></tr></thead><tbody>
{{range .Top}}<tr><td>{{.Query}}</td><td class="n">{{.Count}}</td><td class="n">{{.Clicks}}</td></tr>
{{end}}</tbody></table>
<table><thead><tr><th>No results</th><th class="n">Searches</th></tr></thead><tbody>
{{range .NoResults}}<tr><td>{{.Query}}</td><td class="n">{{.NoResult}}</td></tr>
{{else}}<tr><td colspan="2">Every search found something.</td></tr>{{end}}</tbody></table>
<table><thead><tr><th>No result opened</th><th class="n">Searches</th></tr></thead><tbody>
{{range .NoClicks}}<tr><td>{{.Query}}</td><td class="n">{{.Count}}</td></tr>
{{else}}<tr><td colspan="2">Every query with results had one opened.</td></tr>{{end}}</tbody></table>
{{else}}<p>No searches yet.</p>
{{end}}<p><a href="/staff/insights/searches.csv" download>Searches per day and query (CSV)</a></p>
</section>
`

// writeSearchCSV writes searches.csv: every day's queries.
func writeSearchCSV(row func(cells ...string), rep *Report) {
	n := func(v int64) string { return strconv.FormatInt(v, 10) }
	row("day", "query", "searches", "no_result", "results_opened")
	for _, s := range rep.SearchRows {
		row(s.Day, s.Query, n(s.Count), n(s.NoResult), n(s.Clicks))
	}
}
