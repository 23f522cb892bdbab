package analytics

import (
	"encoding/csv"
	"fmt"
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
	from, to, rangeNote := t.rangeOf(r.URL.Query())
	rep, err := t.Report(r.Context(), from, to)
	if err != nil {
		t.log.ErrorContext(r.Context(), "analytics: staff page", "err", err)
		h.Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, `{"errorDetail":"The counts cannot be read right now. Please try again."}`)
		return true
	}
	if table != "" {
		h.Set("Content-Type", "text/csv; charset=utf-8")
		h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="omnibus-%s-%s-to-%s.csv"`, table, rep.From, rep.To))
		if r.Method == http.MethodGet {
			writeCSV(w, table, rep)
		}
		return true
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	if r.Method == http.MethodGet {
		data := pageData{Report: rep, Nonce: security.Nonce(r), Chart: chart(rep), RangeNote: rangeNote,
			Theme: themeClass(r), Presets: t.presets(rep), Query: rangeQuery(rep), Today: t.Today().Format(dayLayout)}
		if err := pageTemplate.Execute(w, data); err != nil {
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
		row("day", "route", "page", "views")
		for _, v := range rep.Views {
			row(v.Day, v.Route, v.Path, n(v.Views))
		}
	case "pages":
		row("page", "views")
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
