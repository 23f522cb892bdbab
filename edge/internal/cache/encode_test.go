package cache

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"

	"github.com/andybalholm/brotli"
)

// A miss compresses the stored page only in the encoding its
// visitor accepts; a later visitor asking for the other gets it made once,
// correct, and counted against the cache's bound.
func TestMissCompressesOnlyWhatIsAsked(t *testing.T) {
	c, _ := newTestCache(t, DefaultMaxBytes)
	h := c.Wrap(&renderer{})
	gz0, br0 := Compressions()

	w := get(h, "/blog", header("Accept-Encoding", "br"))
	expect(t, w, 200, "MISS")
	if w.Header().Get("Content-Encoding") != "br" {
		t.Fatalf("Content-Encoding %q", w.Header().Get("Content-Encoding"))
	}
	brBody, _ := io.ReadAll(brotli.NewReader(bytes.NewReader(w.Body.Bytes())))
	if gz, br := Compressions(); gz != gz0 || br != br0+1 {
		t.Fatalf("a brotli-only miss: %d gzip and %d brotli compressions, want 0 and 1", gz-gz0, br-br0)
	}
	_, size0 := c.Stats()

	for i := range 2 {
		w = get(h, "/blog", header("Accept-Encoding", "gzip"))
		expect(t, w, 200, "HIT")
		if w.Header().Get("Content-Encoding") != "gzip" || w.Header().Get("Vary") != "Accept-Encoding" {
			t.Fatalf("gzip hit: %v", w.Header())
		}
		zr, err := gzip.NewReader(bytes.NewReader(w.Body.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		gzBody, _ := io.ReadAll(zr)
		if !bytes.Equal(gzBody, brBody) || len(gzBody) == 0 {
			t.Fatalf("gzip body (%d bytes) is not the brotli body (%d bytes)", len(gzBody), len(brBody))
		}
		if gz, br := Compressions(); gz != gz0+1 || br != br0+1 {
			t.Fatalf("gzip request %d: %d gzip and %d brotli compressions, want 1 and 1", i+1, gz-gz0, br-br0)
		}
	}
	if _, size := c.Stats(); size <= size0 {
		t.Errorf("the gzip copy is not counted: %d bytes, then %d", size0, size)
	}

	// A visitor who takes no compression costs none.
	expect(t, get(h, "/pricing", header("Accept-Encoding", "identity")), 200, "MISS")
	if gz, br := Compressions(); gz != gz0+1 || br != br0+1 {
		t.Fatalf("an identity miss compressed: %d gzip, %d brotli", gz-gz0, br-br0)
	}
}
