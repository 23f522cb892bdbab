package analytics_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/analytics"
	"omnibus/edge/internal/staff/stafftest"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// Through the whole edge: a visitor's search the site does not answer is
// listed under "No results" on the staff insights page, a search that
// found something is not, on SQLite and PostgreSQL.
func TestAnUnansweredSearchIsListedForStaff(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e := start(t, db, nil)
		visitor := newClient(t, e.URL)
		if res, _ := visitor.get("/search?q=" + url.QueryEscape("Blockchain loyalty points")); res.StatusCode != http.StatusOK {
			t.Fatalf("search: %d", res.StatusCode)
		}
		visitor.get("/search?q=refnd")
		ana := newClient(t, e.URL)
		ana.register("ana@example.com", "")
		staffCommand(t, db, "grant", "ana@example.com", "--role", "viewer")
		base, _ := url.Parse(e.URL)
		ana.c.Jar.SetCookies(base, []*http.Cookie{stafftest.Session(t, db, stafftest.Account(t, db, "ana@example.com"), time.Now().UTC(), time.Hour)})
		res, body := ana.get(analytics.StaffPath)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("staff page: %d", res.StatusCode)
		}
		i := strings.Index(body, "<th>No results</th>")
		if i < 0 {
			t.Fatalf("no search section:\n%s", body)
		}
		table := body[i:]
		table = table[:strings.Index(table, "</table>")]
		if !strings.Contains(table, "blockchain loyalty points") || strings.Contains(table, "refnd") {
			t.Errorf("no-results table:\n%s", table)
		}
	})
}
