package edgetest

import (
	"net/http"
	"testing"
	"time"
)

// ServeLoop is the loop of an in-process hit benchmark: it serves r with h
// b.N times into a writer that keeps nothing, so the benchmark counts the
// edge's allocations rather than a recorder's.
func ServeLoop(b *testing.B, h http.Handler, r *http.Request) {
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		clear(w.h)
		r.Header.Del("X-Request-ID")
		h.ServeHTTP(w, r)
	}
}

type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (d *discardWriter) WriteHeader(int)             {}

// Deadlines are supported, as on a real connection (the server sets them per request).
func (d *discardWriter) SetReadDeadline(time.Time) error  { return nil }
func (d *discardWriter) SetWriteDeadline(time.Time) error { return nil }
