package server_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/cache"
	"omnibus/edge/internal/canonical"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/logging"
	"omnibus/edge/internal/server"
	"omnibus/shared"
)

// BenchmarkCacheHit is the edge's cache-hit path in process: echo, the
// request id, the client IP, the access log (to io.Discard, with the
// production text handler) and the page cache answering a stored page in
// brotli. `make bench` row (b) measures the same path over loopback; this
// one isolates the edge's own work for pprof:
//
//	go test ./internal/server -run '^$' -bench CacheHit -benchmem -cpuprofile cpu.out -memprofile mem.out
func BenchmarkCacheHit(b *testing.B) {
	benchmarkCacheHit(b, slog.New(slog.NewTextHandler(io.Discard, nil)))
}

// BenchmarkCacheHitLogFile is BenchmarkCacheHit with the access log written
// to a file, as make bench's edge writes its stderr: "direct" is a write(2)
// per line, "buffered" goes through logging.Buffer as cmd/edge does.
func BenchmarkCacheHitLogFile(b *testing.B) {
	f, err := os.Create(filepath.Join(b.TempDir(), "edge.log"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	b.Run("direct", func(b *testing.B) { benchmarkCacheHit(b, logging.New(f, "text", slog.LevelInfo)) })
	b.Run("buffered", func(b *testing.B) {
		buf := logging.NewBuffer(f, 64<<10, 250*time.Millisecond)
		defer buf.Close()
		benchmarkCacheHit(b, logging.New(buf, "text", slog.LevelInfo))
	})
}

func benchmarkCacheHit(b *testing.B, log *slog.Logger) {
	policies := cache.NewPolicies(canonical.New(shared.Routes))
	page := "<!DOCTYPE html><html><body>" + strings.Repeat("<p>Omnibus</p>", 4000) + "</body></html>"
	renderer := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, page)
	})
	c := cache.New(cache.Options{Policies: policies})
	srv := server.New(server.Options{Pages: c.Wrap(renderer), Logger: log})
	get := func() *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = "127.0.0.1:40000"
		r.Header.Set("Accept-Encoding", "br")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		return w
	}
	get()
	if w := get(); w.Header().Get("X-Cache") != "HIT" || w.Header().Get("Content-Encoding") != "br" {
		b.Fatalf("not a brotli hit: %v", w.Header())
	}
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.RemoteAddr = "127.0.0.1:40000"
	r.Header.Set("Accept-Encoding", "br")
	edgetest.ServeLoop(b, srv, r)
}
