package main

// A rolling restart on the edges' own hosts, behind a load balancer that
// knows nothing of readiness: Debian's nginx with plain round robin over
// three fixed edges, keep-alive upstreams and retries off, the way compose
// and VM set-ups run. Each edge in turn gets SIGHUP and hands its listening
// socket to its successor (the same binary); the socket never closes, so
// nginx never meets a refused or reset connection. Before: restarting an
// edge closed its port, and every request nginx sent there meanwhile, or
// on a kept-alive connection the edge closed, was a 502.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/storage/storagetest"
)

func TestRollingRestartBySocketTakeoverBehindPlainNginx(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three edges, their successors and nginx")
	}
	nginxBinary(t)
	ssr := edgetest.SSRDir(t)
	// Edges 1 and 2 share a small renderer; edge 0 runs its own, so its
	// successor's renderer must start beside the one still serving.
	rend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!DOCTYPE html><html lang=\"en-US\"><title>x</title><h1>%s</h1></html>", r.URL.Path)
	}))
	t.Cleanup(rend.Close)
	dir := t.TempDir()
	for _, d := range []string{"body", "proxy", "fastcgi", "uwsgi", "scgi"} {
		os.Mkdir(filepath.Join(dir, d), 0o755)
	}
	site := &rollSite{t: t, dir: dir, bin: sharedEdgeBinary(t), port: edgetest.FreePort(t)}
	public := "http://127.0.0.1:" + strconv.Itoa(site.port)
	site.env = append(os.Environ(),
		"OMNIBUS_ENV=development",
		"DATABASE_URL="+storagetest.EmptyPostgres(t),
		"PUBLIC_URL="+public,
		"DRAIN_PERIOD=30s", // a takeover does not wait for it: the successor accepts already
		"SHUTDOWN_TIMEOUT=10s",
		"CACHE_WARM=0",
		"DB_MAX_OPEN_CONNS=5",
		"METRICS_ADDR=",
		"LOG_LEVEL=warn",
	)
	var edges []*edgeProc
	var servers []string
	for i := range 3 {
		extra := []string{"PID_FILE=" + filepath.Join(dir, fmt.Sprintf("edge%d.pid", i))}
		if i == 0 {
			extra = append(extra, "SSR_DIR="+ssr)
		} else {
			extra = append(extra, "RENDERER_URL="+rend.URL)
		}
		e := site.startEdgeOn(i, edgetest.FreePort(t), edgetest.FreePort(t), extra...)
		edges = append(edges, e)
		servers = append(servers, fmt.Sprintf("server 127.0.0.1:%d;", e.port))
	}
	// The successors are not this test's children: stop them by their PID
	// files (their renderers end with them).
	t.Cleanup(func() {
		for i := range edges {
			if b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("edge%d.pid", i))); err == nil {
				if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid != edges[i].cmd.Process.Pid {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
		}
		if t.Failed() {
			for _, f := range []string{"nginx-error.log", "edge0.log", "edge1.log"} {
				b, _ := os.ReadFile(filepath.Join(dir, f))
				t.Logf("%s (tail):\n%s", f, tail(string(b), 3000))
			}
		}
	})
	waitReady(t, edges...)
	site.setUpstream(servers)
	poll.Until(t, 10*time.Second, func() bool { return ready(public) }, "nginx never answered")

	rollUnderLoad(t, public, "rolling restart by socket takeover", 9, func() {
		for i, e := range edges {
			if err := e.cmd.Process.Signal(syscall.SIGHUP); err != nil {
				t.Fatal(err)
			}
			select {
			case <-e.done:
			case <-time.After(90 * time.Second):
				t.Fatalf("edge %d still running 90 s after SIGHUP: no successor took over", i)
			}
			if code := e.cmd.ProcessState.ExitCode(); code != 0 {
				t.Errorf("edge %d exited %d after handing over, want 0", i, code)
			}
			b, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("edge%d.pid", i)))
			if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pid == 0 || pid == e.cmd.Process.Pid {
				t.Fatalf("edge %d: PID file %q does not name a successor", i, b)
			}
			if !ready(e.url()) {
				t.Fatalf("edge %d's successor does not answer /readyz 200 on the same port", i)
			}
		}
	})
}
