package renderer

// Child processes: the supervision loop that keeps each slot's child
// running (restart with backoff), spawning a child (its command line,
// environment and output), and stopping it (SIGTERM to its process group,
// SIGKILL on Stop's deadline). childAttr, the per-platform process
// attributes, is in procattr_*.go.

import (
	"errors"
	"net"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const (
	minBackoff = 250 * time.Millisecond
	maxBackoff = 10 * time.Second
)

// supervise keeps slot i's child running. A child that dies before it ever
// answered is restarted after a pause that doubles each time (250 ms up to
// 10 s: a broken build must not spin); one that had been serving is
// restarted at once.
func (s *Supervisor) supervise(i int) {
	// Pdeathsig (childAttr, on Linux) fires when the thread that forked the child
	// exits. Pin this goroutine to its thread for the supervisor's life, so
	// the child is told to stop if the edge dies without running Stop.
	runtime.LockOSThread()
	backoff := minBackoff
	for {
		in, exited, err := s.spawn(i)
		ready := false
		if err != nil {
			s.log.Error("renderer: start failed", "err", err)
		} else {
			ready = s.watch(in, exited)
			if s.stopped() {
				return
			}
		}
		if ready {
			backoff = minBackoff
		}
		select {
		case <-time.After(backoff):
		case <-s.stop:
			return
		}
		if !ready {
			backoff = min(backoff*2, maxBackoff)
		}
	}
}

// spawn starts slot i's child and returns it with a channel that receives
// its exit. Slot 0 listens on Port; the standby slot on a free port.
func (s *Supervisor) spawn(i int) (*instance, <-chan error, error) {
	port := s.opts.Port
	if i > 0 || port == 0 {
		var err error
		if port, err = freePort(); err != nil {
			return nil, nil, err
		}
	}
	args := []string{"server.js"}
	nodeEnv := "production"
	if s.opts.Dev {
		args = append(args, "--dev")
		nodeEnv = "development"
	}
	cmd := exec.Command(s.opts.Node, args...)
	cmd.Dir = s.opts.Dir
	cmd.Env = append(childEnv(os.Environ()),
		"PORT="+strconv.Itoa(port),
		"HOST=127.0.0.1",
		"NODE_ENV="+nodeEnv,
		"PUBLIC_URL="+s.opts.PublicURL,
		// The edge has drained before it stops its child: none here.
		"DRAIN_PERIOD=0s",
	)
	if s.opts.MetricsPort > 0 {
		cmd.Env = append(cmd.Env, "METRICS_PORT="+strconv.Itoa(s.opts.MetricsPort))
	}
	cmd.Env = append(cmd.Env, s.opts.Env...)
	cmd.Stdout = s.opts.Output
	cmd.Stderr = s.opts.Output
	cmd.SysProcAttr = childAttr()
	s.mu.Lock()
	if s.stopped() {
		s.mu.Unlock()
		return nil, nil, errors.New("renderer: stopping")
	}
	if err := cmd.Start(); err != nil {
		s.mu.Unlock()
		return nil, nil, err
	}
	in := &instance{url: &url.URL{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(port))}, pid: cmd.Process.Pid}
	s.slots[i] = in
	s.started++
	s.mu.Unlock()
	s.log.Info("renderer: started", "pid", in.pid, "url", in.url.String(), "dev", s.opts.Dev, "slot", i)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	return in, exited, nil
}

// InheritedEnv lists the only variables of the edge's environment the child
// renderer inherits: what Node itself needs and what the renderer reads.
// Everything else (DATABASE_URL, GOOGLE_CLIENT_SECRET, CACHE_PURGE_TOKEN,
// SMTP_URL, …) stays with the edge: the renderer renders, it holds no secret.
// The supervisor sets PORT, HOST, NODE_ENV and PUBLIC_URL itself; the
// renderer is given no address of the edge: it never calls it (decision 0023).
var InheritedEnv = []string{
	// Node and the system
	"PATH", "HOME", "TMPDIR", "TZ", "LANG", "LC_ALL", "TERM", "NO_COLOR",
	"NODE_OPTIONS", "NODE_EXTRA_CA_CERTS",
	// The renderer's own settings (docs/configuration.md)
	"SUPPORT_EMAIL", "SUPPORT_PHONE", "SCHEDULE_DEMO_URL", "GOOGLE_CLIENT_ID", "GOOGLE_REDIRECT_ONLY", "LOG_LEVEL",
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

// freePort is a loopback port nobody listens on right now.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// terminate asks in's group to stop and waits for the child; Stop
// escalates to SIGKILL when its grace period ends.
func (s *Supervisor) terminate(in *instance, exited <-chan error) {
	_ = syscall.Kill(-in.pid, syscall.SIGTERM)
	<-exited
	// Whatever the child left in its group (a Vite watcher) goes too.
	_ = syscall.Kill(-in.pid, syscall.SIGKILL)
}

// signal sends sig to every running child's process group.
func (s *Supervisor) signal(sig syscall.Signal) {
	for _, pid := range s.PIDs() {
		_ = syscall.Kill(-pid, sig)
	}
}
