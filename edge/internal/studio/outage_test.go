package studio_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/staff/stafftest"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// With the database gone (the network to PostgreSQL cut), an editor's save
// fails clearly, 503 with an errorDetail the studio shows, and never
// half-lands; visitors meanwhile keep getting the published article from
// the page cache. Once the database is back the same save goes through.
func TestWithTheDatabaseDownASaveFailsClearlyAndPagesStillServe(t *testing.T) {
	cut, dbURL := edgetest.CutPostgres(t, storagetest.EmptyPostgres(t))
	db, err := storage.OpenPostgres(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.LimitPool(4, 500*time.Millisecond); err != nil { // production's bounds, a shorter wait
		t.Fatal(err)
	}
	e := edgetest.Start(t, edgetest.Options{DB: db, RendererURL: contentRenderer(t)})
	ed := client{t, e.URL, stafftest.SignIn(t, db, "publisher@example.com", staff.Publisher)}
	fields := map[string]string{"title": "Through an outage", "description": "d", "date": "2026-11-27", "category": "Growth"}
	code, out := ed.do(http.MethodPost, "/api/v1/staff/content", map[string]any{"type": "blog", "slug": "outage", "fields": fields, "body": "Published text.\n"})
	if code != http.StatusCreated {
		t.Fatalf("create: %d %v", code, out)
	}
	id, rev := item(t, out)
	if code, out := ed.do(http.MethodPost, fmt.Sprintf("/api/v1/staff/content/%d/publish", int(id)), map[string]any{"revisionId": rev}); code != 200 {
		t.Fatalf("publish: %d %v", code, out)
	}
	poll.Until(t, 10*time.Second, func() bool {
		res, _ := page(t, e, "/blog/article/outage")
		return res.Header.Get("X-Cache") == "HIT"
	}, "the published article is never served from the cache")

	cut.Cut()
	save := func() (int, map[string]any) {
		return ed.do(http.MethodPut, fmt.Sprintf("/api/v1/staff/content/%d", int(id)), map[string]any{"baseRevisionId": rev, "slug": "outage", "fields": fields, "body": "Written during the outage.\n"})
	}
	began := time.Now()
	code, out = save()
	// The editor is told their text did not land, not only that something is busy.
	if detail, _ := out["errorDetail"].(string); code != http.StatusServiceUnavailable || !strings.Contains(detail, "nothing was saved") {
		t.Fatalf("a save with the database down: %d %v after %s, want 503 with an errorDetail saying nothing was saved", code, out, time.Since(began).Round(time.Millisecond))
	}
	if res, body := page(t, e, "/blog/article/outage"); res.StatusCode != 200 || res.Header.Get("X-Cache") != "HIT" || !strings.Contains(body, "Published text.") {
		t.Fatalf("the published article during the outage: %d X-Cache %q, its text shown: %v", res.StatusCode, res.Header.Get("X-Cache"), strings.Contains(body, "Published text."))
	}

	cut.Restore()
	// The same save, from the same base revision: a save that had landed
	// during the outage would make this one a conflict (409).
	poll.Until(t, 15*time.Second, func() bool {
		code, _ := save()
		return code == 200
	}, "the save never went through after the database came back")
}
