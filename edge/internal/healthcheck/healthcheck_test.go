package healthcheck

import (
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// edge answers /healthz 200 and /readyz with readyStatus, like the edge's
// server package does when a check fails.
func edge(t *testing.T, readyStatus int) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"status":"ok"}`)) })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(readyStatus)
		w.Write([]byte(`{"status":"unavailable","failing":["renderer"]}`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().String()
}

func run(args []string, addr string) (int, string) {
	var out, errOut bytes.Buffer
	code := Run(args, addr, &out, &errOut)
	return code, out.String() + errOut.String()
}

func TestHealthyEdgeExitsZero(t *testing.T) {
	addr := edge(t, http.StatusOK)
	_, port, _ := net.SplitHostPort(addr)
	// LISTEN_ADDR ":port" as in the images: the probe finds it on loopback.
	if code, out := run(nil, ":"+port); code != 0 {
		t.Fatalf("healthy edge: exit %d: %s", code, out)
	}
	if code, out := run([]string{"--ready"}, addr); code != 0 {
		t.Fatalf("ready edge: exit %d: %s", code, out)
	}
}

func TestNotReadyEdgeExitsOne(t *testing.T) {
	addr := edge(t, http.StatusServiceUnavailable)
	if code, out := run(nil, addr); code != 0 {
		t.Fatalf("/healthz still answers 200: exit %d: %s", code, out)
	}
	code, out := run([]string{"--ready"}, addr)
	if code != 1 || !strings.Contains(out, "503") || !strings.Contains(out, "renderer") {
		t.Fatalf("not ready: exit %d, want 1 naming the 503 and the failing check: %s", code, out)
	}
}

func TestNoEdgeExitsOne(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	if code, out := run(nil, addr); code != 1 {
		t.Fatalf("no edge: exit %d, want 1: %s", code, out)
	}
}

func TestHungEdgeTimesOut(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	start := time.Now()
	if code, out := run([]string{"--timeout", "200ms"}, srv.Listener.Addr().String()); code != 1 {
		t.Fatalf("hung edge: exit %d, want 1: %s", code, out)
	}
	if waited := time.Since(start); waited > 20*time.Second {
		t.Fatalf("the probe waited %s despite --timeout 200ms", waited)
	}
}

func TestBadArgumentsExitTwo(t *testing.T) {
	if code, _ := run([]string{"--nope"}, ":8080"); code != 2 {
		t.Fatalf("unknown flag: exit %d, want 2", code)
	}
}

func TestLocalURL(t *testing.T) {
	for addr, want := range map[string]string{
		":8080":          "http://127.0.0.1:8080",
		"0.0.0.0:8080":   "http://127.0.0.1:8080",
		"[::]:8080":      "http://127.0.0.1:8080",
		"127.0.0.1:8121": "http://127.0.0.1:8121",
		"[::1]:9000":     "http://[::1]:9000",
	} {
		if got := LocalURL(addr); got != want {
			t.Errorf("LocalURL(%q) = %q, want %q", addr, got, want)
		}
	}
}
