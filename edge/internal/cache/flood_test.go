package cache

import (
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"unicode"

	"omnibus/edge/internal/canonical"
	"omnibus/edge/internal/content"
	"omnibus/shared"
)

// floodRequests is how many requests TestFloodKeepsWarmedPages floods the
// cache with, a count rather than a time: what the flood may cost is
// measured per request, and a busy machine sending fewer requests in a
// fixed time made the same renders look like more per request.
// bench/run.sh's cache-flood row floods the running edge for 30 s.
const floodRequests = 40_000

// An attacker's flood of random paths, random letter cases of the routes and
// random values of the kept parameters (30 s of random 404s
// evicted 72 of 72 cached routes) leaves every warmed page a HIT: unknown
// paths share one not-found entry, undeclared parameter values are dropped
// before the cache, and what is asked for once cannot evict what was asked
// for again.
func TestFloodKeepsWarmedPages(t *testing.T) {
	paths, err := content.SeedPaths()
	if err != nil {
		t.Fatal(err)
	}
	addresses := canonical.New(shared.Routes).WithPages(paths)
	var routes []string // every cached page of the site
	for _, r := range shared.Routes.Routes {
		if !r.Cache.Private && !strings.Contains(r.Path, ":") {
			routes = append(routes, r.Path)
		}
	}
	routes = append(routes, paths...)
	known := map[string]bool{}
	for _, p := range routes {
		known[p] = true
	}
	var rmu sync.Mutex
	rendered := map[string]int{}
	up := &renderer{respond: func(w http.ResponseWriter, r *http.Request, n int64) {
		rmu.Lock()
		rendered[r.URL.Path+"?"+r.URL.RawQuery]++
		rmu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if !known[r.URL.Path] {
			w.WriteHeader(http.StatusNotFound) // the renderer's not-found page
		}
		fmt.Fprintf(w, "<!DOCTYPE html><html><h1>%s</h1>%s</html>", r.URL.Path, strings.Repeat("<p>Sell everywhere from one platform.</p>", 100))
	}}
	// Room for the warmed pages and a little more: the flood has to be kept
	// out, not outlasted.
	c := New(Options{MaxBytes: int64(len(routes)) * 40 << 10, Policies: NewPolicies(addresses), Logger: slog.New(slog.DiscardHandler)})
	h := addresses.Canonical(c.Wrap(up))

	for _, p := range routes { // warm: a visit, then a second one
		get(h, p)
		if w := get(h, p); w.Code != http.StatusOK || w.Header().Get("X-Cache") != "HIT" {
			t.Fatalf("warming %s: %d %s", p, w.Code, w.Header().Get("X-Cache"))
		}
	}
	entries, _ := c.Stats()
	renders := up.calls.Load()

	var wg sync.WaitGroup
	var mu sync.Mutex
	sent, statuses := 0, map[int]int{}
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 28))
			n, st := 0, map[int]int{}
			for range floodRequests / 4 {
				w := get(h, floodTarget(rng, routes))
				st[w.Code]++
				n++
			}
			mu.Lock()
			sent += n
			for k, v := range st {
				statuses[k] += v
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	after, _ := c.Stats()
	t.Logf("%d flood requests (%v); %d renders; entries %d → %d", sent, statuses, up.calls.Load()-renders, entries, after)

	for _, p := range routes {
		if w := get(h, p); w.Code != http.StatusOK || w.Header().Get("X-Cache") != "HIT" {
			t.Errorf("%s after the flood: %d %s, want 200 HIT", p, w.Code, w.Header().Get("X-Cache"))
		}
	}
	// No render and no entry per flood request: the shared not-found page
	// (and its data request), each declared parameter value of a page, the
	// manifest's answers for known paths.
	if extra := up.calls.Load() - renders; extra > int64(sent/100) {
		n := 0
		for k, v := range rendered {
			if n++; n < 20 {
				t.Logf("%s: %d", k, v)
			}
		}
		t.Errorf("%d renders for %d flood requests", extra, sent)
	}
	if w := get(h, "/no-such-page-"+fmt.Sprint(rand.Int())); w.Code != http.StatusNotFound || w.Header().Get("X-Cache") != "HIT" {
		t.Errorf("an unknown path: %d %s, want the shared not-found page, 404 HIT", w.Code, w.Header().Get("X-Cache"))
	}
}

// floodTarget is one attacker request: a random path, a random letter case
// of a route, a random value of a kept parameter, or a data or manifest
// request with made-up route ids or paths.
func floodTarget(rng *rand.Rand, routes []string) string {
	word := func() string {
		b := make([]byte, 4+rng.IntN(12))
		for i := range b {
			b[i] = "abcdefghijklmnopqrstuvwxyz0123456789"[rng.IntN(36)]
		}
		return string(b)
	}
	route := routes[rng.IntN(len(routes))]
	switch rng.IntN(7) {
	case 0:
		return "/" + word() + "/" + word()
	case 1:
		return "/blog/article/" + word()
	case 2: // a random letter case
		b := []rune(route)
		for i := range b {
			if rng.IntN(2) == 0 {
				b[i] = unicode.ToUpper(b[i])
			}
		}
		return string(b) + "x"[:rng.IntN(2)] // and sometimes one more letter
	case 3:
		return route + "?newsletter=" + word() + "&reason=" + word()
	case 4:
		return "/contact-us?outcome=" + word()
	case 5:
		if route == "/" {
			route = "/_root"
		}
		return route + ".data?_routes=" + url.QueryEscape("root,"+word())
	default:
		return "/__manifest?version=abc&paths=" + url.QueryEscape("/"+word()+","+route)
	}
}

// mustTable is a test's own small route table, parsed as the site's is.
func mustTable(t *testing.T, routesJSON string) *shared.RouteTable {
	t.Helper()
	table, err := shared.ParseRouteTable([]byte(routesJSON))
	if err != nil {
		t.Fatal(err)
	}
	return table
}
