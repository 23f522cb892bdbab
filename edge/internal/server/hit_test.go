package server_test

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"omnibus/edge/internal/cache"
	"omnibus/edge/internal/canonical"
	"omnibus/edge/internal/server"
	"omnibus/shared"
)

// What the cache-hit path was made cheaper around (docs/decisions/0015-cache-hit-path.md):
// every hit still gets one access-log line with its status and path, its own
// request id, the security headers, and an Age that grows with the clock
// (each entry reuses the Age value of the current second).
func TestCacheHitKeepsLogAgeAndHeaders(t *testing.T) {
	policies := cache.NewPolicies(canonical.New(shared.Routes))
	var mu sync.Mutex
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	renderer := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<!DOCTYPE html><html><body>"+strings.Repeat("<p>Omnibus</p>", 100)+"</body></html>")
	})
	c := cache.New(cache.Options{Policies: policies, Now: clock})
	var logged bytes.Buffer
	srv := server.New(server.Options{Pages: c.Wrap(renderer), Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	get := func() *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = "127.0.0.1:40000"
		r.Header.Set("Accept-Encoding", "br")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		return w
	}
	if w := get(); w.Header().Get("X-Cache") != "MISS" {
		t.Fatalf("first request: X-Cache %q", w.Header().Get("X-Cache"))
	}
	ids := map[string]bool{}
	for _, step := range []struct {
		advance time.Duration
		age     string
	}{{0, ""}, {2 * time.Second, "2"}, {0, "2"}, {500 * time.Millisecond, "2"}, {time.Second, "3"}, {7 * time.Second, "10"}} {
		advance(step.advance)
		w := get()
		h := w.Header()
		if w.Code != http.StatusOK || h.Get("X-Cache") != "HIT" || h.Get("Content-Encoding") != "br" {
			t.Fatalf("not a brotli hit: %d %v", w.Code, h)
		}
		if h.Get("Age") != step.age {
			t.Errorf("after %v more: Age %q, want %q", step.advance, h.Get("Age"), step.age)
		}
		for _, k := range []string{"Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy", "Vary", "Etag", "Cache-Control"} {
			if h.Get(k) == "" {
				t.Errorf("hit without %s", k)
			}
		}
		id := h.Get("X-Request-Id")
		if id == "" || ids[id] {
			t.Errorf("request id %q missing or reused", id)
		}
		ids[id] = true
	}
	lines := strings.Split(strings.TrimSpace(logged.String()), "\n")
	if len(lines) != 7 {
		t.Fatalf("want one access line per request (7), got %d:\n%s", len(lines), logged.String())
	}
	for _, l := range lines[1:] {
		for _, want := range []string{"msg=http", "method=GET", "path=/ ", "status=200", "ip=127.0.0.1", "request_id="} {
			if !strings.Contains(l, want) {
				t.Errorf("access line without %q: %s", want, l)
			}
		}
	}
}
