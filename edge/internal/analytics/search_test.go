package analytics

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"omnibus/edge/internal/search"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// searched is a visitor's search of the search page for raw, which found
// total documents.
func searched(tr *Tracker, raw string, total int) {
	r := httptest.NewRequest(http.MethodGet, "/search?q="+url.QueryEscape(raw), nil)
	r.Header.Set("User-Agent", chrome)
	tr.Searched(r, search.Normalise(raw), total)
}

// opened is a visitor opening path from the search page of raw.
func opened(tr *Tracker, raw, path string) {
	r := httptest.NewRequest(http.MethodGet, path, nil)
	r.Header.Set("User-Agent", chrome)
	r.Header.Set("Referer", "https://omnibus.example/search?q="+url.QueryEscape(raw))
	tr.Pages(page).ServeHTTP(httptest.NewRecorder(), r)
}

func report(t *testing.T, tr *Tracker) *Report {
	t.Helper()
	from, to := tr.DefaultRange()
	rep, err := tr.Report(context.Background(), from, to)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func queries(rows []SearchRow) []string {
	var q []string
	for _, r := range rows {
		q = append(q, r.Query)
	}
	return q
}

// Marketing reads what visitors searched for, what found nothing and what
// found results nobody opened, by day, on both databases; the query as
// searched (one spelling), never a visitor's e-mail, phone or card number.
func TestSearchReport(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		tr := newTracker(t, db)
		searched(tr, "Refund", 3)
		searched(tr, "refund ", 3)
		opened(tr, "REFUND", "/help/category/article/returns-cancellations-and-refunds")
		searched(tr, "gst invoice", 2)
		searched(tr, "blockchain loyalty", 0)
		searched(tr, "jane@example.com", 0)
		searched(tr, "+91 98765 43210", 0)
		searched(tr, "4111 1111 1111 1111", 0)
		rep := report(t, tr)
		if len(rep.Searches) != 1 {
			t.Fatalf("days %+v", rep.Searches)
		}
		d := rep.Searches[0]
		if d.Searches != 7 {
			t.Errorf("%d searches, want 7", d.Searches)
		}
		if got := strings.Join(queries(d.Top), ","); got != "other,refund,blockchain loyalty,gst invoice" {
			t.Errorf("top %s", got)
		}
		if d.Top[1].Clicks != 1 {
			t.Errorf("refund's opened results %d, want 1", d.Top[1].Clicks)
		}
		if got := strings.Join(queries(d.NoResults), ","); got != "other,blockchain loyalty" {
			t.Errorf("no results %s", got)
		}
		if got := strings.Join(queries(d.NoClicks), ","); got != "gst invoice" {
			t.Errorf("no result opened %s", got)
		}
		var stored []string
		db.Table("analytics_counts").Where("kind LIKE ?", "search%").Pluck("dim1", &stored)
		for _, s := range stored {
			if strings.ContainsAny(s, "@") || strings.Contains(s, "98765") || strings.Contains(s, "1111") {
				t.Errorf("stored %q", s)
			}
		}
	})
}

// A flood of distinct queries keeps at most Cap of them a day; the rest
// are counted as "other", and every search is still counted.
func TestSearchQueriesCapped(t *testing.T) {
	db := storagetest.SQLite(t)
	tr := newTracker(t, db)
	const n = 5 * DefaultCap
	for i := range n {
		searched(tr, fmt.Sprintf("query %c%c%c", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26), 0)
	}
	if len(tr.knownQueries) > DefaultCap {
		t.Errorf("%d queries kept in memory, cap %d", len(tr.knownQueries), DefaultCap)
	}
	rep := report(t, tr)
	var distinct, total int64
	for _, r := range rep.SearchRows {
		distinct++
		total += r.Count
	}
	if distinct != DefaultCap+1 || total != n {
		t.Errorf("%d rows (want the cap and other) counting %d searches (want %d)", distinct, total, n)
	}
}

// A crawler following a search link, a prefetch and the search page's own
// links are not searches nor opened results.
func TestNotSearches(t *testing.T) {
	db := storagetest.SQLite(t)
	tr := newTracker(t, db)
	r := httptest.NewRequest(http.MethodGet, "/search?q=refund", nil)
	r.Header.Set("User-Agent", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
	tr.Searched(r, "refund", 1)
	r = httptest.NewRequest(http.MethodGet, "/search?q=refund", nil)
	r.Header.Set("Sec-Purpose", "prefetch")
	tr.Searched(r, "refund", 1)
	opened(tr, "refund", "/search?q=refunds")
	r = httptest.NewRequest(http.MethodGet, "/features", nil)
	r.Header.Set("Referer", "https://elsewhere.example/search?q=refund")
	tr.Pages(page).ServeHTTP(httptest.NewRecorder(), r)
	if rep := report(t, tr); len(rep.SearchRows) != 0 {
		t.Errorf("counted %+v", rep.SearchRows)
	}
}

// The staff page shows the section, the query with no result included,
// and its CSV has every query.
func TestStaffPageShowsSearches(t *testing.T) {
	db := storagetest.SQLite(t)
	tr := newTracker(t, db)
	searched(tr, "blockchain <b>loyalty</b>", 0)
	rep := report(t, tr)
	var b strings.Builder
	if err := pageTemplate.Execute(&b, pageData{Report: rep, Chart: chart(rep)}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	i := strings.Index(html, "<th>No results</th>")
	if i < 0 || !strings.Contains(html[i:], "<td>blockchain b loyalty b</td>") {
		t.Errorf("no-results table missing the query:\n%s", html)
	}
	rec := httptest.NewRecorder()
	writeCSV(rec, "searches", rep)
	if !strings.Contains(rec.Body.String(), "blockchain b loyalty b,1,1,0") {
		t.Errorf("csv %s", rec.Body.String())
	}
}
