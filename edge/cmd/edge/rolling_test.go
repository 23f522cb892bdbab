package main

// A rolling restart of three edges behind a real nginx, as an operator runs
// one: the test plays the load balancer's controller (as an ingress
// controller does from the endpoints' readiness), listing in nginx's
// upstream only the edges whose /readyz answers 200 and reloading nginx when
// that set changes. nginx has retries off (proxy_next_upstream off) and
// keeps connections to the edges alive, so any connection an edge closes
// without an answer, or any request sent to an edge that stopped listening,
// is an error a visitor sees.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
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
	"omnibus/edge/internal/storage/storagetest"
)

// Ports of this test (the drain helper's range, 18400-18499).
const (
	rollNginxPort    = 18401
	rollEdgePort     = 18410 // + i: edges, replacements on the next ones
	rollRendererPort = 18430 // + i
)

// nginxBinary is Debian's nginx, or the test is skipped (fails under CI=true).
func nginxBinary(t *testing.T) string {
	for _, p := range []string{"/usr/sbin/nginx", "nginx"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("nginx is required (apt-get install nginx-light)")
	}
	t.Skip("nginx not installed (apt-get install nginx-light)")
	return ""
}

// buildEdge builds this command into dir.
func buildEdge(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "edge")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

type edgeProc struct {
	n    int
	port int
	cmd  *exec.Cmd
	done chan struct{}
	log  *os.File
}

func (e *edgeProc) url() string { return "http://127.0.0.1:" + strconv.Itoa(e.port) }

// rollSite is the three edges, nginx and the controller.
type rollSite struct {
	t        *testing.T
	bin, dir string
	env      []string
	nginx    *exec.Cmd
	mu       sync.Mutex
	edges    []*edgeProc // every edge started, running or not
	upstream string      // the upstream block nginx runs with
	reloads  int
	port     int // nginx's; 0: rollNginxPort
}

func (s *rollSite) startEdge(n int) *edgeProc {
	return s.startEdgeOn(n, rollEdgePort+n, rollRendererPort+n)
}

// startEdgeOn starts edge n listening on port, its renderer on rendererPort,
// with extra settings of its own.
func (s *rollSite) startEdgeOn(n, port, rendererPort int, extra ...string) *edgeProc {
	t := s.t
	e := &edgeProc{n: n, port: port, done: make(chan struct{})}
	var err error
	if e.log, err = os.Create(filepath.Join(s.dir, fmt.Sprintf("edge%d.log", n))); err != nil {
		t.Fatal(err)
	}
	e.cmd = exec.Command(s.bin)
	e.cmd.Dir = filepath.Dir(s.bin)
	e.cmd.Env = append(s.env,
		"LISTEN_ADDR=127.0.0.1:"+strconv.Itoa(e.port),
		"RENDERER_PORT="+strconv.Itoa(rendererPort),
		"DATA_DIR="+filepath.Join(s.dir, "data"+strconv.Itoa(n)),
	)
	e.cmd.Env = append(e.cmd.Env, extra...)
	e.cmd.Stdout, e.cmd.Stderr = e.log, e.log
	if err := e.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { e.cmd.Wait(); close(e.done) }()
	t.Cleanup(func() {
		select {
		case <-e.done:
		default:
			e.cmd.Process.Kill()
			<-e.done
		}
	})
	s.mu.Lock()
	s.edges = append(s.edges, e)
	s.mu.Unlock()
	return e
}

func ready(url string) bool {
	c := http.Client{Timeout: time.Second}
	res, err := c.Get(url + "/readyz")
	if err != nil {
		return false
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode == http.StatusOK
}

// control lists the ready edges in nginx's upstream, reloading nginx when
// the list changes, until ctx ends.
func (s *rollSite) control(ctx context.Context) {
	for ctx.Err() == nil {
		s.mu.Lock()
		edges := append([]*edgeProc(nil), s.edges...)
		s.mu.Unlock()
		// Every edge asked at once: one slow answer must not delay the others.
		up := make([]bool, len(edges))
		var wg sync.WaitGroup
		for i, e := range edges {
			select {
			case <-e.done:
				continue
			default:
			}
			wg.Add(1)
			go func() { defer wg.Done(); up[i] = ready(e.url()) }()
		}
		wg.Wait()
		var servers []string
		for i, e := range edges {
			if up[i] {
				servers = append(servers, fmt.Sprintf("server 127.0.0.1:%d;", e.port))
			}
		}
		if len(servers) > 0 {
			s.setUpstream(servers)
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (s *rollSite) setUpstream(servers []string) {
	up := strings.Join(servers, "\n    ")
	if up == s.upstream {
		return
	}
	s.upstream = up
	port := s.port
	if port == 0 {
		port = rollNginxPort
	}
	conf := strings.NewReplacer("@DIR@", s.dir, "@PORT@", strconv.Itoa(port), "@SERVERS@", up).Replace(nginxConf)
	if err := os.WriteFile(filepath.Join(s.dir, "nginx.conf"), []byte(conf), 0o644); err != nil {
		s.t.Error(err)
		return
	}
	if s.nginx == nil {
		s.nginx = exec.Command(nginxBinary(s.t), "-p", s.dir, "-c", filepath.Join(s.dir, "nginx.conf"), "-e", filepath.Join(s.dir, "nginx-error.log"))
		s.nginx.Stdout, s.nginx.Stderr = os.Stderr, os.Stderr
		if err := s.nginx.Start(); err != nil {
			s.t.Fatal(err)
		}
		nginx := s.nginx
		s.t.Cleanup(func() { nginx.Process.Signal(syscall.SIGQUIT); nginx.Wait() })
		return
	}
	s.reloads++
	s.nginx.Process.Signal(syscall.SIGHUP) // reload: old workers finish their requests
}

// nginxConf: keep-alive connections to the edges, no retry on another
// edge: a connection an edge drops is a visitor's error.
const nginxConf = `
daemon off;
master_process on;
worker_processes 1;
pid @DIR@/nginx.pid;
error_log @DIR@/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path @DIR@/body;
  proxy_temp_path @DIR@/proxy;
  fastcgi_temp_path @DIR@/fastcgi;
  uwsgi_temp_path @DIR@/uwsgi;
  scgi_temp_path @DIR@/scgi;
  upstream edges {
    @SERVERS@
    keepalive 32;
    # Below the edge's IdleGrace (2 s): at a shutdown nginx closes its idle
    # connections itself, so none is closed under a request it is sending.
    keepalive_timeout 1s;
  }
  server {
    listen 127.0.0.1:@PORT@;
    location / {
      proxy_pass http://edges;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_next_upstream off;
      proxy_buffering off;
    }
  }
}
`

// tally counts a load's answers.
type tally struct {
	mu     sync.Mutex
	ok     map[string]int
	errors []string
}

func (c *tally) add(kind string, err string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != "" {
		if len(c.errors) < 20 {
			c.errors = append(c.errors, kind+": "+err)
		} else {
			c.errors = append(c.errors[:20], "…")
		}
		c.ok[kind+" errors"]++
		return
	}
	c.ok[kind]++
}

// TestRollingRestartDropsNothing: GETs of cached pages, signed-in
// merchants' pages (rendered with their session: /choose-plan redirects to
// /register when the render sees them signed out) and POSTs, through nginx
// during a rolling restart of three edges (SIGTERM one, start its
// replacement, wait until it is ready, next): every request answered, none
// 5xx, no signed-in visitor rendered signed out. Before the drain: 502s
// from nginx on every restart (the edge closed kept-alive connections and
// its listener while nginx still sent there).
func TestRollingRestartDropsNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three edges with their renderers and nginx")
	}
	ssr := edgetest.SSRDir(t)
	nginxBinary(t)
	dir := t.TempDir()
	for _, d := range []string{"body", "proxy", "fastcgi", "uwsgi", "scgi"} {
		os.Mkdir(filepath.Join(dir, d), 0o755)
	}
	site := &rollSite{t: t, dir: dir, bin: buildEdge(t, dir)}
	public := "http://127.0.0.1:" + strconv.Itoa(rollNginxPort)
	site.env = append(os.Environ(),
		"OMNIBUS_ENV=development",
		"DATABASE_URL="+storagetest.EmptyPostgres(t),
		"PUBLIC_URL="+public,
		"SSR_DIR="+ssr,
		"DRAIN_PERIOD=3s", // well above the controller's poll (100 ms) and an nginx reload
		"SHUTDOWN_TIMEOUT=10s",
		"DB_MAX_OPEN_CONNS=5",
		"METRICS_ADDR=",
		"LOG_LEVEL=warn",
	)
	t.Cleanup(func() {
		if t.Failed() {
			for _, f := range []string{"nginx-error.log", "edge0.log", "edge3.log"} {
				b, _ := os.ReadFile(filepath.Join(dir, f))
				t.Logf("%s (tail):\n%s", f, tail(string(b), 3000))
			}
		}
	})
	var old []*edgeProc
	for i := range 3 {
		old = append(old, site.startEdge(i))
	}
	waitReady(t, old...)
	ctx, stop := context.WithCancel(context.Background())
	controlled := make(chan struct{})
	go func() { site.control(ctx); close(controlled) }()
	defer func() { stop(); <-controlled }()
	poll.Until(t, 10*time.Second, func() bool { return ready(public) }, "nginx never answered")

	// Signed-in merchants, each with its own browser (cookie jar).
	merchants := make([]*http.Client, 4)
	for i := range merchants {
		jar, _ := cookiejar.New(nil)
		merchants[i] = &http.Client{Jar: jar, Timeout: 15 * time.Second, CheckRedirect: noRedirect,
			Transport: &http.Transport{DisableKeepAlives: true}}
		body := fmt.Sprintf(`{"name":"Mira","email":"roll%d-%d@example.com","password":"correct horse battery","storeName":"roll store %d"}`, i, time.Now().UnixNano(), i)
		res := post(t, merchants[i], public+"/api/v1/oaccount/register", body, public, fmt.Sprintf("198.51.100.%d", i+1))
		if res.StatusCode != http.StatusCreated {
			t.Fatalf("register: %d", res.StatusCode)
		}
		if res := getPage(merchants[i], public+"/choose-plan"); res.err != "" || res.status != http.StatusOK {
			t.Fatalf("/choose-plan signed in before the restart: %+v", res)
		}
	}

	// The load: until stopped, as fast as answers come.
	counts := &tally{ok: map[string]int{}}
	anon := &http.Client{Timeout: 15 * time.Second, CheckRedirect: noRedirect, Transport: &http.Transport{DisableKeepAlives: true}}
	paths := []string{"/", "/features", "/old-pricing", "/career", "/contact-us", "/blog"}
	loadCtx, stopLoad := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	run := func(f func(i int)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; loadCtx.Err() == nil; i++ {
				f(i)
			}
		}()
	}
	for w := range 4 {
		run(func(i int) {
			p := paths[(i+w)%len(paths)]
			r := getPage(anon, public+p)
			switch {
			case r.err != "":
				counts.add("GET", p+": "+r.err)
			case r.status >= 500:
				counts.add("GET", fmt.Sprintf("%s: %d", p, r.status))
			default:
				counts.add("GET", "")
			}
		})
	}
	for m := range merchants {
		run(func(int) {
			r := getPage(merchants[m], public+"/choose-plan")
			switch {
			case r.err != "":
				counts.add("signed-in GET", r.err)
			case r.status != http.StatusOK:
				counts.add("signed-in GET", fmt.Sprintf("%d Location %q (signed out?)", r.status, r.location))
			default:
				counts.add("signed-in GET", "")
			}
		})
	}
	var posted atomic.Int64
	for w := range 2 {
		run(func(int) {
			n := posted.Add(1)
			body := fmt.Sprintf(`{"emailaddress":"reader%d-%d@example.com"}`, w, n)
			// A distinct visitor each (nginx appends its peer to X-Forwarded-For).
			req, _ := http.NewRequest(http.MethodPost, public+"/api/v1/news-letter/subscribe", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Origin", public)
			req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", w, n/250%250, n%250+1))
			res, err := anon.Do(req)
			if err != nil {
				counts.add("POST", err.Error())
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode >= 300 {
				counts.add("POST", strconv.Itoa(res.StatusCode))
				return
			}
			counts.add("POST", "")
		})
	}

	// The rolling restart.
	began := time.Now()
	time.Sleep(500 * time.Millisecond) // load on all three first
	for i, e := range old {
		if err := e.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		next := site.startEdge(3 + i)
		waitReady(t, next)
		select {
		case <-e.done:
		case <-time.After(20 * time.Second):
			t.Fatalf("edge %d still running 20 s after SIGTERM", e.n)
		}
		if code := e.cmd.ProcessState.ExitCode(); code != 0 {
			t.Errorf("edge %d exited %d after SIGTERM, want 0", e.n, code)
		}
	}
	time.Sleep(500 * time.Millisecond) // load on the three new ones
	stopLoad()
	wg.Wait()
	counts.mu.Lock()
	defer counts.mu.Unlock()
	t.Logf("rolling restart in %s, %d nginx reloads: %v", time.Since(began).Round(time.Millisecond), site.reloads, counts.ok)
	if len(counts.errors) > 0 {
		t.Errorf("%d errors during the rolling restart, want 0: %s", len(counts.errors), strings.Join(counts.errors, "; "))
	}
	for _, kind := range []string{"GET", "signed-in GET", "POST"} {
		if counts.ok[kind] < 20 {
			t.Errorf("only %d %s answered: the load did not run", counts.ok[kind], kind)
		}
	}
}

func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

type pageResult struct {
	status        int
	location, err string
}

func getPage(c *http.Client, url string) pageResult {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("User-Agent", edgetest.ChromeUA)
	req.Header.Set("Accept-Encoding", "br, gzip")
	res, err := c.Do(req)
	if err != nil {
		return pageResult{err: err.Error()}
	}
	defer res.Body.Close()
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		return pageResult{err: "body: " + err.Error()}
	}
	return pageResult{status: res.StatusCode, location: res.Header.Get("Location")}
}

func post(t *testing.T, c *http.Client, url, body, origin, xff string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", origin)
	req.Header.Set("X-Forwarded-For", xff)
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var v json.RawMessage
	json.NewDecoder(res.Body).Decode(&v)
	res.Body.Close()
	return res
}

func waitReady(t *testing.T, edges ...*edgeProc) {
	t.Helper()
	for _, e := range edges {
		poll.Until(t, 60*time.Second, func() bool {
			select {
			case <-e.done:
				t.Fatalf("edge %d exited: %v", e.n, e.cmd.ProcessState)
			default:
			}
			return ready(e.url())
		}, "edge %d not ready in 60 s", e.n)
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
