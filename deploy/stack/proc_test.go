package stack

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// repoRoot is the repository, two folders up from this module.
var repoRoot, _ = filepath.Abs(filepath.Join("..", ".."))

// proc is a process a test started, with its output kept for failures.
type proc struct {
	name string
	cmd  *exec.Cmd
	out  *syncBuffer
	done chan struct{}
}

// (edge/internal/logging/logtest.Buffer is the edge's; this module tests the
// built images and imports none of the edge's internal packages.)
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// start runs argv in dir with exactly env, stopped (SIGTERM, then SIGKILL)
// when the test ends.
func start(t *testing.T, name, dir string, env, argv []string) *proc {
	t.Helper()
	p := &proc{name: name, out: &syncBuffer{}, done: make(chan struct{})}
	p.cmd = exec.Command(argv[0], argv[1:]...)
	p.cmd.Dir = dir
	p.cmd.Env = env
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	go func() { p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { p.stop() })
	return p
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

func (p *proc) stop() {
	if p.exited() {
		return
	}
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(20 * time.Second):
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
	}
}

// waitHTTP polls url until it answers 200, failing the test with the
// process's output if p exits first or within timeout.
func waitHTTP(t *testing.T, p *proc, url string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var last string
	for time.Now().Before(deadline) {
		if p != nil && p.exited() {
			t.Fatalf("%s exited before %s answered:\n%s", p.name, url, p.out.String())
		}
		res, err := http.Get(url)
		if err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
			last = res.Status
		} else {
			last = err.Error()
		}
		time.Sleep(100 * time.Millisecond)
	}
	out := ""
	if p != nil {
		out = p.out.String()
	}
	t.Fatalf("%s did not answer 200 within %s (last: %s):\n%s", url, timeout, last, out)
}

// get fetches url with the given request headers.
func get(t *testing.T, method, url string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// requireTool returns the path of a Debian package's program, or fails the
// test saying how to install it (make test installs it when root).
func requireTool(t *testing.T, name, pkg string, paths ...string) string {
	t.Helper()
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	t.Fatalf("%s is missing: install Debian's %s (make test does so when run as root: make %s)", name, pkg, pkg)
	return ""
}

// buildEdge builds the edge once for these tests, in a folder TestMain
// removes.
var (
	edgeOnce sync.Once
	edgeDir  string
	edgeBin  string
	edgeErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if edgeDir != "" {
		os.RemoveAll(edgeDir)
	}
	os.Exit(code)
}

func buildEdge(t *testing.T) string {
	t.Helper()
	edgeOnce.Do(func() {
		var err error
		if edgeDir, err = os.MkdirTemp("", "omnibus-stack-edge-"); err != nil {
			edgeErr = err
			return
		}
		edgeBin = filepath.Join(edgeDir, "edge")
		cmd := exec.Command("go", "build", "-o", edgeBin, "./cmd/edge")
		cmd.Dir = filepath.Join(repoRoot, "edge")
		if out, err := cmd.CombinedOutput(); err != nil {
			edgeErr = errors.New(string(out))
		}
	})
	if edgeErr != nil {
		t.Fatalf("building the edge: %v", edgeErr)
	}
	return edgeBin
}

// hostEnv is the few variables a process needs from this machine.
func hostEnv(extra ...string) []string {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	return append(env, extra...)
}

func fmtPort(p int) string { return fmt.Sprint(p) }

// requireBuild fails unless make build has produced the renderer's build.
func requireBuild(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(repoRoot, "ssr", "build", "server", "index.js")); err != nil {
		t.Fatal("ssr/build is missing: run make build first (make test does)")
	}
}
