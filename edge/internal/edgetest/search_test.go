package edgetest_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/search"
)

// A client over its search limit is refused from a page rendered once and
// kept: with every refusal a render, a flood of random queries from one
// client took the renderer's cores from the cached pages everyone else
// reads. The refusal is still a page for a human (the site's "too many
// searches" page, not indexed, not stored) with 429 and Retry-After.
func TestARefusedSearchMakesNoRendererRequest(t *testing.T) {
	var mu sync.Mutex
	queries := map[string]int{} // the renderer's /search requests by their q
	rend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var res search.Result
		if b, err := base64.RawURLEncoding.DecodeString(r.Header.Get(search.Header)); err == nil {
			json.Unmarshal(b, &res)
		}
		if r.URL.Path == search.Path {
			mu.Lock()
			queries[r.URL.Query().Get("q")]++
			mu.Unlock()
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if res.Status == search.StatusLimited {
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `<!DOCTYPE html><html lang="en-US"><title>Search</title><h1>Too many searches</h1></html>`)
			return
		}
		fmt.Fprintf(w, `<!DOCTYPE html><html lang="en-US"><title>Search</title><h1>Results for %s</h1></html>`, res.Query)
	}))
	t.Cleanup(rend.Close)
	e := edgetest.Start(t, edgetest.Options{RendererURL: rend.URL})

	refused := 0
	for i := 0; i < 10*search.LimitBurst && refused < 20; i++ {
		q := fmt.Sprintf("flood%d", i)
		res, body := e.Get(t, "/search?q="+q)
		if res.StatusCode != http.StatusTooManyRequests {
			continue
		}
		refused++
		mu.Lock()
		n := queries[q]
		mu.Unlock()
		if n > 0 {
			t.Fatalf("the refused search %q made %d renderer requests", q, n)
		}
		if res.Header.Get("Retry-After") == "" || !strings.Contains(res.Header.Get("Cache-Control"), "no-store") || res.Header.Get("X-Robots-Tag") != "noindex" {
			t.Fatalf("a refusal's head: Retry-After %q, Cache-Control %q, X-Robots-Tag %q; want a wait, no-store and noindex",
				res.Header.Get("Retry-After"), res.Header.Get("Cache-Control"), res.Header.Get("X-Robots-Tag"))
		}
		if !strings.Contains(body, "Too many searches") {
			t.Fatalf("a refusal answered %q, want the rendered too-many-searches page", body)
		}
	}
	if refused < 20 {
		t.Fatalf("%d of %d searches refused: the limit did not hold", refused, 10*search.LimitBurst)
	}
	mu.Lock()
	defer mu.Unlock()
	if n := queries[""]; n != 1 {
		t.Errorf("the refusal page was rendered %d times for %d refusals, want once", n, refused)
	}
	// HEAD is answered alike, without a body.
	req, _ := http.NewRequest(http.MethodHead, e.URL+"/search?q=one-more", nil)
	req.Header.Set("User-Agent", edgetest.ChromeUA)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode == http.StatusTooManyRequests && len(b) != 0 {
		t.Errorf("HEAD of a refused search answered %d bytes", len(b))
	}
}
