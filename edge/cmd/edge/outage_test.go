package main

// A database outage is not a site outage: three
// edge processes on one PostgreSQL, as an operator runs them, the database
// reached through a CutProxy. With the caches warm, the database goes away
// for 15 s: first a partition that drops packets (nothing refused, nothing
// answered), then a server that refuses connections. Throughout, every
// edge's /readyz and every cached page are asked for a few times a second,
// as the probes and visitors would; then the database comes back and the
// edges find it again, purge fan-out included.

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/storage/storagetest"
)

const (
	outageLength = 15 * time.Second
	// outagePoll: how often each edge is asked during the outage.
	outagePoll = 300 * time.Millisecond
	// readinessTimeout is the readiness probe's timeoutSeconds
	// (deploy/k8s/base/deployment.yaml): an answer that takes longer is a
	// failed probe.
	readinessTimeout = 3 * time.Second
	// outageHost is PUBLIC_URL's host, which a load balancer in front
	// forwards (the edges send any other host there).
	outageHost = "omnibus.test"
)

// TestDatabaseOutageKeepsEveryEdgeServing: during the outage every /readyz
// answers 200 within the probe's timeout, naming the database unavailable
// (and omnibus_database_up 0) once each edge has noticed, and every cached
// page answers 200 from the cache on every edge. After it, each edge reports
// the database ok again, its purge listener is back
// (omnibus_cache_purge_listener_up 1), and a purge sent to one edge reaches
// the other two. Before: /readyz waited on a database ping inside the probe
// (3 s), so while packets were dropped every probe timed out.
func TestDatabaseOutageKeepsEveryEdgeServing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three edges and cuts their database for 15 s")
	}
	cut, dbURL := edgetest.CutPostgres(t, storagetest.EmptyPostgres(t))
	// The renderer: what it renders carries a version the test raises
	// before purging, so a page rendered anew is told from a kept one.
	var version atomic.Int64
	version.Store(1)
	rend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!DOCTYPE html><html lang=\"en-US\"><title>Page %[1]s</title><h1>Page %[1]s version %[2]d</h1></html>", r.URL.Path, version.Load())
	}))
	t.Cleanup(rend.Close)

	const token = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	dir := t.TempDir()
	site := &rollSite{t: t, dir: dir, bin: edgeBinary(t), env: append(os.Environ(),
		"OMNIBUS_ENV=development",
		"DATABASE_URL="+dbURL,
		"PUBLIC_URL=http://"+outageHost,
		"RENDERER_URL="+rend.URL,
		"CACHE_PURGE_TOKEN="+token,
		"CACHE_WARM=0", // the test warms the caches itself, and knows what each holds
		"DB_MAX_OPEN_CONNS=5",
		"LOG_FORMAT=json",
	)}
	type edge struct {
		*edgeProc
		metrics string
	}
	var edges []edge
	for i := range 3 {
		mport := edgetest.FreePort(t)
		p := site.startEdgeOn(i, edgetest.FreePort(t), edgetest.FreePort(t), "METRICS_ADDR=127.0.0.1:"+strconv.Itoa(mport))
		edges = append(edges, edge{p, fmt.Sprintf("http://127.0.0.1:%d/metrics", mport)})
	}
	t.Cleanup(func() {
		if t.Failed() {
			for i := range edges {
				b, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("edge%d.log", i)))
				t.Logf("edge%d.log (tail):\n%s", i, tail(string(b), 3000))
			}
		}
	})
	for _, e := range edges {
		waitReady(t, e.edgeProc)
	}

	client := &http.Client{Timeout: 5 * time.Second}
	page := func(e edge, path string) (status int, xcache, body string, err error) {
		req, _ := http.NewRequest(http.MethodGet, e.url()+path, nil)
		req.Host = outageHost
		req.Header.Set("User-Agent", edgetest.ChromeUA)
		res, err := client.Do(req)
		if err != nil {
			return 0, "", "", err
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		return res.StatusCode, res.Header.Get("X-Cache"), string(b), err
	}
	probe := func(e edge) (status int, database string, err error) {
		c := http.Client{Timeout: readinessTimeout}
		res, err := c.Get(e.url() + "/readyz")
		if err != nil {
			return 0, "", err
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		_, after, _ := strings.Cut(string(b), `"database":"`)
		database, _, _ = strings.Cut(after, `"`)
		return res.StatusCode, database, nil
	}
	paths := edgetest.CachedPaths(t)
	for _, e := range edges {
		for _, p := range paths {
			poll.Until(t, 10*time.Second, func() bool { _, x, _, _ := page(e, p); return x == "HIT" },
				"edge %d never kept %s", e.n, p)
		}
		if up := edgetest.Scrape(t, e.metrics, "omnibus_cache_purge_listener_up"); up != "1" {
			t.Fatalf("edge %d: omnibus_cache_purge_listener_up %q before the outage, want 1", e.n, up)
		}
	}

	// The outage: every edge asked every outagePoll, concurrently.
	var (
		mu       sync.Mutex
		failures []string
		answered int
		noticed  = make([]bool, len(edges))
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(failures) < 20 {
			failures = append(failures, fmt.Sprintf(format, args...))
		}
	}
	round := func() {
		var wg sync.WaitGroup
		for i, e := range edges {
			wg.Add(1)
			go func() {
				defer wg.Done()
				began := time.Now()
				status, database, err := probe(e)
				switch {
				case err != nil:
					fail("edge %d /readyz: %v (the probe's timeout is %s)", e.n, err, readinessTimeout)
				case status != http.StatusOK:
					fail("edge %d /readyz: %d after %s, want 200", e.n, status, time.Since(began).Round(time.Millisecond))
				case database == "unavailable":
					mu.Lock()
					noticed[i] = true
					mu.Unlock()
				}
				for _, p := range paths {
					status, xcache, _, err := page(e, p)
					if err != nil || status != http.StatusOK || xcache != "HIT" {
						fail("edge %d %s: %d X-Cache %q %v, want 200 HIT", e.n, p, status, xcache, err)
					}
				}
				mu.Lock()
				answered += 1 + len(paths)
				mu.Unlock()
			}()
		}
		wg.Wait()
	}
	began := time.Now()
	tick := time.NewTicker(outagePoll)
	defer tick.Stop()
	cut.Blackhole()
	for half := range 2 {
		for time.Since(began) < time.Duration(half+1)*outageLength/2 {
			round()
			<-tick.C
		}
		if half == 0 {
			cut.Cut() // the second half: refused outright
		}
	}
	for _, e := range edges {
		if up := edgetest.Scrape(t, e.metrics, "omnibus_database_up"); up != "0" {
			t.Errorf("edge %d: omnibus_database_up %q during the outage, want 0", e.n, up)
		}
	}
	cut.Restore()
	t.Logf("%s outage: %d answers", time.Since(began).Round(time.Millisecond), answered)
	for _, f := range failures {
		t.Error(f)
	}
	for i, ok := range noticed {
		if !ok {
			t.Errorf("edge %d: /readyz never named the database unavailable during the outage", i)
		}
	}

	// After: the database ok again, the purge listener back on every edge.
	for _, e := range edges {
		poll.Until(t, 15*time.Second, func() bool {
			status, database, err := probe(e)
			return err == nil && status == http.StatusOK && database == "ok"
		}, "edge %d: /readyz never reported the database back", e.n)
		poll.Until(t, 20*time.Second, func() bool {
			return edgetest.Scrape(t, e.metrics, "omnibus_cache_purge_listener_up") == "1"
		}, "edge %d: the purge listener never reconnected", e.n)
		if up := edgetest.Scrape(t, e.metrics, "omnibus_database_up"); up != "1" {
			t.Errorf("edge %d: omnibus_database_up %q after the outage, want 1", e.n, up)
		}
	}

	// A purge sent to one edge reaches the others: each holds the page as
	// rendered before (version 1); the next render says version 2.
	target := paths[0]
	for _, e := range edges {
		poll.Until(t, 10*time.Second, func() bool {
			_, x, body, _ := page(e, target)
			return x == "HIT" && strings.Contains(body, "version 1")
		}, "edge %d never kept %s after the outage", e.n, target)
	}
	version.Store(2)
	req, _ := http.NewRequest(http.MethodPost, edges[0].url()+"/api/v1/admin/cache/purge", strings.NewReader(`{"path":"`+target+`"}`))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(b), `"broadcast":true`) {
		t.Fatalf("purge on edge 0: %d %s, want 200 broadcast", res.StatusCode, b)
	}
	for _, e := range edges {
		poll.Until(t, 10*time.Second, func() bool {
			_, _, body, _ := page(e, target)
			return strings.Contains(body, "version 2")
		}, "edge %d still serves the purged %s", e.n, target)
	}
}
