package edgetest_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"

	"omnibus/edge/internal/edgetest"
)

// Pages the cache does not store (here /login, private) are streamed from
// the renderer and compressed on the way in the coding the visitor accepts;
// pages the cache stores are compressed once, by the cache, never twice.
func TestStreamedPagesAreCompressed(t *testing.T) {
	e := edgetest.Start(t, edgetest.Options{RealRenderer: true})
	raw := &http.Client{Transport: &http.Transport{DisableCompression: true}} // bytes as on the wire

	get := func(path, accept string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, e.URL+path, nil)
		req.Header.Set("User-Agent", edgetest.ChromeUA)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		res, err := raw.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var body io.Reader = res.Body
		switch res.Header.Get("Content-Encoding") {
		case "br":
			body = brotli.NewReader(res.Body)
		case "gzip":
			z, err := gzip.NewReader(res.Body)
			if err != nil {
				t.Fatalf("%s %q: %v", path, accept, err)
			}
			body = z
		}
		b, err := io.ReadAll(body)
		if err != nil {
			t.Fatalf("%s %q: %v", path, accept, err)
		}
		return res, string(b)
	}

	for _, tc := range []struct{ path, accept, want, xcache string }{
		{"/login", "br", "br", "BYPASS"},
		{"/login", "gzip", "gzip", "BYPASS"},
		{"/login", "", "", "BYPASS"},
		{"/register", "gzip, deflate, br", "br", "BYPASS"},
		{"/", "br", "br", "MISS"}, // stored by the cache, which compresses it itself
		{"/", "gzip", "gzip", "HIT"},
	} {
		res, doc := get(tc.path, tc.accept)
		if res.StatusCode != http.StatusOK || res.Header.Get("X-Cache") != tc.xcache {
			t.Fatalf("%s %q: %d X-Cache %q, want 200 %s", tc.path, tc.accept, res.StatusCode, res.Header.Get("X-Cache"), tc.xcache)
		}
		if got := res.Header.Get("Content-Encoding"); got != tc.want {
			t.Errorf("%s %q: Content-Encoding %q, want %q", tc.path, tc.accept, got, tc.want)
		}
		if vary := strings.Join(res.Header.Values("Vary"), ","); !strings.Contains(vary, "Accept-Encoding") {
			t.Errorf("%s %q: Vary %q lacks Accept-Encoding", tc.path, tc.accept, vary)
		}
		if !strings.HasPrefix(doc, "<!DOCTYPE html") || !strings.Contains(doc, "</html>") {
			t.Errorf("%s %q: not one complete document once decoded (%d bytes): %.200q", tc.path, tc.accept, len(doc), doc)
		}
	}
}
