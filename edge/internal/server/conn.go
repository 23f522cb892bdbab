package server

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
)

// listener accepts at most max connections at a time (more wait in the
// kernel's accept queue: MAX_CONNECTIONS) and wraps each in conn.
type listener struct {
	net.Listener
	places chan struct{} // one per open connection
	closed chan struct{}
	once   sync.Once
}

func newListener(ln net.Listener, max int) *listener {
	return &listener{Listener: ln, places: make(chan struct{}, max), closed: make(chan struct{})}
}

func (l *listener) Accept() (net.Conn, error) {
	select {
	case l.places <- struct{}{}:
	case <-l.closed:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.places
		return nil, err
	}
	tcp, _ := c.(*net.TCPConn)
	return &conn{Conn: c, tcp: tcp, places: l.places}, nil
}

func (l *listener) Close() error {
	err := l.Listener.Close()
	l.once.Do(func() { close(l.closed) })
	return err
}

// conn is an accepted connection. Besides giving its place back when
// closed, it can send an answer written whole (its Content-Length in one
// Write: a cache hit, a small static file) in one system call; see hold.
//
// net/http writes an answer larger than its 4 KB buffer in two: the buffer
// (the head and the body's first bytes), then the rest of the body. Each
// wakes the visitor's client, and on a busy machine each wake-up can take
// the CPU from the edge before its next write (decision 0015, fifth round).
type conn struct {
	net.Conn
	tcp    *net.TCPConn  // the same socket, for writev; nil when not TCP
	places chan struct{} // the listener's: one is given back on Close
	closed atomic.Bool

	// While held: the writes, in order, as slices of body where they are
	// part of it, else copied into copies.
	held   bool
	body   []byte
	parts  net.Buffers
	copies *[copyRoom]byte
	copied int
}

// copyRoom is the room for held writes that are not part of the body:
// net/http's own buffers (2 and 4 KB), which it reuses once written.
const copyRoom = 8 << 10

var copyPool = sync.Pool{New: func() any { return new([copyRoom]byte) }}

type connKey struct{}

// connContext gives each request's context its connection, when it can
// hold (http.Server's ConnContext).
func connContext(ctx context.Context, c net.Conn) context.Context {
	if cc, ok := c.(*conn); ok && cc.tcp != nil {
		return context.WithValue(ctx, connKey{}, cc)
	}
	return ctx
}

// connOf is the connection of a request's context, or nil.
func connOf(ctx context.Context) *conn {
	c, _ := ctx.Value(connKey{}).(*conn)
	return c
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	if c.closed.CompareAndSwap(false, true) {
		<-c.places
	}
	return err
}

// CloseWrite lets net/http end its side before closing a connection whose
// request body it did not read, as it does on a bare TCP connection.
func (c *conn) CloseWrite() error {
	if c.tcp == nil {
		return nil
	}
	return c.tcp.CloseWrite()
}

// hold keeps the connection's writes back until release, while the handler
// writes body, which stays valid and unchanged until then.
func (c *conn) hold(body []byte) { c.held, c.body = true, body }

func (c *conn) Write(p []byte) (int, error) {
	if !c.held || len(p) == 0 {
		return c.Conn.Write(p)
	}
	if partOf(p, c.body) {
		c.parts = append(c.parts, p)
		return len(p), nil
	}
	if c.copies == nil {
		c.copies = copyPool.Get().(*[copyRoom]byte)
	}
	if c.copied+len(p) > copyRoom {
		// No room: send what is held, and this, as they come.
		if err := c.release(); err != nil {
			return 0, err
		}
		return c.Conn.Write(p)
	}
	n := copy(c.copies[c.copied:], p)
	c.parts = append(c.parts, c.copies[c.copied:c.copied+n])
	c.copied += n
	return n, nil
}

// partOf reports whether p lies in body's array, ending where body ends:
// the slices of body net/http passes on unbuffered.
func partOf(p, body []byte) bool {
	return cap(p) > 0 && cap(body) > 0 && &p[:cap(p)][cap(p)-1] == &body[:cap(body)][cap(body)-1]
}

// release sends what was held, in one writev, and stops holding. A failed
// send closes the connection: net/http took the held writes as done and
// would otherwise read the next request on a connection whose answer was
// cut.
func (c *conn) release() error {
	c.held, c.body = false, nil
	var err error
	if len(c.parts) > 0 {
		parts := c.parts // WriteTo consumes its receiver
		_, err = parts.WriteTo(c.tcp)
		clear(c.parts)
		c.parts = c.parts[:0]
	}
	if c.copies != nil {
		copyPool.Put(c.copies)
		c.copies, c.copied = nil, 0
	}
	if err != nil {
		c.Close()
	}
	return err
}
