// Package renderer runs the Node renderer (ssr/server.js) as a child process
// of the edge, or points at an external one (RENDERER_URL).
//
// The child listens on 127.0.0.1:Port only; the edge is the sole public
// listener. When the child dies the supervisor starts it again, waiting
// longer after each quick failure (250 ms doubling up to 10 s; the wait
// resets once a child has stayed up for 30 s). On Stop it sends SIGTERM to
// the child's process group (node and anything it spawned, e.g. Vite in dev
// mode), then SIGKILL after a grace period.
package renderer

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
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Options start a child renderer.
type Options struct {
	// Dir is the renderer's folder holding server.js and build/ (SSR_DIR).
	Dir string
	// Port is the loopback port the child listens on (RENDERER_PORT).
	Port int
	// APIURL is the edge origin the renderer's loaders fetch from
	// (http://127.0.0.1:<edge port>).
	APIURL string
	// PublicURL is the site's canonical origin (PUBLIC_URL).
	PublicURL string
	// Dev runs `node server.js --dev` (Vite with hot reload) and
	// NODE_ENV=development instead of production.
	Dev bool
	// MetricsPort is the loopback port of the renderer's own Prometheus
	// metrics (METRICS_PORT for the child; 0: none).
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

// Supervisor owns the renderer: a child process it keeps alive, or an
// external URL it only checks.
type Supervisor struct {
	url    *url.URL
	client *http.Client
	log    *slog.Logger

	// child only
	opts    Options
	stop    chan struct{}
	done    chan struct{}
	mu      sync.Mutex
	cmd     *exec.Cmd
	pgid    int // process group of the latest child (its pid)
	started int // how many times a child was started
}

// External uses a renderer someone else runs; nothing is started or stopped.
func External(rawURL string) (*Supervisor, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("renderer: RENDERER_URL %q is not an absolute URL", rawURL)
	}
	return &Supervisor{url: u, client: healthClient(), log: slog.Default()}, nil
}

// Start launches the child renderer and keeps it running until Stop. It
// returns at once; use WaitReady to wait for the first answer. It fails if
// server.js is missing or something else already listens on the port.
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
	if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
		c.Close()
		return nil, fmt.Errorf("renderer: %s is already in use; set RENDERER_PORT to a free port or RENDERER_URL to use that renderer", addr)
	}
	s := &Supervisor{
		url:    &url.URL{Scheme: "http", Host: addr},
		client: healthClient(),
		log:    opts.Logger,
		opts:   opts,
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
	}
	go s.supervise()
	return s, nil
}

func healthClient() *http.Client {
	return &http.Client{
		Timeout: 2 * time.Second,
		// A redirect is an answer; do not follow it.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// URL is the renderer's origin.
func (s *Supervisor) URL() *url.URL { return s.url }

// PID is the current child's process id, or 0 (external renderer, or
// between restarts).
func (s *Supervisor) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil || s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
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
func (s *Supervisor) Check(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url.JoinPath(HealthPath).String(), nil)
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
		if err := s.Check(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("renderer at %s not ready: %w", s.url, ctx.Err())
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

const (
	minBackoff = 250 * time.Millisecond
	maxBackoff = 10 * time.Second
	healthyRun = 30 * time.Second
)

func (s *Supervisor) supervise() {
	// Pdeathsig (set below) fires when the thread that forked the child
	// exits. Pin this goroutine to its thread for the supervisor's life, so
	// the child is told to stop if the edge dies without running Stop.
	runtime.LockOSThread()
	defer close(s.done)
	backoff := minBackoff
	for {
		began := time.Now()
		exited, err := s.spawn()
		if err != nil {
			s.log.Error("renderer: start failed", "err", err)
		} else {
			select {
			case err := <-exited:
				s.log.Error("renderer: exited; restarting", "err", err, "in", backoff)
			case <-s.stop:
				s.terminate(exited)
				return
			}
		}
		if time.Since(began) > healthyRun {
			backoff = minBackoff
		}
		select {
		case <-time.After(backoff):
		case <-s.stop:
			return
		}
		backoff = min(backoff*2, maxBackoff)
	}
}

// spawn starts one child and returns a channel that receives its exit.
func (s *Supervisor) spawn() (<-chan error, error) {
	args := []string{"server.js"}
	nodeEnv := "production"
	if s.opts.Dev {
		args = append(args, "--dev")
		nodeEnv = "development"
	}
	cmd := exec.Command(s.opts.Node, args...)
	cmd.Dir = s.opts.Dir
	cmd.Env = append(childEnv(os.Environ()),
		"PORT="+strconv.Itoa(s.opts.Port),
		"HOST=127.0.0.1",
		"NODE_ENV="+nodeEnv,
		"API_URL="+s.opts.APIURL,
		"PUBLIC_URL="+s.opts.PublicURL,
	)
	if s.opts.MetricsPort > 0 {
		cmd.Env = append(cmd.Env, "METRICS_PORT="+strconv.Itoa(s.opts.MetricsPort))
	}
	cmd.Env = append(cmd.Env, s.opts.Env...)
	cmd.Stdout = s.opts.Output
	cmd.Stderr = s.opts.Output
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	s.mu.Lock()
	if err := cmd.Start(); err != nil {
		s.mu.Unlock()
		return nil, err
	}
	s.cmd = cmd
	s.pgid = cmd.Process.Pid
	s.started++
	s.mu.Unlock()
	s.log.Info("renderer: started", "pid", cmd.Process.Pid, "url", s.url.String(), "dev", s.opts.Dev)
	exited := make(chan error, 1)
	go func() {
		err := cmd.Wait()
		s.mu.Lock()
		s.cmd = nil
		s.mu.Unlock()
		exited <- err
	}()
	return exited, nil
}

// InheritedEnv lists the only variables of the edge's environment the child
// renderer inherits: what Node itself needs and what the renderer reads.
// Everything else (DATABASE_URL, GOOGLE_CLIENT_SECRET, CACHE_PURGE_TOKEN,
// SMTP_URL, …) stays with the edge: the renderer renders, it holds no secret.
// The supervisor sets PORT, HOST, NODE_ENV, API_URL and PUBLIC_URL itself.
var InheritedEnv = []string{
	// Node and the system
	"PATH", "HOME", "TMPDIR", "TZ", "LANG", "LC_ALL", "TERM", "NO_COLOR",
	"NODE_OPTIONS", "NODE_EXTRA_CA_CERTS",
	// The renderer's own settings (README, Configuration)
	"SUPPORT_EMAIL", "SUPPORT_PHONE", "SCHEDULE_DEMO_URL", "GOOGLE_CLIENT_ID", "LOG_LEVEL",
}

// childEnv keeps the entries of environ whose name is in InheritedEnv.
func childEnv(environ []string) []string {
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if slices.Contains(InheritedEnv, name) {
			out = append(out, kv)
		}
	}
	return out
}

// terminate asks the child's group to stop and waits for the child; Stop
// escalates to SIGKILL when its grace period ends.
func (s *Supervisor) terminate(exited <-chan error) {
	s.signal(syscall.SIGTERM)
	<-exited
	// Whatever the child left in its group (a Vite watcher) goes too.
	s.signal(syscall.SIGKILL)
}

// signal sends sig to the latest child's process group.
func (s *Supervisor) signal(sig syscall.Signal) {
	s.mu.Lock()
	pgid := s.pgid
	s.mu.Unlock()
	if pgid > 0 {
		_ = syscall.Kill(-pgid, sig)
	}
}
