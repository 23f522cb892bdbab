package cache

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"omnibus/edge/internal/canonical"
)

// The route table's cacheable pages (parameterised ones from the
// given slugs, never private ones) are warmed in the background; while a
// visitor waits for a render, warming waits; once done, every page is a hit.
func TestWarmingPausesForVisitorsAndFillsTheCache(t *testing.T) {
	c, _ := newTestCache(t, 1<<20)
	ps := NewPolicies(canonical.New(mustTable(t, testRoutes)))
	paths := ps.CacheablePaths([]string{"/blog/article/hello"})
	if want := []string{"/", "/blog", "/pricing", "/contact-us", "/blog/article/hello"}; len(paths) != len(want) {
		t.Fatalf("CacheablePaths %q, want %q", paths, want)
	}

	release := make(chan struct{})
	visitorRendering := make(chan struct{})
	f := &renderer{}
	var slow sync.Once
	h := c.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.calls.Add(1)
		if r.URL.Path == "/blog" && r.Header.Get("X-Forwarded-Host") == "" {
			slow.Do(func() { close(visitorRendering); <-release })
		}
		(&renderer{}).ServeHTTP(w, r)
	}))

	visitor := make(chan struct{})
	go func() { defer close(visitor); get(h, "/blog") }()
	<-visitorRendering

	paused := make(chan struct{})
	var once sync.Once
	c.warm.onPause = func() { once.Do(func() { close(paused) }) }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c.StartWarming(ctx, WarmOptions{Paths: paths, Origin: "https://omnibus.example"})
	<-paused
	if n := f.calls.Load(); n != 1 {
		t.Fatalf("warming rendered while a visitor waited: %d renders", n)
	}
	close(release)
	<-visitor
	waitFor(t, "warming done", func() bool { return c.WarmUps() == 1 })
	if done, took := c.WarmState(); !done || took <= 0 {
		t.Fatalf("WarmState %v %v", done, took)
	}
	for _, p := range paths {
		for _, enc := range []string{"br", "gzip", "identity"} {
			w := get(h, p, header("Accept-Encoding", enc))
			expect(t, w, 200, "HIT")
		}
	}
	if n := f.calls.Load(); n != int64(len(paths)) { // /blog once: the visitor's render was kept
		t.Errorf("%d renders for %d pages", n, len(paths))
	}

	// A purge empties the cache and warms it again.
	c.Purge(Target{All: true})
	waitFor(t, "warming after the purge", func() bool { return c.WarmUps() == 2 })
	for _, p := range paths {
		expect(t, get(h, p), 200, "HIT")
	}
	if n := f.calls.Load(); n != 2*int64(len(paths)) {
		t.Errorf("%d renders after the purge, want %d", n, 2*len(paths))
	}
}
