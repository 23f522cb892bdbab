package server

import (
	"bytes"
	"errors"
	"io"
	"net"
	"testing"
	"time"
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
