package edgetest_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"omnibus/edge/internal/edgetest"
)

// BenchmarkAppCacheHit is BenchmarkCacheHit (internal/server) with the
// production wiring of internal/app: canonical URLs, the session and billing
// page middleware, the no-JS form middleware and a cache that seals pages
// with their own CSP, in front of the stub renderer. It calls the echo
// instance in process, so it counts the edge's own work on a hit and none of
// the loopback's; make bench row (b) is the same path over TCP.
//
//	go test ./internal/edgetest -run '^$' -bench AppCacheHit -benchmem -cpuprofile cpu.out
func BenchmarkAppCacheHit(b *testing.B) {
	e := edgetest.Start(b, edgetest.Options{})
	h := e.Server
	host := strings.TrimPrefix(e.URL, "http://") // PUBLIC_URL's host: another is redirected to it
	get := func() *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Host = host
		r.RemoteAddr = "127.0.0.1:40000"
		r.Header.Set("Accept-Encoding", "br")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	get()
	if w := get(); w.Header().Get("X-Cache") != "HIT" {
		b.Fatalf("not a hit: %d %v", w.Code, w.Header())
	}
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Host = host
	r.RemoteAddr = "127.0.0.1:40000"
	r.Header.Set("Accept-Encoding", "br")
	if ua := os.Getenv("BENCH_UA"); ua != "" { // a browser's head: user agent, same-site referer
		r.Header.Set("User-Agent", ua)
		r.Header.Set("Referer", e.URL+"/features")
	}
	edgetest.ServeLoop(b, h, r)
}
