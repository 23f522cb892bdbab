package main

// SIGTERM with visitors who never stop, and no balancer to send them
// elsewhere: 64 signed-in visitors, each a keep-alive connection straight to
// the edge, send one request after another and open a new connection
// whenever an answer says Connection: close. Every request must get its
// whole answer, or its connection must be refused before anything is sent
// on it; none may be cut when the shutdown timeout runs out. Before: the
// edge waited, listener open, for a moment with no request in flight,
// which never came (the visitors kept reconnecting), until the timeout,
// and then closed all 64 connections with their requests unanswered.

import (
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
	"omnibus/shared"
)

func TestShutdownAnswersEveryKeepAliveVisitor(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an edge and 64 visitors")
	}
	// The renderer: a few milliseconds a page (so requests are in flight at
	// any moment), saying whether the edge sent it a signed-in visitor.
	rend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(3 * time.Millisecond)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "private, no-store")
		state := "signed-out"
		if r.Header.Get(shared.HTTP.AccountHeader) != "" {
			state = "signed-in"
		}
		fmt.Fprintf(w, "<!DOCTYPE html><html lang=\"en-US\"><title>x</title><p>%s</p></html>", state)
	}))
	t.Cleanup(rend.Close)

	dir := t.TempDir()
	port := edgetest.FreePort(t)
	host := "127.0.0.1:" + strconv.Itoa(port)
	public := "http://" + host
	site := &rollSite{t: t, dir: dir, bin: sharedEdgeBinary(t), env: append(os.Environ(),
		"OMNIBUS_ENV=development",
		"DATABASE_URL=", // SQLite: one edge
		"PUBLIC_URL="+public,
		"RENDERER_URL="+rend.URL,
		"DRAIN_PERIOD=1s",
		"SHUTDOWN_TIMEOUT=4s",
		"METRICS_ADDR=",
		"LOG_LEVEL=warn",
	)}
	e := site.startEdgeOn(0, port, edgetest.FreePort(t))
	t.Cleanup(func() {
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(dir, "edge0.log"))
			t.Logf("edge log (tail):\n%s", tail(string(b), 3000))
		}
	})
	waitReady(t, e)

	// Four merchants, sixteen tabs each.
	var cookies []string
	for i := range 4 {
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar, Timeout: 30 * time.Second, CheckRedirect: noRedirect}
		body := fmt.Sprintf(`{"name":"Mira","email":"shutdown%d@example.com","password":"correct horse battery","storeName":"store %d"}`, i, i)
		if res := post(t, c, public+"/api/v1/oaccount/register", body, public, fmt.Sprintf("198.51.100.%d", i+1)); res.StatusCode != http.StatusCreated {
			t.Fatalf("register: %d", res.StatusCode)
		}
		u, _ := url.Parse(public)
		var parts []string
		for _, ck := range jar.Cookies(u) {
			parts = append(parts, ck.Name+"="+ck.Value)
		}
		cookies = append(cookies, strings.Join(parts, "; "))
	}

	var (
		mu                          sync.Mutex
		problems                    []string
		answered, afterTerm, closes atomic.Int64
		refused                     atomic.Int64
		terminated                  atomic.Bool
	)
	problem := func(s string) {
		mu.Lock()
		if len(problems) < 20 {
			problems = append(problems, s)
		}
		mu.Unlock()
	}
	var wg sync.WaitGroup
	for v := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &keepAliveClient{addr: host, host: host, cookie: cookies[v%len(cookies)]}
			defer func() {
				if c.conn != nil {
					c.conn.Close()
				}
			}()
			for {
				a, dropped, err := c.get("/landing-page", true)
				switch {
				case dropped:
					problem(fmt.Sprintf("visitor %d: request sent, connection ended without an answer: %v", v, err))
					return
				case err != nil && terminated.Load():
					refused.Add(1) // refused before anything was sent: the edge is gone
					return
				case err != nil:
					problem(fmt.Sprintf("visitor %d: %v", v, err))
					return
				case a.status != http.StatusOK || !strings.Contains(a.body, "signed-in"):
					problem(fmt.Sprintf("visitor %d: %d %.200q", v, a.status, a.body))
				}
				answered.Add(1)
				if terminated.Load() {
					afterTerm.Add(1)
					if a.closed {
						closes.Add(1)
					}
				}
			}
		}()
	}

	poll.Until(t, 30*time.Second, func() bool { return answered.Load() >= 200 }, "no load reached the edge")
	sent := time.Now()
	if err := e.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	terminated.Store(true)
	select {
	case <-e.done:
	case <-time.After(30 * time.Second):
		t.Fatal("edge still running 30 s after SIGTERM")
	}
	took := time.Since(sent)
	wg.Wait()
	if code := e.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("edge exited %d after SIGTERM, want 0", code)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "edge0.log"))
	if strings.Contains(string(log), "drain incomplete") {
		t.Errorf("the shutdown timeout cut connections: the log says %q", "drain incomplete")
	}
	t.Logf("%d answers, %d after SIGTERM (%d with Connection: close), %d visitors refused at the end; exited %s after SIGTERM",
		answered.Load(), afterTerm.Load(), closes.Load(), refused.Load(), took.Round(time.Millisecond))
	if len(problems) > 0 {
		t.Errorf("%d problems, want 0:\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
	if afterTerm.Load() < 64 || closes.Load() == 0 {
		t.Errorf("the load did not run through the drain: %d answers after SIGTERM, %d closes", afterTerm.Load(), closes.Load())
	}
}

// sharedEdgeBinary builds this command once for the tests that share it.
func sharedEdgeBinary(t *testing.T) string {
	t.Helper()
	builtEdge.once.Do(func() {
		dir, err := os.MkdirTemp("", "edge-bin-")
		if err != nil {
			builtEdge.err = err
			return
		}
		builtEdge.path = filepath.Join(dir, "edge")
		if out, err := exec.Command("go", "build", "-o", builtEdge.path, ".").CombinedOutput(); err != nil {
			builtEdge.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if builtEdge.err != nil {
		t.Fatal(builtEdge.err)
	}
	return builtEdge.path
}

var builtEdge struct {
	once sync.Once
	path string
	err  error
}

// TestMain removes the shared binary after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if builtEdge.path != "" {
		os.RemoveAll(filepath.Dir(builtEdge.path))
	}
	os.Exit(code)
}
