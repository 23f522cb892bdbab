// Package renderer runs the Node renderer (ssr/server.js) as a child process
// of the edge, or points at an external one (RENDERER_URL).
//
// The children listen on loopback only (the active one first on Port, the
// warm standby on a free port); the edge is the sole public listener. When
// the active child dies the standby takes over at once and the dead one is
// started again; a child that dies before it ever answered is restarted
// after a pause that doubles (250 ms up to 10 s). On Stop it sends SIGTERM
// to each child's process group (node and anything it spawned, e.g. Vite in
// dev mode), then SIGKILL after a grace period.
package renderer

// The Supervisor type and its public API: the external renderer
// (RENDERER_URL) and the supervised children both answer URL, Check,
// WaitReady and Stop; the health check; the process ids and start count
// the edge reports. Spawning and stopping children is in process.go, the
// active/standby hand-over in standby.go.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Options start a child renderer.
type Options struct {
	// Dir is the renderer's folder holding server.js and build/ (SSR_DIR).
	Dir string
	// Port is the loopback port the child listens on (RENDERER_PORT); 0:
	// a free one.
	Port int
	// PublicURL is the site's canonical origin (PUBLIC_URL).
	PublicURL string
	// Dev runs `node server.js --dev` (Vite with hot reload) and
	// NODE_ENV=development instead of production.
	Dev bool
	// MetricsPort is the loopback port of the renderer's own Prometheus
	// metrics (METRICS_PORT for the child; 0: none). A standby child finds
	// it taken and binds it once the child before it has gone.
	MetricsPort int
	// Node is the node binary (default "node" on PATH).
	Node string
	// Env is extra environment for the child ("KEY=value"), beside the
	// variables it inherits (InheritedEnv) and those the supervisor sets.
	Env []string
	// Output receives the child's stdout and stderr (default os.Stderr).
	Output io.Writer
	// Logger (default slog.Default()).
	Logger *slog.Logger
}

// Supervisor owns the renderer: child processes it keeps alive, or an
// external URL it only checks.
//
// In production two children run: the active one, which every page goes
// to, and a warm standby on a port of its own. When the active child dies
// the standby takes over at once (URL changes) and the dead one is started
// again as the new standby, so a crash costs the requests it had in flight,
// not a Node start-up. Dev mode (Vite) runs a single child.
type Supervisor struct {
	url    *url.URL // external renderer only
	client *http.Client
	log    *slog.Logger

	// children only
	opts    Options
	stop    chan struct{}
	done    chan struct{}
	mu      sync.Mutex
	slots   []*instance // the latest instance of each slot (nil between runs)
	active  *instance
	started int // how many times a child was started
}

// instance is one run of one child process.
type instance struct {
	url   *url.URL
	pid   int // also its process group
	ready bool
}

// External uses a renderer someone else runs; nothing is started or stopped.
func External(rawURL string) (*Supervisor, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("renderer: RENDERER_URL %q is not an absolute URL", rawURL)
	}
	return &Supervisor{url: u, client: healthClient(), log: slog.Default()}, nil
}

// Start launches the child renderer (and its standby) and keeps it running
// until Stop. It returns at once; use WaitReady to wait for the first
// answer. It fails if server.js is missing or something else already
// listens on the port.
func Start(opts Options) (*Supervisor, error) {
	if opts.Node == "" {
		opts.Node = "node"
	}
	if opts.Output == nil {
		opts.Output = os.Stderr
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if _, err := os.Stat(opts.Dir + "/server.js"); err != nil {
		return nil, fmt.Errorf("renderer: no server.js in SSR_DIR %q (run `npm run build -w ssr`): %w", opts.Dir, err)
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(opts.Port))
	if opts.Port == 0 {
		// Any free port (an edge taking over from one whose renderer
		// still holds RENDERER_PORT).
	} else if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
		c.Close()
		return nil, fmt.Errorf("renderer: %s is already in use; set RENDERER_PORT to a free port or RENDERER_URL to use that renderer", addr)
	}
	s := &Supervisor{
		client: healthClient(),
		log:    opts.Logger,
		opts:   opts,
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
	}
	n := 2
	if opts.Dev {
		n = 1
	}
	s.slots = make([]*instance, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() { defer wg.Done(); s.supervise(i) }()
	}
	go func() { wg.Wait(); close(s.done) }()
	return s, nil
}

func healthClient() *http.Client {
	return &http.Client{
		Timeout: 2 * time.Second,
		// A redirect is an answer; do not follow it.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// URL is the origin pages go to: the external renderer, or the active
// child (it changes when the standby takes over; ask per request).
func (s *Supervisor) URL() *url.URL {
	if s.url != nil {
		return s.url
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active != nil {
		return s.active.url
	}
	return &url.URL{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(s.opts.Port))}
}

// serving reports whether pages have a renderer: the external one, or an
// active child the supervisor has seen answer (Check alone may reach the
// first child on its port before the supervisor has made it active).
func (s *Supervisor) serving() bool {
	if s.url != nil {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.active != nil && s.active.ready
}

// PID is the active child's process id, or 0 (external renderer, or none
// running).
func (s *Supervisor) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active == nil {
		return 0
	}
	return s.active.pid
}

// ReadyPIDs are the process ids of the children answering health checks,
// the active one first.
func (s *Supervisor) ReadyPIDs() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var pids []int
	if s.active != nil && s.active.ready {
		pids = append(pids, s.active.pid)
	}
	for _, in := range s.slots {
		if in != nil && in.ready && in != s.active {
			pids = append(pids, in.pid)
		}
	}
	return pids
}

// PIDs are the process ids of every running child.
func (s *Supervisor) PIDs() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var pids []int
	for _, in := range s.slots {
		if in != nil {
			pids = append(pids, in.pid)
		}
	}
	return pids
}

// Starts is how many times a child has been started (1 after a clean start).
func (s *Supervisor) Starts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.started
}

// MetricsURL is the child renderer's metrics endpoint, or "" when it has
// none (Options.MetricsPort 0, or an external renderer).
func (s *Supervisor) MetricsURL() string {
	if s.opts.MetricsPort <= 0 {
		return ""
	}
	return "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(s.opts.MetricsPort)) + "/metrics"
}

// HealthPath is the renderer's own health endpoint (ssr/server.js).
const HealthPath = "/__renderer/health"

// Check asks the renderer's health endpoint; a 2xx answer is healthy.
func (s *Supervisor) Check(ctx context.Context) error { return s.check(ctx, s.URL()) }

func (s *Supervisor) check(ctx context.Context, u *url.URL) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.JoinPath(HealthPath).String(), nil)
	if err != nil {
		return err
	}
	req.Header.Set("User-Agent", "omnibus-edge-healthcheck")
	res, err := s.client.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20))
	res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return fmt.Errorf("renderer answered %s", res.Status)
	}
	return nil
}

// WaitReady polls Check until it succeeds or ctx ends.
func (s *Supervisor) WaitReady(ctx context.Context) error {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		if err := s.Check(ctx); err == nil && s.serving() {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("renderer at %s not ready: %w", s.URL(), ctx.Err())
		case <-t.C:
		}
	}
}

// Stop ends supervision and the child: SIGTERM to its process group, then
// SIGKILL if it has not exited when ctx ends. A no-op for an external
// renderer; safe to call twice.
func (s *Supervisor) Stop(ctx context.Context) error {
	if s.stop == nil {
		return nil
	}
	s.mu.Lock()
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	s.mu.Unlock()
	select {
	case <-s.done:
		return nil
	case <-ctx.Done():
		s.signal(syscall.SIGKILL)
		<-s.done
		return errors.New("renderer: killed after the shutdown grace period")
	}
}

func (s *Supervisor) stopped() bool {
	select {
	case <-s.stop:
		return true
	default:
		return false
	}
}
