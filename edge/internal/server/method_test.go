package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"omnibus/edge/internal/edgetest"
)

// Health and the crawler files answer HEAD as well as GET (load balancers
// and crawlers use either), from the edge itself.
func TestHealthMethods(t *testing.T) {
	var rr recordingRenderer
	e := edgetest.Start(t, edgetest.Options{RendererURL: rr.start(t)})
	for _, m := range []string{http.MethodHead, http.MethodGet} {
		for _, p := range []string{"/healthz", "/readyz", "/sitemap.xml", "/robots.txt"} {
			req, _ := http.NewRequest(m, e.URL+p, nil)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") == "text/html" {
				t.Errorf("%s %s: %d %s", m, p, res.StatusCode, res.Header.Get("Content-Type"))
			}
		}
	}
}

// HEAD works wherever GET does: every GET route of the edge,
// the API's included, answers HEAD with GET's status and headers and no
// body. HEAD /api/v1/platform-features was 404.
func TestHeadWhereverGet(t *testing.T) {
	var rr recordingRenderer
	e := edgetest.Start(t, edgetest.Options{RendererURL: rr.start(t)})
	paths := map[string]bool{"/api/v1/platform-features": true, "/pricing": true, "/": true}
	for _, r := range e.Server.Registered() {
		if r.Method == http.MethodGet {
			p := strings.NewReplacer(":", "x", "*", "x").Replace(r.Path)
			paths[p] = true
		}
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(m, p string) (*http.Response, []byte) {
		req, _ := http.NewRequest(m, e.URL+p, nil)
		req.Header.Set("User-Agent", edgetest.ChromeUA)
		res, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, b
	}
	for p := range paths {
		get, _ := do(http.MethodGet, p)
		head, body := do(http.MethodHead, p)
		if head.StatusCode != get.StatusCode || len(body) != 0 || head.Header.Get("Content-Type") != get.Header.Get("Content-Type") {
			t.Errorf("HEAD %s: %d %q, %d bytes; GET: %d %q", p, head.StatusCode, head.Header.Get("Content-Type"), len(body), get.StatusCode, get.Header.Get("Content-Type"))
		}
	}
	if res, _ := do(http.MethodHead, "/api/v1/platform-features"); res.StatusCode != http.StatusOK {
		t.Errorf("HEAD /api/v1/platform-features: %d", res.StatusCode)
	}
}
