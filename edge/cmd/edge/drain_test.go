package main

// A drain signs nobody out and closes no connection without an answer,
// tested on the edge itself, without a proxy in front: signed-
// in merchants' browsers, each a keep-alive connection straight to the
// edge, load journey pages while the edge gets SIGTERM. As a load balancer
// would, the clients keep opening new connections for a while after the
// edge turns unready (the time a controller takes to notice), then stop.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
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
)

// Ports of this test (helper gaps' range, 19100-19199).
const (
	drainEdgePort     = 19120
	drainRendererPort = 19121
)

// keepAliveClient is one browser's HTTP/1.1 connection, written by hand so
// that nothing retries behind the test's back (net/http's Transport resends
// a GET whose reused connection was closed under it, which would hide the
// very drop this test looks for).
type keepAliveClient struct {
	addr, host, cookie string
	conn               net.Conn
	br                 *bufio.Reader
	dials              int
}

type answer struct {
	status int
	body   string
	closed bool // the answer said Connection: close
}

// errNoDial: the client was told not to open a new connection.
var errNoDial = fmt.Errorf("not dialing")

// get sends one GET on the client's connection, dialing one if it has none
// and dial allows it. dropped reports a connection that was open (the
// request was written, or could not be) and ended without a full answer.
func (c *keepAliveClient) get(path string, dial bool) (a answer, dropped bool, err error) {
	if c.conn == nil {
		if !dial {
			return a, false, errNoDial
		}
		if c.conn, err = net.DialTimeout("tcp", c.addr, 2*time.Second); err != nil {
			c.conn = nil
			return a, false, err
		}
		c.dials++
		c.br = bufio.NewReader(c.conn)
	}
	fail := func(err error) (answer, bool, error) {
		c.conn.Close()
		c.conn = nil
		return answer{}, true, err
	}
	c.conn.SetDeadline(time.Now().Add(20 * time.Second))
	req := "GET " + path + " HTTP/1.1\r\nHost: " + c.host + "\r\nUser-Agent: " + edgetest.ChromeUA + "\r\nCookie: " + c.cookie + "\r\n\r\n"
	if _, err := io.WriteString(c.conn, req); err != nil {
		return fail(err)
	}
	res, err := http.ReadResponse(c.br, nil)
	if err != nil {
		return fail(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return fail(fmt.Errorf("body: %w", err))
	}
	a = answer{status: res.StatusCode, body: string(body), closed: res.Close}
	if res.StatusCode >= 300 && res.StatusCode < 400 {
		a.body = "Location: " + res.Header.Get("Location")
	}
	if a.closed {
		c.conn.Close()
		c.conn = nil
	}
	return a, false, nil
}

func TestDrainSignsNobodyOut(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an edge with its renderer")
	}
	ssr := edgetest.SSRDir(t)
	dir := t.TempDir()
	site := &rollSite{t: t, dir: dir, bin: buildEdge(t, dir)}
	host := "127.0.0.1:" + strconv.Itoa(drainEdgePort)
	public := "http://" + host
	site.env = append(os.Environ(),
		"OMNIBUS_ENV=development",
		"DATABASE_URL=", // SQLite: one edge
		"PUBLIC_URL="+public,
		"SSR_DIR="+ssr,
		"DRAIN_PERIOD=3s",
		"SHUTDOWN_TIMEOUT=10s",
		"METRICS_ADDR=",
		"LOG_LEVEL=warn",
	)
	e := site.startEdgeOn(0, drainEdgePort, drainRendererPort)
	t.Cleanup(func() {
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(dir, "edge0.log"))
			t.Logf("edge log (tail):\n%s", tail(string(b), 3000))
		}
	})
	waitReady(t, e)

	// Signed-in merchants; each page is checked for what only they see:
	// their store's name (signed out, /landing-page is a 200 offering to
	// sign in, /choose-plan redirects to /register).
	type merchant struct{ cookie, store string }
	var merchants []merchant
	for i := range 3 {
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar, Timeout: 30 * time.Second, CheckRedirect: noRedirect}
		store := fmt.Sprintf("drain-store-%d", i)
		body := fmt.Sprintf(`{"name":"Mira","email":"drain%d@example.com","password":"correct horse battery","storeName":%q}`, i, store)
		if res := post(t, c, public+"/api/v1/oaccount/register", body, public, fmt.Sprintf("198.51.100.%d", i+1)); res.StatusCode != http.StatusCreated {
			t.Fatalf("register: %d", res.StatusCode)
		}
		u, _ := url.Parse(public)
		var parts []string
		for _, ck := range jar.Cookies(u) {
			parts = append(parts, ck.Name+"="+ck.Value)
		}
		merchants = append(merchants, merchant{strings.Join(parts, "; "), store})
	}
	pages := []string{"/landing-page", "/choose-plan"}
	for _, m := range merchants {
		c := &keepAliveClient{addr: host, host: host, cookie: m.cookie}
		for _, p := range pages {
			a, _, err := c.get(p, true)
			if err != nil || a.status != http.StatusOK || !strings.Contains(a.body, m.store) {
				i := strings.Index(a.body, "<main")
				t.Fatalf("%s signed in before the drain: %v %d %.600q", p, err, a.status, a.body[max(i, 0):])
			}
		}
		if c.conn != nil {
			c.conn.Close()
		}
	}

	var (
		mu                                   sync.Mutex
		problems                             []string
		answered, afterTerm, closes, redials atomic.Int64
		terminated, dialing                  atomic.Bool
	)
	dialing.Store(true)
	problem := func(s string) {
		mu.Lock()
		if len(problems) < 20 {
			problems = append(problems, s)
		}
		mu.Unlock()
	}
	loadCtx, stopLoad := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i, m := range merchants {
		for j := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := &keepAliveClient{addr: host, host: host, cookie: m.cookie}
				for n := 0; loadCtx.Err() == nil; n++ {
					p := pages[(n+j)%len(pages)]
					dialsBefore := c.dials
					a, dropped, err := c.get(p, dialing.Load())
					switch {
					case err == errNoDial:
						return // the balancer sends this browser elsewhere now
					case dropped:
						problem(fmt.Sprintf("merchant %d %s: connection closed without an answer: %v", i, p, err))
						continue
					case err != nil:
						problem(fmt.Sprintf("merchant %d %s: %v", i, p, err))
						return
					case a.status != http.StatusOK || !strings.Contains(a.body, m.store):
						problem(fmt.Sprintf("merchant %d %s rendered signed out: %d %.200q", i, p, a.status, a.body))
					}
					answered.Add(1)
					if terminated.Load() {
						afterTerm.Add(1)
						if a.closed {
							closes.Add(1)
						}
						if c.dials > dialsBefore {
							redials.Add(1)
						}
					}
				}
			}()
		}
	}

	poll.Until(t, 30*time.Second, func() bool { return answered.Load() >= 30 }, "no load reached the edge")
	if err := e.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	terminated.Store(true)
	// The balancer: it notices the edge is unready, and a second later
	// (well inside DRAIN_PERIOD) opens no new connection to it.
	poll.Until(t, 5*time.Second, func() bool { return !ready(e.url()) }, "/readyz still 200 5 s after SIGTERM")
	time.AfterFunc(time.Second, func() { dialing.Store(false) })
	select {
	case <-e.done:
	case <-time.After(30 * time.Second):
		t.Fatal("edge still running 30 s after SIGTERM")
	}
	stopLoad()
	wg.Wait()
	if code := e.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("edge exited %d after SIGTERM, want 0", code)
	}
	t.Logf("%d answers, %d after SIGTERM (%d with Connection: close, %d on a new connection)", answered.Load(), afterTerm.Load(), closes.Load(), redials.Load())
	if len(problems) > 0 {
		t.Errorf("%d problems during the drain, want 0:\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
	if afterTerm.Load() < 10 || closes.Load() == 0 || redials.Load() == 0 {
		t.Errorf("the load did not run through the drain: %d answers after SIGTERM, %d closes, %d reconnections", afterTerm.Load(), closes.Load(), redials.Load())
	}
}
