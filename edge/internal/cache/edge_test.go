package cache_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"omnibus/edge/internal/cache"
	"omnibus/edge/internal/config"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
	"omnibus/shared"
)

// startCachedEdge starts a whole edge as main wires it (edgetest runs
// internal/app), with the page cache on the given clock and purge token.
func startCachedEdge(t *testing.T, opts edgetest.Options, now func() time.Time, token string) (*edgetest.Edge, *cache.Cache) {
	t.Helper()
	opts.Now = now
	opts.Config = func(c *config.Config) { c.CachePurgeToken = token }
	e := edgetest.Start(t, opts)
	if e.App.Cache == nil {
		t.Fatal("the page cache is off")
	}
	return e, e.App.Cache
}

// clock is a settable time source.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// TestRendererKilled kills the real renderer: cached pages are still served
// (fresh ones as hits, expired ones stale), a page never cached gets the
// edge's 503 with Retry-After, and once the supervisor has restarted the
// renderer every page is 200 again.
func TestRendererKilled(t *testing.T) {
	clk := &clock{t: time.Now()}
	e, c := startCachedEdge(t, edgetest.Options{RealRenderer: true}, clk.Now, "")

	res, _ := e.Get(t, "/features")
	if res.StatusCode != 200 || res.Header.Get("X-Cache") != "MISS" {
		t.Fatalf("/features: %d %q", res.StatusCode, res.Header.Get("X-Cache"))
	}
	clk.Advance(300*time.Second + 86400*time.Second + time.Second) // past its stale window
	res, body := e.Get(t, "/")
	if res.StatusCode != 200 || res.Header.Get("X-Cache") != "MISS" || !strings.HasSuffix(strings.TrimSpace(body), "</html>") {
		t.Fatalf("/: %d %q, complete document: %v", res.StatusCode, res.Header.Get("X-Cache"), strings.HasSuffix(strings.TrimSpace(body), "</html>"))
	}

	// A crawler and a browser get the same stored document.
	browser := e.Get
	res, _ = browser(t, "/")
	crawler, err := http.NewRequest(http.MethodGet, e.URL+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	crawler.Header.Set("User-Agent", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
	cres, err := http.DefaultTransport.RoundTrip(crawler)
	if err != nil {
		t.Fatal(err)
	}
	cres.Body.Close()
	if res.Header.Get("X-Cache") != "HIT" || cres.Header.Get("X-Cache") != "HIT" || res.Header.Get("ETag") != cres.Header.Get("ETag") {
		t.Fatalf("browser %s %s, crawler %s %s", res.Header.Get("X-Cache"), res.Header.Get("ETag"), cres.Header.Get("X-Cache"), cres.Header.Get("ETag"))
	}

	// Kill the renderer: the active child and its warm standby. The
	// supervisor restarts them; should one already be back when the
	// uncached page is asked for, kill them again and ask for another page.
	starts := e.Renderer.Starts()
	uncached := []string{"/omnibus-university", "/help-centre", "/ombre", "/forge", "/career"}
	saw503 := false
	for _, path := range uncached {
		pids := e.Renderer.PIDs()
		if len(pids) == 0 {
			t.Fatal("no renderer child")
		}
		for _, pid := range pids {
			syscall.Kill(-pid, syscall.SIGKILL) // its process group: node and anything it started
		}
		for _, pid := range pids {
			waitExit(t, pid)
		}

		res, _ := e.Get(t, "/")
		if res.StatusCode != 200 || res.Header.Get("X-Cache") != "HIT" {
			t.Fatalf("cached page with the renderer down: %d %q", res.StatusCode, res.Header.Get("X-Cache"))
		}
		res, _ = e.Get(t, "/features")
		if res.StatusCode != 200 || res.Header.Get("X-Cache") != "STALE" {
			t.Fatalf("expired page with the renderer down: %d %q", res.StatusCode, res.Header.Get("X-Cache"))
		}
		res, body := e.Get(t, path)
		if res.StatusCode == 200 && e.Renderer.Starts() > starts {
			starts = e.Renderer.Starts()
			continue // restarted already; try again
		}
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" ||
			res.Header.Get("Cache-Control") != "no-store" || !strings.Contains(body, "</html>") {
			t.Fatalf("uncached page with the renderer down: %d Retry-After %q Cache-Control %q", res.StatusCode, res.Header.Get("Retry-After"), res.Header.Get("Cache-Control"))
		}
		saw503 = true
		uncached = []string{path}
		break
	}
	if !saw503 {
		t.Fatal("the renderer came back before any request saw it down")
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := e.Renderer.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	if e.Renderer.Starts() <= starts {
		t.Fatal("the supervisor did not restart the renderer")
	}
	res, _ = e.Get(t, uncached[0])
	if res.StatusCode != 200 || res.Header.Get("X-Cache") != "MISS" {
		t.Fatalf("after the restart %s: %d %q (the 503 must not have been cached)", uncached[0], res.StatusCode, res.Header.Get("X-Cache"))
	}
	res, body = e.Get(t, "/features")
	if res.StatusCode != 200 || res.Header.Get("X-Cache") != "MISS" || !strings.HasSuffix(strings.TrimSpace(body), "</html>") {
		t.Fatalf("expired page after the restart: %d %q", res.StatusCode, res.Header.Get("X-Cache"))
	}
	if n, _ := c.Stats(); n < 3 {
		t.Fatalf("%d pages cached", n)
	}
}

// waitExit waits until process pid is gone (bounded).
func waitExit(t *testing.T, pid int) {
	t.Helper()
	poll.Until(t, 10*time.Second, func() bool { return syscall.Kill(pid, 0) != nil }, "renderer %d did not exit", pid)
}

// TestPurgeReachesOtherEdges runs two edges on one database. On PostgreSQL a
// purge through one edge's API empties the other's cache too; on SQLite
// (one instance per file) it is local and says so.
func TestPurgeReachesOtherEdges(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		a, _ := startCachedEdge(t, edgetest.Options{DB: db}, nil, "tok")
		b, _ := startCachedEdge(t, edgetest.Options{DB: db}, nil, "tok")
		for _, e := range []*edgetest.Edge{a, b} {
			for _, p := range []string{"/blog", "/features", "/blog"} {
				e.Get(t, p)
			}
			if res, _ := e.Get(t, "/blog"); res.Header.Get("X-Cache") != "HIT" {
				t.Fatalf("/blog not cached: %q", res.Header.Get("X-Cache"))
			}
		}

		req, _ := http.NewRequest(http.MethodPost, a.URL+cache.PurgePath, strings.NewReader(`{"path":"/blog"}`))
		req.Header.Set("Authorization", "Bearer tok")
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("purge: %d", res.StatusCode)
		}
		if r, _ := a.Get(t, "/blog"); r.Header.Get("X-Cache") != "MISS" {
			t.Fatalf("purged page on the same edge: %q", r.Header.Get("X-Cache"))
		}

		if !db.Postgres {
			if r, _ := b.Get(t, "/blog"); r.Header.Get("X-Cache") != "HIT" {
				t.Fatalf("SQLite: the other edge has no way to hear of it, got %q", r.Header.Get("X-Cache"))
			}
			return
		}
		// The notification is asynchronous: wait for it (bounded).
		poll.Until(t, 10*time.Second, func() bool { r, _ := b.Get(t, "/blog"); return r.Header.Get("X-Cache") == "MISS" },
			"the purge did not reach the other edge")
		if r, _ := b.Get(t, "/features"); r.Header.Get("X-Cache") != "HIT" {
			t.Fatalf("the other edge purged more than /blog: %q", r.Header.Get("X-Cache"))
		}
	})
}

// Hostile traffic through the production wiring (canonical addresses,
// sessions, cache): made-up session cookies and junk queries are answered
// from the cache (the cookie cleared), so neither bypasses nor floods it.
func TestFakeCookiesAndJunkQueriesHitTheCache(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e := edgetest.Start(t, edgetest.Options{DB: db})
		get := func(path, cookie string) *http.Response {
			req, _ := http.NewRequest(http.MethodGet, e.URL+path, nil)
			if cookie != "" {
				req.Header.Set("Cookie", cookie)
			}
			res, err := http.DefaultTransport.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			return res
		}
		if res := get("/features", ""); res.Header.Get("X-Cache") != "MISS" {
			t.Fatalf("first /features: %q", res.Header.Get("X-Cache"))
		}
		session := shared.HTTP.SessionCookie
		for _, cookie := range []string{session + "=made-up", session + "=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "theme=dark; " + session + "=x"} {
			res := get("/features?q=1&page=9&utm_source=z", cookie)
			cleared := false
			for _, ck := range res.Cookies() {
				cleared = cleared || (ck.Name == session && ck.MaxAge < 0)
			}
			if res.StatusCode != 200 || res.Header.Get("X-Cache") != "HIT" || !cleared {
				t.Fatalf("cookie %q: %d X-Cache %q, cookie cleared %v", cookie, res.StatusCode, res.Header.Get("X-Cache"), cleared)
			}
			if cc := res.Header.Get("Cache-Control"); !strings.HasPrefix(cc, "private") {
				t.Errorf("an answer that clears a cookie must not be shared downstream: Cache-Control %q", cc)
			}
		}
		if res := get("//evil.example/features", ""); res.StatusCode != http.StatusMovedPermanently || res.Header.Get("Location") != "/evil.example/features" {
			t.Errorf("//evil.example/features: %d → %q", res.StatusCode, res.Header.Get("Location"))
		}
		if n, _ := e.App.Cache.Stats(); n != 1 {
			t.Errorf("%d cache entries, want 1", n)
		}
	})
}
