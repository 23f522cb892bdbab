package assets_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"omnibus/edge/internal/assets"
)

const js = "export const greeting = 'hello from a hashed bundle';\n"

// build writes a small client build: a hashed bundle with .br and .gz
// siblings, a stylesheet without siblings, and public root files.
func build(t *testing.T) string {
	dir := t.TempDir()
	write := func(name string, b []byte) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var br, gz bytes.Buffer
	bw := brotli.NewWriter(&br)
	bw.Write([]byte(js))
	bw.Close()
	gw := gzip.NewWriter(&gz)
	gw.Write([]byte(js))
	gw.Close()
	write("assets/app-3f9a1c.js", []byte(js))
	write("assets/app-3f9a1c.js.br", br.Bytes())
	write("assets/app-3f9a1c.js.gz", gz.Bytes())
	write("assets/tiny-77aa.css", []byte("a{color:red}"))
	write("favicon.ico", []byte{0, 0, 1, 0})
	write("manifest.webmanifest", []byte(`{"name":"Omnibus"}`))
	write("sw.js", []byte("self.addEventListener('install',()=>{})"))
	return dir
}

func serve(t *testing.T, h http.Handler, path string, hdr map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func decode(t *testing.T, enc string, b []byte) string {
	t.Helper()
	var r io.Reader = bytes.NewReader(b)
	switch enc {
	case "br":
		r = brotli.NewReader(r)
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// Hashed bundles are immutable and come precompressed per Accept-Encoding:
// brotli first, gzip when brotli is not accepted (or refused with q=0),
// identity otherwise; always the original's type and the right length.
func TestHashedAssetEncodings(t *testing.T) {
	h, err := assets.New(build(t))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ accept, want string }{
		{"gzip, deflate, br, zstd", "br"},
		{"gzip", "gzip"},
		{"br;q=0, gzip;q=0.8", "gzip"},
		{"gzip;q=0.5, br;q=0.9", "br"},
		{"br;q=0.4, gzip;q=0.9", "gzip"},
		{"*", "br"},
		{"*;q=0, gzip", "gzip"},
		{"", ""},
		{"identity", ""},
		{"gzip;q=0, br;q=0", ""},
	}
	for _, c := range cases {
		rec := serve(t, h, "/assets/app-3f9a1c.js", map[string]string{"Accept-Encoding": c.accept})
		if rec.Code != http.StatusOK {
			t.Fatalf("Accept-Encoding %q: status %d", c.accept, rec.Code)
		}
		hd := rec.Header()
		if got := hd.Get("Content-Encoding"); got != c.want {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", c.accept, got, c.want)
		}
		if got := hd.Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
			t.Errorf("Cache-Control %q", got)
		}
		if got := hd.Get("Content-Type"); !strings.HasPrefix(got, "text/javascript") {
			t.Errorf("Content-Type %q, want text/javascript", got)
		}
		if got := hd.Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("Vary %q", got)
		}
		if got := hd.Get("Content-Length"); got != strconv.Itoa(rec.Body.Len()) {
			t.Errorf("Content-Length %q for a %d-byte body", got, rec.Body.Len())
		}
		if hd.Get("ETag") == "" || hd.Get("Last-Modified") != "" || hd.Get("Accept-Ranges") != "" {
			t.Errorf("want an ETag, no Last-Modified nor Accept-Ranges: %v", hd)
		}
		if got := decode(t, c.want, rec.Body.Bytes()); got != js {
			t.Errorf("Accept-Encoding %q: decoded body %q", c.accept, got)
		}
	}
}

// Each encoding has its own ETag, and a matching If-None-Match gets 304.
func TestConditionalRequests(t *testing.T) {
	h, _ := assets.New(build(t))
	br := serve(t, h, "/assets/app-3f9a1c.js", map[string]string{"Accept-Encoding": "br"})
	gz := serve(t, h, "/assets/app-3f9a1c.js", map[string]string{"Accept-Encoding": "gzip"})
	if br.Header().Get("ETag") == gz.Header().Get("ETag") {
		t.Fatalf("brotli and gzip share ETag %s", br.Header().Get("ETag"))
	}
	rec := serve(t, h, "/assets/app-3f9a1c.js", map[string]string{"Accept-Encoding": "br", "If-None-Match": br.Header().Get("ETag")})
	if rec.Code != http.StatusNotModified {
		t.Fatalf("If-None-Match: %d, want 304", rec.Code)
	}
}

// A file without precompressed siblings is served as is, without Vary.
func TestAssetWithoutSiblings(t *testing.T) {
	h, _ := assets.New(build(t))
	rec := serve(t, h, "/assets/tiny-77aa.css", map[string]string{"Accept-Encoding": "br, gzip"})
	if rec.Code != http.StatusOK || rec.Body.String() != "a{color:red}" || rec.Header().Get("Content-Encoding") != "" {
		t.Fatalf("%d %q %v", rec.Code, rec.Body.String(), rec.Header())
	}
	if got := rec.Header().Get("Content-Type"); !strings.HasPrefix(got, "text/css") {
		t.Errorf("Content-Type %q", got)
	}
}

// Public root files get an hour of caching, the service worker none without
// revalidation, and the index knows exactly which files exist.
func TestPublicFiles(t *testing.T) {
	h, _ := assets.New(build(t))
	cases := map[string]string{
		"/favicon.ico":          "public, max-age=3600",
		"/manifest.webmanifest": "public, max-age=3600",
		"/sw.js":                "no-cache",
	}
	for path, cc := range cases {
		if !h.Has(path) {
			t.Errorf("Has(%s) = false", path)
		}
		rec := serve(t, h, path, nil)
		if rec.Code != http.StatusOK || rec.Header().Get("Cache-Control") != cc {
			t.Errorf("%s: %d Cache-Control %q, want %q", path, rec.Code, rec.Header().Get("Cache-Control"), cc)
		}
	}
	if got := serve(t, h, "/manifest.webmanifest", nil).Header().Get("Content-Type"); got != "application/manifest+json" {
		t.Errorf("manifest Content-Type %q", got)
	}
	for _, p := range []string{"/features", "/", "/assets/app-3f9a1c.js.br", "/assets", "/../etc/passwd"} {
		if h.Has(p) {
			t.Errorf("Has(%s) = true", p)
		}
	}
}

// A missing hashed file is a plain 404.
func TestMissingAsset(t *testing.T) {
	h, _ := assets.New(build(t))
	rec := serve(t, h, "/assets/app-000000.js", nil)
	if rec.Code != http.StatusNotFound {
		t.Fatalf("status %d", rec.Code)
	}
}
