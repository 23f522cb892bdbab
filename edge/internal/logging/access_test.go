package logging

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// The access line LogAccess writes itself is the line slog writes, byte for
// byte, in both formats, for plain and awkward values alike (the awkward
// ones go through slog), and it respects the level.
func TestAccessLineIsSlogs(t *testing.T) {
	zone := time.FixedZone("X", -(3*3600 + 30*60))
	times := []time.Time{
		time.Date(2026, 11, 23, 14, 28, 46, 199_287_000, time.UTC),
		time.Date(2026, 11, 23, 14, 28, 46, 0, time.UTC),      // whole second
		time.Date(2026, 1, 2, 3, 4, 5, 100_000, zone),         // under a millisecond, another zone
		time.Date(2026, 1, 2, 3, 4, 5, 999_999_999, time.UTC), // just before the second
		time.Now(), // with a monotonic reading
	}
	lines := []Access{
		{"GET", "/", 200, 11039, 0, "127.0.0.1", "0b6f6f4e-2f0e-4f4c-9f43-3c1d2a9f5e11"},
		{"HEAD", "/blog/article/hello-world", 304, 0, 12, "2001:db8::1", "abc"},
		{"GET", "/a path", 404, 1, 1, "10.0.0.1", "x"},                        // space
		{"GET", "/q=1", 200, 1, 1, "10.0.0.1", "x"},                           // '='
		{"GET", `/"quoted"\`, 200, 1, 1, "10.0.0.1", "x"},                     // quote and backslash
		{"GET", "/caf\u00e9/\u2028", 200, 1, 1, "10.0.0.1", "x"},              // non-ASCII, a line separator
		{"GET", "/\x00\x1b[31m", 200, 1, 1, "10.0.0.1", "x"},                  // control bytes
		{"GET", "/<script>&", 200, 1, 1, "10.0.0.1", "x"},                     // HTML characters
		{"GET", "", 200, 1, 1, "", ""},                                        // empty strings
		{"GET", "/a\nlevel=ERROR msg=forged", 200, 1, 1, "10.0.0.1", "x\r\n"}, // a forged second line
		{"BREW", "/", -1, -5, 1 << 40, "10.0.0.1", "x"},
	}
	for _, format := range []string{"text", "json"} {
		for _, tm := range times {
			for _, a := range lines {
				var got, want bytes.Buffer
				buf := NewBuffer(&got, 1<<16, time.Hour)
				LogAccess(context.Background(), New(buf, format, slog.LevelInfo), tm, a)
				buf.Close()

				ref := New(&want, format, slog.LevelInfo) // not a Buffer: slog's own path
				rec := slog.NewRecord(tm, slog.LevelInfo, "http", 0)
				rec.AddAttrs(slog.String("method", a.Method), slog.String("path", a.Path), slog.Int("status", a.Status),
					slog.Int64("bytes", a.Bytes), slog.Int64("ms", a.MS), slog.String("ip", a.IP), slog.String("request_id", a.RequestID))
				if err := ref.Handler().Handle(context.Background(), rec); err != nil {
					t.Fatal(err)
				}
				if got.String() != want.String() {
					t.Errorf("%s %v %+v:\n got %q\nwant %q", format, tm, a, got.String(), want.String())
				}
			}
		}
	}

	// Below the level, nothing; with attributes added, slog writes them.
	var out bytes.Buffer
	buf := NewBuffer(&out, 1<<16, time.Hour)
	LogAccess(context.Background(), New(buf, "text", slog.LevelWarn), times[0], lines[0])
	LogAccess(context.Background(), New(buf, "text", slog.LevelInfo).With("component", "edge"), times[0], lines[0])
	buf.Close()
	if got := out.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, "component=edge method=GET") {
		t.Fatalf("want one line carrying the logger's attributes, got %q", got)
	}
}

// BenchmarkAccessLine: the access line through LogAccess against slog's
// Handle (the edge's hit path writes one per request).
func BenchmarkAccessLine(b *testing.B) {
	a := Access{"GET", "/", 200, 11039, 0, "127.0.0.1", "0b6f6f4e-2f0e-4f4c-9f43-3c1d2a9f5e11"}
	for _, format := range []string{"text", "json"} {
		buf := NewBuffer(discard{}, 64<<10, time.Hour)
		log := New(buf, format, slog.LevelInfo)
		b.Run(format+"/direct", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				LogAccess(context.Background(), log, time.Now(), a)
			}
		})
		b.Run(format+"/slog", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				LogAccess(context.Background(), log.With(), time.Now(), Access{Method: a.Method, Path: a.Path + " ", IP: a.IP, RequestID: a.RequestID})
			}
		})
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
