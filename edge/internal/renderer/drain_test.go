package renderer_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
)

// The real renderer (ssr/server.js) run on its own, as compose and a
// Kubernetes sidecar run it: on SIGTERM its health answers 503 at once, it
// keeps rendering for DRAIN_PERIOD, on new connections and kept-alive ones
// (their answers saying Connection: close), then exits 0. Before: it closed
// its listener at once.
func TestRealRendererDrains(t *testing.T) {
	dir := edgetest.SSRDir(t)
	port := edgetest.FreePort(t)
	addr := "127.0.0.1:" + strconv.Itoa(port)
	cmd := exec.Command("node", "server.js")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port), "DRAIN_PERIOD=1500ms", "NODE_ENV=production", "LOG_LEVEL=warn",
		"PUBLIC_URL=http://127.0.0.1:"+strconv.Itoa(port))
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		if t.Failed() {
			t.Logf("renderer output:\n%s", out.String())
		}
	})
	health := func() int {
		res, err := http.Get("http://" + addr + "/__renderer/health")
		if err != nil {
			return 0
		}
		res.Body.Close()
		return res.StatusCode
	}
	poll.Until(t, 30*time.Second, func() bool { return health() == http.StatusOK }, "renderer never ready")

	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	page := func() *http.Response {
		t.Helper()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		io.WriteString(c, "GET /features HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.9\r\n\r\n")
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res
	}
	if res := page(); res.StatusCode != http.StatusOK || res.Close {
		t.Fatalf("before SIGTERM: %d close=%v", res.StatusCode, res.Close)
	}

	signalled := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	poll.Until(t, time.Second, func() bool { return health() == http.StatusServiceUnavailable }, "health still not 503 a second after SIGTERM")
	if res := page(); res.StatusCode != http.StatusOK || !res.Close {
		t.Errorf("a kept-alive connection while draining: %d close=%v, want 200 with Connection: close", res.StatusCode, res.Close)
	}
	res, err := http.Get("http://" + addr + "/features")
	if err != nil {
		t.Fatalf("a new connection while draining: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("a new connection while draining: %d", res.StatusCode)
	}
	select {
	case err := <-exited:
		if took := time.Since(signalled); err != nil || took < 1500*time.Millisecond {
			t.Errorf("exited after %s: %v; want exit 0 after DRAIN_PERIOD (1.5 s)", took, err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("still running 15 s after SIGTERM")
	}
}
