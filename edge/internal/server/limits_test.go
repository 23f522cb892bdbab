package server_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"omnibus/edge/internal/httpx/request"
	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/proxy"
	"omnibus/edge/internal/server"
)

// serve runs a server with opts on loopback until the test ends.
func serve(t *testing.T, opts server.Options) string {
	t.Helper()
	srv := server.New(opts)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	})
	return "http://" + ln.Addr().String()
}

// slowReader connects with a tiny receive window, asks for path and never
// reads the answer.
func slowReader(t *testing.T, addr, path string) net.Conn {
	t.Helper()
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	c, err := d.Dial("tcp", strings.TrimPrefix(addr, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	io.WriteString(c, "GET "+path+" HTTP/1.1\r\nHost: x\r\n\r\n")
	return c
}

// Clients that stop reading hold a connection only until a write has waited
// WriteTimeout, whether the answer is written in parts or whole (sent in one
// system call); with every connection slot taken by them, another visitor is
// answered once they are dropped, instead of waiting forever. A page that
// keeps streaming is not cut, however long it takes in total.
func TestSlowReadersDoNotStarveOthers(t *testing.T) {
	var cut atomic.Int64
	chunk := bytes.Repeat([]byte("x"), 32<<10)
	whole := bytes.Repeat(chunk, 512) // 16 MB
	pages := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big": // 64 MB: far more than the socket buffers hold
			for range 2048 {
				if _, err := w.Write(chunk); err != nil {
					cut.Add(1)
					return
				}
			}
		case "/whole": // 16 MB in one Write, its Content-Length: sent at once (conn.hold)
			w.Header().Set("Content-Length", strconv.Itoa(len(whole)))
			if _, err := w.Write(whole); err != nil {
				cut.Add(1)
			}
		case "/stream": // a slow stream, longer in total than both timeouts
			for i := range 12 {
				if _, err := io.WriteString(w, "part "); err != nil || r.Context().Err() != nil {
					t.Errorf("stream cut after %d parts: %v %v", i, err, r.Context().Err())
					return
				}
				http.NewResponseController(w).Flush()
				time.Sleep(100 * time.Millisecond)
			}
		default:
			io.WriteString(w, "ok")
		}
	})
	url := serve(t, server.Options{Pages: pages, Limits: server.Limits{
		ReadTimeout: 400 * time.Millisecond, WriteTimeout: 400 * time.Millisecond, MaxConns: 2,
	}})

	res, err := http.Get(url + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if strings.Count(string(body), "part") != 12 {
		t.Fatalf("stream: %q", body)
	}

	http.DefaultClient.CloseIdleConnections()
	slowReader(t, url, "/big")
	slowReader(t, url, "/whole")
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{}}
	res, err = client.Get(url + "/other")
	if err != nil {
		t.Fatalf("a visitor behind two slow readers was not answered: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != 200 || cut.Load() < 1 {
		t.Fatalf("status %d, %d slow readers cut", res.StatusCode, cut.Load())
	}
	poll.Until(t, 30*time.Second, func() bool { return cut.Load() >= 2 }, "the second slow reader is still held")
}

// Request headers are bounded: a huge header is refused, not buffered.
func TestMaxHeaderBytes(t *testing.T) {
	url := serve(t, server.Options{Pages: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })})
	req, _ := http.NewRequest(http.MethodGet, url+"/", nil)
	req.Header.Set("X-Big", strings.Repeat("a", 64<<10))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("64 KB header: %d", res.StatusCode)
	}
}

// A peer on a private network is not a proxy unless TRUSTED_PROXIES says so:
// its X-Forwarded-For is ignored (per-IP limits see the peer), and so are
// its X-Forwarded-Proto and -Host.
func TestTrustedProxiesSetting(t *testing.T) {
	type seen struct{ ip, realIP, proto string }
	ask := func(trusted string) seen {
		proxies, err := request.ParseProxies(trusted)
		if err != nil {
			t.Fatal(err)
		}
		var got seen
		var rr recordingRenderer
		target, _ := neturl.Parse(rr.start(t))
		srv := server.New(server.Options{
			TrustedProxies: proxies,
			Pages: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got.ip = request.ClientIP(r)
				proxy.New(proxy.Options{Target: target}).ServeHTTP(w, r)
			}),
		})
		req := httptest.NewRequest(http.MethodGet, "/contact-us", nil)
		req.RemoteAddr = "10.1.2.3:5555"
		req.Header.Set("X-Forwarded-For", "203.0.113.7")
		req.Header.Set("X-Forwarded-Proto", "https")
		srv.ServeHTTP(httptest.NewRecorder(), req)
		got.realIP, got.proto = rr.header("X-Real-IP"), rr.header("X-Forwarded-Proto")
		return got
	}
	if got := ask(""); got != (seen{"10.1.2.3", "10.1.2.3", "http"}) {
		t.Errorf("private peer, nothing configured: %+v", got)
	}
	if got := ask("10.0.0.0/8"); got != (seen{"203.0.113.7", "203.0.113.7", "https"}) {
		t.Errorf("configured proxy network: %+v", got)
	}
}
