package server

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// listener accepts at most max connections at a time (MAX_CONNECTIONS) and
// wraps each in conn. Two rules keep one client from taking every slot:
//
//   - a direct peer holds at most perClient connections at once
//     (MAX_CONNECTIONS_PER_CLIENT); the next is closed as soon as it is
//     accepted, as HAProxy's per-source connection limit rejects it. Trusted
//     proxies (TRUSTED_PROXIES, 127.0.0.1, ::1) are exempt: behind one every
//     visitor shares its address.
//   - when every slot is taken, connections that hold a slot without a
//     request in progress are given up, oldest first, to admit the new one:
//     kept-alive connections between requests, and connections that have not
//     sent a whole request head for newGrace (nginx reuses its "reusable"
//     connections the same way when worker_connections run out). Any such
//     connection idle for more than pressureIdle goes in the same sweep: a
//     shorter idle timeout, under pressure only.
//
// Slow readers are cut at the write deadline (answerWriter), slow senders at
// the read deadlines; more connections than the slots wait in the kernel's
// accept queue.
type listener struct {
	net.Listener
	places chan struct{} // one per open connection
	closed chan struct{}
	once   sync.Once

	perClient int
	exempt    func(netip.Addr) bool
	start     time.Time // conn.since counts from here (monotonic)

	mu      sync.Mutex
	conns   map[*conn]struct{}
	clients map[netip.Addr]int // open connections of capped peers

	// Stopping (quiesce): once quiet, Accept hands out the connections
	// stopListening took from the kernel's queue (left), then waits for
	// Close.
	quiet    atomic.Bool
	stopping atomic.Bool // Server.Shutdown closed it
	left     chan net.Conn
	gone     chan struct{} // signalled when a connection closes
}

// Under pressure (every slot taken).
const (
	// newGrace is how long a connection may take to send its first request
	// head before it counts as idle.
	newGrace = time.Second
	// pressureIdle: idle connections older than this all go.
	pressureIdle = 5 * time.Second
	// maxSweep bounds the connections one sweep closes.
	maxSweep = 64
	// sweepEvery: while every slot holds a request in progress, look again.
	sweepEvery = 50 * time.Millisecond
)

func newListener(ln net.Listener, max, perClient int, exempt func(netip.Addr) bool) *listener {
	if exempt == nil {
		exempt = func(netip.Addr) bool { return false }
	}
	return &listener{
		Listener: ln, places: make(chan struct{}, max), closed: make(chan struct{}),
		perClient: perClient, exempt: exempt, start: time.Now(),
		conns: map[*conn]struct{}{}, clients: map[netip.Addr]int{},
		left: make(chan net.Conn, 64), gone: make(chan struct{}, 1),
	}
}

func (l *listener) Accept() (net.Conn, error) {
	for {
		if err := l.place(); err != nil {
			return nil, err
		}
		c, err := l.Listener.Accept()
		if err != nil && l.quiet.Load() {
			c, err = l.leftover()
		}
		if err != nil {
			<-l.places
			return nil, err
		}
		tcp, _ := c.(*net.TCPConn)
		cc := &conn{Conn: c, tcp: tcp, l: l}
		cc.since.Store(l.now())
		if !l.admit(cc) {
			c.Close()
			<-l.places
			continue
		}
		return cc, nil
	}
}

// now is the monotonic time since the listener started, in nanoseconds.
func (l *listener) now() int64 { return int64(time.Since(l.start)) }

// place waits for a free slot, giving up idle connections while none is.
func (l *listener) place() error {
	select {
	case l.places <- struct{}{}:
		return nil
	case <-l.closed:
		return net.ErrClosed
	default:
	}
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case l.places <- struct{}{}:
			return nil
		case <-l.closed:
			return net.ErrClosed
		case <-t.C:
			l.sweep()
			t.Reset(sweepEvery)
		}
	}
}

// admit counts c against its peer's cap; false when the peer is at it.
func (l *listener) admit(c *conn) bool {
	var peer netip.Addr
	if l.perClient > 0 {
		if ap, err := netip.ParseAddrPort(c.RemoteAddr().String()); err == nil && !l.exempt(ap.Addr().Unmap()) {
			peer = ap.Addr().Unmap()
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if peer.IsValid() {
		if l.clients[peer] >= l.perClient {
			return false
		}
		l.clients[peer]++
		c.peer = peer
	}
	l.conns[c] = struct{}{}
	return true
}

// forget undoes admit when c closes.
func (l *listener) forget(c *conn) {
	l.mu.Lock()
	delete(l.conns, c)
	if c.peer.IsValid() {
		if n := l.clients[c.peer] - 1; n > 0 {
			l.clients[c.peer] = n
		} else {
			delete(l.clients, c.peer)
		}
	}
	l.mu.Unlock()
	select {
	case l.gone <- struct{}{}:
	default:
	}
}

// leftover is the next connection stopListening took from the queue, or
// net.ErrClosed once the listener is closed.
func (l *listener) leftover() (net.Conn, error) {
	select {
	case c := <-l.left:
		return c, nil
	default:
	}
	select {
	case c := <-l.left:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *listener) setDeadline(t time.Time) {
	if d, ok := l.Listener.(interface{ SetDeadline(time.Time) error }); ok {
		d.SetDeadline(t)
	}
}

// quiesce stops accepting before the listener closes. On a socket this
// process owns alone, stopListening takes every connection the kernel has
// completed (each is served) and shuts the socket, so a connection that
// comes later is refused before its request is sent, instead of being
// reset after it, as closing a socket with a queue does. It returns once
// those connections are handed to the server (or ctx ends). A shared socket
// (inherited, or held by systemd) keeps its queue for the process that
// takes over: there quiesce does nothing, and Close only closes this
// process's descriptor.
func (l *listener) quiesce(ctx context.Context, shared bool) error {
	if shared {
		return nil
	}
	l.quiet.Store(true)
	conns, err := stopListening(l.Listener)
	for _, c := range conns {
		select {
		case l.left <- c:
		default:
			c.Close() // more than the room: cannot happen with a backlog of one
		}
	}
	l.setDeadline(time.Now()) // wake a waiting Accept, which then serves them
	for len(l.left) > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
	return err
}

// open is the number of connections not closed yet.
func (l *listener) open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns)
}

// wait returns once every accepted connection is closed, or ctx ends.
func (l *listener) wait(ctx context.Context) error {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for l.open() > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-l.gone:
		case <-t.C:
		}
	}
	return nil
}

// closeAll closes every connection, whatever it is doing (the shutdown
// timeout has passed).
func (l *listener) closeAll() {
	l.mu.Lock()
	cs := make([]*conn, 0, len(l.conns))
	for c := range l.conns {
		cs = append(cs, c)
	}
	l.mu.Unlock()
	for _, c := range cs {
		c.close()
	}
}

// sweep closes the oldest idle connection, and every one idle for more than
// pressureIdle (up to maxSweep), to make room.
func (l *listener) sweep() {
	now := l.now()
	var oldest *conn
	var oldestSince int64
	var stale []*conn
	l.mu.Lock()
	for c := range l.conns {
		since := c.since.Load()
		switch http.ConnState(c.state.Load()) {
		case http.StateIdle:
		case http.StateNew:
			if now-since < int64(newGrace) {
				continue
			}
		default:
			continue
		}
		if now-since > int64(pressureIdle) && len(stale) < maxSweep {
			stale = append(stale, c)
		} else if oldest == nil || since < oldestSince {
			oldest, oldestSince = c, since
		}
	}
	l.mu.Unlock()
	if oldest != nil && len(stale) == 0 {
		stale = append(stale, oldest)
	}
	for _, c := range stale {
		c.Close()
	}
}

func (l *listener) Close() error {
	err := l.Listener.Close()
	l.once.Do(func() { close(l.closed) })
	return err
}

// connState is http.Server's ConnState hook: it keeps each connection's
// state, and when it went idle, for sweep. Two atomic stores per request
// and one monotonic clock read.
func connState(c net.Conn, st http.ConnState) {
	if cc, ok := c.(*conn); ok {
		if st == http.StateIdle {
			cc.since.Store(cc.l.now())
			cc.idleReads.Store(cc.reads.Load())
		}
		cc.state.Store(int32(st))
		if st == http.StateIdle && cc.closeAfter.Load() {
			cc.Close() // a close put off until this answer, which kept the connection
		}
	}
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
	tcp    *net.TCPConn // the same socket, for writev; nil when not TCP
	l      *listener    // gets the connection's place back on Close
	closed atomic.Bool
	peer   netip.Addr   // counted against its cap; zero when exempt
	state  atomic.Int32 // http.ConnState (connState)
	since  atomic.Int64 // l.now() when accepted or last idle

	// For a safe close of an idle connection (Close): reads counts the
	// reads that returned bytes, idleReads its value when the connection
	// last went idle; readFailed is set when the last Read failed.
	// closeAfter: a close was put off until this answer, which says
	// Connection: close.
	reads, idleReads       atomic.Int64
	readFailed, closeAfter atomic.Bool

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

// Read counts the reads that bring bytes (see Close).
func (c *conn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.reads.Add(1)
	}
	c.readFailed.Store(err != nil && n == 0)
	return n, err
}

// Close closes the connection, unless it is between requests and the next
// request has begun to arrive: bytes of it are waiting in the socket, or
// net/http has read them and is still reading the head (the connection
// counts as idle until the head is whole). Closing it then would lose a
// request the client has sent (a proxy with retries off answers 502), so
// the close is put off: the request is answered, with Connection: close,
// and net/http closes the connection after it. This is what makes
// http.Server.Shutdown's closing of idle connections, and the sweep under
// pressure, safe. What is still on the wire when the close happens is the
// client's to retry: a request sent after the FIN it had not yet read.
func (c *conn) Close() error {
	if c.requestComing() {
		c.closeAfter.Store(true)
		return nil
	}
	return c.close()
}

// requestComing: see Close. The serving goroutine's own close (its last
// read failed, or the connection is not idle) is never put off.
func (c *conn) requestComing() bool {
	// Only between requests: a connection that never sent a whole head
	// (StateNew) is one the sweep may cut (it holds a slot without a
	// request), and Shutdown closes such a one only after 5 s.
	if http.ConnState(c.state.Load()) != http.StateIdle {
		return false
	}
	if c.closed.Load() || c.readFailed.Load() {
		return false
	}
	if c.reads.Load() != c.idleReads.Load() {
		return true // read, and being parsed
	}
	return c.tcp != nil && pendingBytes(c.tcp) > 0
}

func (c *conn) close() error {
	err := c.Conn.Close()
	if c.closed.CompareAndSwap(false, true) {
		c.l.forget(c)
		<-c.l.places
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
		c.close()
	}
	return err
}
