package main

// A rolling replacement behind the shipped compose balancer configuration
// (deploy/haproxy/haproxy.cfg), run with Debian's haproxy: edges cannot
// hand their socket on (a new container is a new socket), so each is
// stopped with SIGTERM and a new one started in its place while HAProxy
// follows /readyz. Retries are off; GETs and POSTs must all succeed.
// Then, on the edges the roll left, an acknowledged purge: `edge purge` on
// one edge returns only once the other two serve the new copy.

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/storage/storagetest"
)

func haproxyBinary(t *testing.T) string {
	for _, p := range []string{"/usr/sbin/haproxy", "haproxy"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("haproxy is required (apt-get install haproxy)")
	}
	t.Skip("haproxy not installed (apt-get install haproxy)")
	return ""
}

func TestRollingReplacementBehindTheComposeBalancer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three edges, their replacements and haproxy")
	}
	bin := haproxyBinary(t)
	// What the renderer renders carries a version the purge test raises.
	var version atomic.Int64
	version.Store(1)
	rend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!DOCTYPE html><html lang=\"en-US\"><title>x</title><h1>%s version %d</h1></html>", r.URL.Path, version.Load())
	}))
	t.Cleanup(rend.Close)
	dir := t.TempDir()
	lbPort := edgetest.FreePort(t)
	const token = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	public := "http://127.0.0.1:" + strconv.Itoa(lbPort)
	site := &rollSite{t: t, dir: dir, bin: sharedEdgeBinary(t), env: append(os.Environ(),
		"OMNIBUS_ENV=development",
		"DATABASE_URL="+storagetest.EmptyPostgres(t),
		"PUBLIC_URL="+public,
		"RENDERER_URL="+rend.URL,
		"CACHE_PURGE_TOKEN="+token,
		"DRAIN_PERIOD=3s", // above the configuration's 2 × 500 ms checks, with room on a busy machine
		"SHUTDOWN_TIMEOUT=10s",
		"CACHE_WARM=0",
		"DB_MAX_OPEN_CONNS=5",
		"METRICS_ADDR=",
		"LOG_LEVEL=warn",
	)}
	ports := []int{edgetest.FreePort(t), edgetest.FreePort(t), edgetest.FreePort(t)}
	var edges, replacements []*edgeProc
	var servers []string
	for i, port := range ports {
		edges = append(edges, site.startEdgeOn(i, port, edgetest.FreePort(t)))
		servers = append(servers, fmt.Sprintf("    server edge%d 127.0.0.1:%d", i, port))
	}
	waitReady(t, edges...)

	shipped, err := os.ReadFile("../../../deploy/haproxy/haproxy.cfg")
	if err != nil {
		t.Fatal(err)
	}
	var conf []string
	for _, line := range strings.Split(string(shipped), "\n") {
		switch trimmed := strings.TrimSpace(line); {
		case strings.HasPrefix(trimmed, "server-template "):
			conf = append(conf, servers...)
		case trimmed == "bind :8080":
			conf = append(conf, "    bind 127.0.0.1:"+strconv.Itoa(lbPort))
		default:
			conf = append(conf, line)
		}
	}
	cfg := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(cfg, []byte(strings.Join(conf, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	lbLog, _ := os.Create(filepath.Join(dir, "haproxy.log"))
	lb := exec.Command(bin, "-db", "-f", cfg)
	lb.Stdout, lb.Stderr = lbLog, lbLog
	if err := lb.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lb.Process.Kill(); lb.Wait() })
	t.Cleanup(func() {
		if t.Failed() {
			for _, f := range []string{"haproxy.log", "edge0.log"} {
				b, _ := os.ReadFile(filepath.Join(dir, f))
				t.Logf("%s (tail):\n%s", f, tail(string(b), 3000))
			}
		}
	})
	poll.Until(t, 10*time.Second, func() bool { return ready(public) }, "haproxy never answered")

	rollUnderLoad(t, public, "rolling replacement behind haproxy", 8, func() {
		for i, e := range edges {
			if err := e.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			select {
			case <-e.done:
			case <-time.After(30 * time.Second):
				t.Fatalf("edge %d still running 30 s after SIGTERM", i)
			}
			if code := e.cmd.ProcessState.ExitCode(); code != 0 {
				t.Errorf("edge %d exited %d after SIGTERM, want 0", i, code)
			}
			// Its replacement, at the same address (a new container of the
			// same name).
			next := site.startEdgeOn(3+i, e.port, edgetest.FreePort(t))
			waitReady(t, next)
			replacements = append(replacements, next)
		}
	})

	t.Run("a purge on one edge returns once the other two serve the new copy", func(t *testing.T) {
		host := strings.TrimPrefix(public, "http://")
		page := func(e *edgeProc) (xcache, body string) {
			req, _ := http.NewRequest(http.MethodGet, e.url()+"/features", nil)
			req.Host = host
			req.Header.Set("User-Agent", edgetest.ChromeUA)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return res.Header.Get("X-Cache"), string(b)
		}
		for _, e := range replacements {
			poll.Until(t, 10*time.Second, func() bool { x, _ := page(e); return x == "HIT" }, "edge %d never kept /features", e.n)
		}
		version.Store(2)
		cmd := exec.Command(site.bin, "purge", "--path", "/features", "--url", replacements[0].url())
		cmd.Env = append(os.Environ(), "CACHE_PURGE_TOKEN="+token, "OMNIBUS_ENV=development")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("edge purge: %v\n%s", err, out)
		}
		// No waiting here: the command returned, so every edge has it.
		for _, e := range replacements[1:] {
			if x, body := page(e); !strings.Contains(body, "version 2") {
				t.Errorf("edge %d right after `edge purge` returned: X-Cache %s, %q; want the new copy", e.n, x, body)
			}
		}
		if n := strings.Count(string(out), "applied after"); n != 3 {
			t.Errorf("`edge purge` names %d edges that applied it, want 3:\n%s", n, out)
		}
		t.Logf("edge purge:\n%s", out)
	})
}
