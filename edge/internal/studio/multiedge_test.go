package studio_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/config"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/staff/stafftest"
	"omnibus/edge/internal/storage/storagetest"
)

// Three edges on one PostgreSQL database, each warming its cache: a publish
// on one reaches every edge as a cache hit with the new text (the purge
// fan-out, each edge reloading its content pages and warming them again),
// and an edit published later replaces it everywhere.
func TestAPublishIsACacheHitOnEveryEdge(t *testing.T) {
	db := storagetest.Postgres(t)
	ru := contentRenderer(t)
	warm := func(c *config.Config) { c.CacheWarm = true }
	var edges []*edgetest.Edge
	for i := 0; i < 3; i++ {
		edges = append(edges, edgetest.Start(t, edgetest.Options{DB: db, RendererURL: ru, Config: warm}))
	}
	ed := client{t, edges[0].URL, stafftest.SignIn(t, db, "publisher@example.com", staff.Publisher)}
	draft := map[string]any{"type": "blog", "slug": "three-edges", "fields": map[string]string{"title": "Everywhere at once", "description": "d", "date": "2026-11-27", "category": "Growth"}, "body": "First text.\n"}
	code, out := ed.do(http.MethodPost, "/api/v1/staff/content", draft)
	if code != http.StatusCreated {
		t.Fatalf("create: %d %v", code, out)
	}
	id, rev := item(t, out)
	publish := func(rev float64) {
		if code, out := ed.do(http.MethodPost, fmt.Sprintf("/api/v1/staff/content/%d/publish", int(id)), map[string]any{"revisionId": rev}); code != 200 {
			t.Fatalf("publish: %d %v", code, out)
		}
	}
	hitEverywhere := func(want string) {
		for i, e := range edges {
			// The other edges kept the earlier page as a hit for its fresh
			// minutes: only the purge fan-out makes them serve the new text.
			poll.Until(t, 20*time.Second, func() bool {
				res, body := page(t, e, "/blog/article/three-edges")
				return res.StatusCode == 200 && res.Header.Get("X-Cache") == "HIT" && strings.Contains(body, want)
			}, "edge %d never served %q as a cache hit", i, want)
		}
	}
	publish(rev)
	hitEverywhere("First text.")

	d := map[string]any{"baseRevisionId": rev, "slug": "three-edges", "fields": draft["fields"], "body": "Second text.\n"}
	code, out = ed.do(http.MethodPut, fmt.Sprintf("/api/v1/staff/content/%d", int(id)), d)
	if code != 200 {
		t.Fatalf("save: %d %v", code, out)
	}
	_, rev = item(t, out)
	publish(rev)
	hitEverywhere("Second text.")
}
