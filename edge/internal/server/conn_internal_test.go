package server

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/poll"
)

// pair is a connection accepted by a listener with room for one, and its
// peer, on loopback.
func pair(t *testing.T) (*conn, net.Conn, *listener) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := newListener(ln, 1, 0, nil)
	peer, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(); peer.Close(); l.Close() })
	return c.(*conn), peer, l
}

// While held, writes arrive in order and as they were at the time of the
// write: what is not part of the body is copied (net/http reuses its
// buffers), and past the room for copies the writes go out as they come.
func TestHeldWritesArriveInOrderAsWritten(t *testing.T) {
	body := bytes.Repeat([]byte("b"), 20000)
	for _, tc := range []struct {
		name   string
		writes int // buffer-sized writes before the body's tail
	}{{"one buffer", 1}, {"two buffers", 2}, {"more than the room for copies", 5}} {
		t.Run(tc.name, func(t *testing.T) {
			c, peer, _ := pair(t)
			var want bytes.Buffer
			buf := make([]byte, 4096) // net/http's buffer: reused after each write
			c.hold(body)
			for i := range tc.writes {
				for j := range buf {
					buf[j] = byte('0' + i)
				}
				if n, err := c.Write(buf); n != len(buf) || err != nil {
					t.Fatalf("write %d: %d, %v", i, n, err)
				}
				want.Write(buf)
			}
			clear(buf)
			if _, err := c.Write(body[100:]); err != nil {
				t.Fatal(err)
			}
			want.Write(body[100:])
			if err := c.release(); err != nil {
				t.Fatal(err)
			}
			if c.held || len(c.parts) != 0 || c.copies != nil {
				t.Fatal("still holding after release")
			}
			got := make([]byte, want.Len())
			if _, err := io.ReadFull(peer, got); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Fatal("the held writes arrived changed or out of order")
			}
		})
	}
}

// A held answer that cannot be sent closes the connection, so net/http,
// which took the writes as done, does not read another request on it, and
// gives its place under MaxConns back.
func TestFailedReleaseClosesTheConnection(t *testing.T) {
	c, peer, l := pair(t)
	peer.Close()
	body := bytes.Repeat([]byte("b"), 8<<20) // more than the socket buffers take
	var err error
	for range 3 { // the peer's reset may take a send to arrive
		c.hold(body)
		c.Write(body)
		if err = c.release(); err != nil {
			break
		}
	}
	if err == nil {
		t.Fatal("sending to a closed peer did not fail")
	}
	if _, err := c.Conn.Read(make([]byte, 1)); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("the connection is still open after a failed send: %v", err)
	}
	next, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer next.Close()
	accepted := make(chan error, 1)
	go func() { // Accept waits while the one place is taken
		c, err := l.Accept()
		if err == nil {
			c.Close()
		}
		accepted <- err
	}()
	select {
	case err := <-accepted:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the failed connection's place was not given back")
	}
}

// Closing a connection between requests (as http.Server.Shutdown closes idle
// ones, and the sweep under pressure) must not lose a request that has
// already reached it: the close waits for that request's answer, which
// says Connection: close. One with nothing arriving closes at once.
func TestClosingAnIdleConnectionKeepsARequestThatArrived(t *testing.T) {
	c, peer, _ := pair(t)
	connState(c, http.StateIdle)
	if _, err := io.WriteString(peer, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 5*time.Second, func() bool { return pendingBytes(c.tcp) > 0 }, "the request never reached the socket")
	c.Close()
	if !c.closeAfter.Load() {
		t.Error("the close was not put off until the answer")
	}
	got := make([]byte, len("GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
	if _, err := io.ReadFull(c, got); err != nil || !strings.HasPrefix(string(got), "GET") {
		t.Fatalf("the request was lost with the connection: %q %v", got, err)
	}
	// net/http reads the head on: the connection still counts as idle.
	c.Close()
	if c.closed.Load() {
		t.Fatal("closed while the request head was being read")
	}
	connState(c, http.StateActive)
	io.WriteString(c, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
	c.Close()
	peer.SetReadDeadline(time.Now().Add(5 * time.Second))
	if b, err := io.ReadAll(peer); err != nil || !strings.Contains(string(b), "200 OK") {
		t.Fatalf("answer %q %v, want it whole then EOF", b, err)
	}

	idle, peer2, _ := pair(t)
	connState(idle, http.StateIdle)
	idle.Close()
	peer2.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := peer2.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("an idle connection with nothing arriving: read %d %v, want EOF at once", n, err)
	}
}

// Stopping on a socket of its own: what is in the accept queue is accepted
// (it may carry a request already: closing the socket would reset it),
// and a connection that comes later is refused, before anything is sent.
func TestQuiesceAcceptsTheQueueAndHoldsBackNewConnections(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Linux only")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := newListener(ln, 16, 0, nil)
	defer l.Close()
	queued, err := net.Dial("tcp", ln.Addr().String()) // completed by the kernel, not yet accepted
	if err != nil {
		t.Fatal(err)
	}
	defer queued.Close()
	io.WriteString(queued, "GET / HTTP/1.1\r\n\r\n")
	accepted := make(chan net.Conn, 4)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// The accept loop is between accepts, as it may be at any moment.
	if err := l.quiesce(ctx, false); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-accepted:
		defer c.Close()
	case <-time.After(5 * time.Second):
		t.Fatal("the queued connection was not accepted")
	}
	if _, err := net.DialTimeout("tcp", ln.Addr().String(), 2*time.Second); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("a connection after quiesce: %v, want refused", err)
	}
	l.Close()
	if _, ok := <-accepted; ok {
		t.Error("Accept returned a connection after quiesce")
	}
}
