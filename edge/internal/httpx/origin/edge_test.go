package origin_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"omnibus/edge/internal/config"
	"omnibus/edge/internal/edgetest"
)

// The edge as main builds it, with PUBLIC_URL http://localhost:8080, asked
// at 127.0.0.1 (another spelling of its address, as a visitor types it):
// every page, form post and API request is sent to the public origin with
// its path and query before anything answers it; the public host itself and
// the health probes are answered where they are asked.
func TestOtherHostRedirectsToPublicOrigin(t *testing.T) {
	var rendered atomic.Int32
	rend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rendered.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<!DOCTYPE html><html><body>page</body></html>")
	}))
	t.Cleanup(rend.Close)
	const public = "http://localhost:8080"
	e := edgetest.Start(t, edgetest.Options{RendererURL: rend.URL, PublicURL: public,
		Config: func(c *config.Config) { c.CachePurgeToken = "operator-token-0123456789abcdef" }})
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(method, path, host string, hdr map[string]string) *http.Response {
		t.Helper()
		var body io.Reader
		if method == http.MethodPost {
			body = strings.NewReader("emailaddress=a%40b.example")
		}
		req, _ := http.NewRequest(method, e.URL+path, body)
		if host != "" {
			req.Host = host
		}
		req.Header.Set("User-Agent", edgetest.ChromeUA)
		if body != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		res, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}

	for _, c := range []struct {
		method, path, host string
		hdr                map[string]string
		code               int
	}{
		{"GET", "/choose-plan?plan=growth", "", nil, http.StatusMovedPermanently},
		{"HEAD", "/features", "", nil, http.StatusMovedPermanently},
		{"GET", "/", "www.localhost:8080", nil, http.StatusMovedPermanently},
		{"GET", "/features", "LOCALHOST:9999", nil, http.StatusMovedPermanently},
		// A form posted without JavaScript is re-posted there, body and all.
		{"POST", "/register", "", nil, http.StatusPermanentRedirect},
		// The API too (the renderer never calls it on loopback): a GET is
		// sent on with 301, a POST with 308 (method and body kept).
		{"GET", "/api/v1/platform-features", "", nil, http.StatusMovedPermanently},
		{"POST", "/api/v1/news-letter/subscribe", "", nil, http.StatusPermanentRedirect},
		{"POST", "/api/v1/payments/stripe/webhook", "www.localhost:8080", nil, http.StatusPermanentRedirect},
		// A trusted proxy (loopback) names the host the visitor asked for.
		{"GET", "/blog", "localhost:8080", map[string]string{"X-Forwarded-Host": "127.0.0.1:8080"}, http.StatusMovedPermanently},
	} {
		before := rendered.Load()
		res := do(c.method, c.path, c.host, c.hdr)
		if res.StatusCode != c.code || res.Header.Get("Location") != public+c.path {
			t.Errorf("%s %s (Host %q): %d Location %q, want %d %s", c.method, c.path, c.host, res.StatusCode, res.Header.Get("Location"), c.code, public+c.path)
		}
		if rendered.Load() != before {
			t.Errorf("%s %s: rendered before the redirect", c.method, c.path)
		}
	}

	// Another host with another spelling of a page's address takes one
	// redirect, straight to the page's own address, and that redirect may be
	// kept by a cache like any permanent one (a POST's 308 may not).
	for from, to := range map[string]string{
		"/Features/":             "/features",
		"/FEATURES?utm_source=x": "/features?utm_source=x",
		"/blog/index.html":       "/blog",
	} {
		res := do("GET", from, "", nil)
		if res.StatusCode != http.StatusMovedPermanently || res.Header.Get("Location") != public+to {
			t.Errorf("GET %s on 127.0.0.1: %d Location %q, want 301 %s", from, res.StatusCode, res.Header.Get("Location"), public+to)
		}
		if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "max-age=") || strings.Contains(cc, "no-store") {
			t.Errorf("GET %s on 127.0.0.1: Cache-Control %q, want a cacheable permanent redirect", from, cc)
		}
	}
	if res := do("POST", "/register", "", nil); res.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("a POST's 308: Cache-Control %q, want no-store", res.Header.Get("Cache-Control"))
	}

	// The public origin in any spelling of its case, or named by the proxy, is served.
	for _, host := range []string{"localhost:8080", "LocalHost:8080"} {
		if res := do("GET", "/features", host, nil); res.StatusCode != http.StatusOK {
			t.Errorf("Host %s: %d, want 200", host, res.StatusCode)
		}
	}
	if res := do("GET", "/api/v1/platform-features", "localhost:8080", nil); res.StatusCode != http.StatusOK {
		t.Errorf("the API on the public host: %d, want 200", res.StatusCode)
	}
	if res := do("GET", "/features", "", map[string]string{"X-Forwarded-Host": "localhost:8080"}); res.StatusCode != http.StatusOK {
		t.Errorf("X-Forwarded-Host localhost:8080 from loopback: %d, want 200", res.StatusCode)
	}
	// Health and readiness answer on any host (a load balancer probes by address).
	for _, path := range []string{"/healthz", "/readyz"} {
		if res := do("GET", path, "", nil); res.StatusCode != http.StatusOK {
			t.Errorf("%s on 127.0.0.1: %d, want 200", path, res.StatusCode)
		}
	}
	// So does an operator's purge, sent to this edge's own address.
	purge, _ := http.NewRequest(http.MethodPost, e.URL+"/api/v1/admin/cache/purge", strings.NewReader(`{"path":"/features"}`))
	purge.Header.Set("Authorization", "Bearer operator-token-0123456789abcdef")
	purge.Header.Set("Content-Type", "application/json")
	if res, err := noFollow.Do(purge); err != nil {
		t.Fatal(err)
	} else if res.StatusCode != http.StatusOK {
		t.Errorf("a purge on 127.0.0.1: %s, want 200", res.Status)
	}
}
