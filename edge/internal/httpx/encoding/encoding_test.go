package encoding_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"

	"omnibus/edge/internal/httpx/encoding"
)

func TestNegotiate(t *testing.T) {
	for _, tc := range []struct {
		accept      string
		br, gz      bool
		want        string
		explanation string
	}{
		{"br, gzip", true, true, "br", "brotli preferred"},
		{"gzip, br", true, true, "br", "brotli preferred whatever the order"},
		{"br;q=0.5, gzip;q=1", true, true, "gzip", "higher q wins"},
		{"br;q=0, *", true, true, "gzip", "q=0 refuses, * stands for the rest"},
		{"*", true, true, "br", "* alone"},
		{"gzip;level=1;q=0, br;q=0", true, true, "", "q after another parameter"},
		{"br;q=x, gzip", true, true, "gzip", "unreadable q refuses"},
		{"BR", true, true, "br", "case-insensitive"},
		{"x-gzip", true, true, "gzip", "x-gzip is gzip"},
		{"br, gzip", false, true, "gzip", "no brotli available"},
		{"br", false, true, "", "only br accepted, only gzip available"},
		{"identity", true, true, "", "identity asked for"},
		{"", true, true, "", "no header"},
	} {
		if got := encoding.Negotiate(tc.accept, tc.br, tc.gz); got != tc.want {
			t.Errorf("%s: Negotiate(%q, br=%v, gzip=%v) = %q, want %q", tc.explanation, tc.accept, tc.br, tc.gz, got, tc.want)
		}
	}
}

func TestNegotiateDoesNotAllocate(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { encoding.Negotiate("gzip, deflate, br;q=0.9, zstd", true, true) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

func TestCompressible(t *testing.T) {
	for ct, want := range map[string]bool{
		"text/html; charset=utf-8": true, "text/x-script": true, "application/json": true,
		"application/manifest+json": true, "image/svg+xml": true, "text/javascript": true,
		"image/png": false, "font/woff2": false, "application/octet-stream": false, "": false,
	} {
		if got := encoding.Compressible(ct); got != want {
			t.Errorf("Compressible(%q) = %v", ct, got)
		}
	}
}

// A pooled writer flushed mid-stream lets the reader decode what was written
// so far; a writer back from the pool starts a fresh stream.
func TestWriterFlushAndReuse(t *testing.T) {
	readers := map[string]func(io.Reader) io.Reader{
		encoding.Brotli: func(r io.Reader) io.Reader { return brotli.NewReader(r) },
		encoding.Gzip: func(r io.Reader) io.Reader {
			z, err := gzip.NewReader(r)
			if err != nil {
				t.Fatal(err)
			}
			return z
		},
	}
	for coding, reader := range readers {
		for round := 0; round < 2; round++ {
			var wire bytes.Buffer
			w := encoding.NewWriter(coding, &wire)
			w.Write([]byte("<!DOCTYPE html><p>first</p>"))
			w.Flush()
			first := make([]byte, len("<!DOCTYPE html><p>first</p>"))
			r := reader(&wire)
			if _, err := io.ReadFull(r, first); err != nil || string(first) != "<!DOCTYPE html><p>first</p>" {
				t.Fatalf("%s round %d: after Flush read %q, %v", coding, round, first, err)
			}
			w.Write([]byte("<p>second</p></html>"))
			w.Close()
			encoding.PutWriter(coding, w)
			rest, err := io.ReadAll(r)
			if err != nil || string(rest) != "<p>second</p></html>" {
				t.Fatalf("%s round %d: rest %q, %v", coding, round, rest, err)
			}
		}
	}
	if got := encoding.Bytes(encoding.Gzip, []byte(strings.Repeat("a", 1000))); len(got) == 0 || len(got) > 100 {
		t.Errorf("Bytes: %d bytes", len(got))
	}
}
