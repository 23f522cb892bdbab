package server_test

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"omnibus/edge/internal/server"
)

// slotPages answers / with "ok" and /big with 8 MB (more than the socket
// buffers of a client that does not read).
func slotPages() http.Handler {
	big := bytes.Repeat([]byte("x"), 8<<20)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/big" {
			w.Write(big)
			return
		}
		io.WriteString(w, "ok")
	})
}

// dialFrom connects to addr from the loopback address src (Linux routes all
// of 127.0.0.0/8 to lo), optionally with a tiny receive window.
func dialFrom(src, addr string, tinyWindow bool) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 5 * time.Second}
	if tinyWindow {
		d.Control = func(_, _ string, c syscall.RawConn) error {
			return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		}
	}
	return d.Dial("tcp", addr)
}

// flood holds n connections of each kind from src: kept-alive connections
// idle after one answer, slowloris heads that never end, and slow readers
// of /big. Connections the edge refuses are simply lost to the attacker.
type flood struct {
	mu    sync.Mutex
	conns []net.Conn
	stop  chan struct{}
}

func startFlood(t *testing.T, addr string, srcs []string, idle, slowloris, slowReaders int) *flood {
	t.Helper()
	f := &flood{stop: make(chan struct{})}
	t.Cleanup(func() {
		close(f.stop)
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, c := range f.conns {
			c.Close()
		}
	})
	var wg sync.WaitGroup
	n := 0
	// open starts count connections, each from the next source address, and
	// hands each to attack; connections the edge refuses are lost.
	open := func(count int, tinyWindow bool, attack func(c net.Conn)) {
		for range count {
			n++
			s := srcs[n%len(srcs)]
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, err := dialFrom(s, addr, tinyWindow)
				if err != nil {
					return
				}
				f.mu.Lock()
				f.conns = append(f.conns, c)
				f.mu.Unlock()
				attack(c)
			}()
		}
	}
	open(idle, false, func(c net.Conn) {
		c.SetDeadline(time.Now().Add(10 * time.Second))
		io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		c.Read(make([]byte, 4096)) // the answer; then the connection idles
	})
	open(slowloris, false, func(c net.Conn) {
		io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n")
		go func() {
			for {
				select {
				case <-f.stop:
					return
				case <-time.After(500 * time.Millisecond):
				}
				if _, err := io.WriteString(c, "X-A: b\r\n"); err != nil {
					return
				}
			}
		}()
	})
	open(slowReaders, true, func(c net.Conn) {
		io.WriteString(c, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
	})
	wg.Wait()
	return f
}

// fresh asks for / from src on a new connection, within a second.
func fresh(t *testing.T, addr, src string, within time.Duration) (time.Duration, error) {
	t.Helper()
	began := time.Now()
	c, err := dialFrom(src, addr, false)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	c.SetDeadline(began.Add(within))
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"); err != nil {
		return 0, err
	}
	b, err := io.ReadAll(c)
	if err != nil {
		return time.Since(began), err
	}
	if !strings.HasPrefix(string(b), "HTTP/1.1 200") || !strings.HasSuffix(string(b), "ok") {
		return time.Since(began), io.ErrUnexpectedEOF
	}
	return time.Since(began), nil
}

// freshVisitors: a visitor from 127.0.0.2 asks for / ten times during the
// flood; each must be answered within the given time.
func freshVisitors(t *testing.T, addr string, within time.Duration) {
	t.Helper()
	for i := range 10 {
		took, err := fresh(t, addr, "127.0.0.2", within)
		if err != nil {
			t.Fatalf("fresh visitor %d: %v after %s, want / within %s", i+1, err, took.Round(time.Millisecond), within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// One address (127.0.0.3, not a trusted proxy) opens 300 kept-alive idle
// connections, 300 slowloris heads and 300 slow readers against
// MAX_CONNECTIONS=256: it holds at most its per-client share, and a fresh
// visitor from another address is answered within a second, every time.
// Before: the idle connections alone held every slot for the idle timeout
// (120 s) and the visitor waited.
func TestOneClientCannotTakeEverySlot(t *testing.T) {
	url := serve(t, server.Options{Pages: slotPages(), Limits: server.Limits{MaxConns: 256}})
	addr := strings.TrimPrefix(url, "http://")
	startFlood(t, addr, []string{"127.0.0.3"}, 300, 300, 300)
	freshVisitors(t, addr, time.Second)
}

// The same flood spread over 30 addresses, each under its per-client cap,
// takes every slot; kept-alive idle connections and heads not sent within
// a second are given up, oldest first, for the fresh visitor. (The slow
// readers, 100 here, keep theirs until the write deadline.) A head is given
// up once it is a second old, so a visitor who arrives just after the flood
// has taken every slot may wait for that second: the bound here is 2.5 s
// (1 s of grace for heads plus scheduling on a busy machine); the issue's
// one-address flood above keeps its 1 s bound.
func TestIdleConnectionsGiveWayWhenSlotsRunShort(t *testing.T) {
	url := serve(t, server.Options{Pages: slotPages(), Limits: server.Limits{MaxConns: 256}})
	addr := strings.TrimPrefix(url, "http://")
	var srcs []string
	for i := range 30 {
		srcs = append(srcs, "127.0.1."+strconv.Itoa(i+1))
	}
	startFlood(t, addr, srcs, 300, 300, 100)
	freshVisitors(t, addr, 2500*time.Millisecond)
}

// A trusted proxy's connections are not capped: every visitor behind it
// shares its address.
func TestTrustedProxyIsNotCapped(t *testing.T) {
	url := serve(t, server.Options{Pages: slotPages(), Limits: server.Limits{MaxConns: 64, MaxConnsPerClient: 4}})
	addr := strings.TrimPrefix(url, "http://")
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range 10 {
		c, err := dialFrom("127.0.0.1", addr, false)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		c.SetDeadline(time.Now().Add(5 * time.Second))
		io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		if n, err := c.Read(make([]byte, 4096)); err != nil || n == 0 {
			t.Fatalf("connection %d from loopback (a trusted proxy): %v", i+1, err)
		}
	}
	// An untrusted address gets its 4, and no fifth.
	var refused int
	for range 5 {
		c, err := dialFrom("127.0.0.4", addr, false)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		c.SetDeadline(time.Now().Add(5 * time.Second))
		io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		if _, err := c.Read(make([]byte, 4096)); err != nil {
			refused++
		}
	}
	if refused != 1 {
		t.Errorf("%d of 5 connections from one address refused with a cap of 4, want 1", refused)
	}
}
