package cache_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/cache"
	"omnibus/edge/internal/canonical"
	"omnibus/edge/internal/config"
	"omnibus/edge/internal/content"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
	"omnibus/shared"
)

// A first visitor gets a hit, through the production wiring: after a fresh start, once
// warming is done, the first GET of every cacheable page of the route table
// (articles and help topics included) is a hit, in brotli, gzip and
// identity; after a purge of everything, on the edge that took it and (on
// PostgreSQL, through NOTIFY) on the other edge too.
func TestFirstVisitAfterStartAndPurgeIsAHit(t *testing.T) {
	ps := cache.NewPolicies(canonical.New(shared.Routes))
	articles, err := content.SeedPaths()
	if err != nil {
		t.Fatal(err)
	}
	paths := ps.CacheablePaths(articles)
	if len(paths) < 60 {
		t.Fatalf("only %d cacheable pages: the test would prove little", len(paths))
	}
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		warm := func(c *config.Config) { c.CacheWarm, c.CachePurgeToken = true, "tok-tok-tok-tok-tok-tok-tok-tok" }
		a := edgetest.Start(t, edgetest.Options{DB: db, Config: warm})
		b := edgetest.Start(t, edgetest.Options{DB: db, Config: warm})
		edges := []*edgetest.Edge{a, b}
		for _, e := range edges {
			waitWarm(t, e, 1)
			allHits(t, e, paths)
		}

		req, _ := http.NewRequest(http.MethodPost, a.URL+cache.PurgePath, strings.NewReader(`{"all":true}`))
		req.Header.Set("Authorization", "Bearer tok-tok-tok-tok-tok-tok-tok-tok")
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("purge: %d", res.StatusCode)
		}
		if !db.Postgres {
			edges = edges[:1] // SQLite: the other edge never hears of it
		}
		for _, e := range edges {
			waitWarm(t, e, 2)
			allHits(t, e, paths)
		}
	})
}

func waitWarm(t *testing.T, e *edgetest.Edge, ups int64) {
	t.Helper()
	poll.Until(t, 60*time.Second, func() bool { return e.App.Cache.WarmUps() >= ups }, "warm-up %d not done", ups)
	if done, took := e.App.Cache.WarmState(); !done {
		t.Fatalf("warm-up %d: done %v (took %v)", ups, done, took)
	}
}

func allHits(t *testing.T, e *edgetest.Edge, paths []string) {
	t.Helper()
	for i, p := range paths {
		enc := []string{"br", "gzip, deflate", "identity"}[i%3]
		req, _ := http.NewRequest(http.MethodGet, e.URL+p, nil)
		req.Header.Set("User-Agent", edgetest.ChromeUA)
		req.Header.Set("Accept-Encoding", enc)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if got := res.Header.Get("X-Cache"); res.StatusCode != 200 || got != "HIT" {
			t.Errorf("first GET of %s (%s): %d X-Cache %q", p, enc, res.StatusCode, got)
		}
	}
}
