package edgetest

import (
	"net"
	"net/url"
	"sync"
	"testing"
)

// CutProxy forwards TCP connections to a server (PostgreSQL) and plays the
// network failing between the edge and it, without touching the shared
// server itself:
//
//   - Cut: the server went away. Every connection carried is closed and new
//     ones are closed as soon as they are accepted (as a refused connection
//     or a reset would be noticed).
//   - Blackhole: a partition that drops packets silently. Connections
//     carried stop carrying anything, new ones are accepted and held; nothing
//     is forwarded and nothing is answered, so a client waits until its own
//     timeout.
//   - Restore: the network is back. What was held is closed (the bytes it
//     lost cannot be replayed) and new connections are forwarded again.
type CutProxy struct {
	// Addr is the proxy's host:port.
	Addr string

	ln    net.Listener
	to    string
	mu    sync.Mutex
	conns map[net.Conn]bool
	mode  mode
}

type mode int

const (
	forwarding mode = iota
	cut
	blackholed
	closed
)

// NewCutProxy starts a proxy to the server at to (host:port); it stops when
// the test ends.
func NewCutProxy(t testing.TB, to string) *CutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &CutProxy{Addr: ln.Addr().String(), ln: ln, to: to, conns: map[net.Conn]bool{}}
	go p.serve()
	t.Cleanup(p.close)
	return p
}

// CutPostgres starts a proxy to the PostgreSQL server of rawURL (a
// postgres:// URL) and returns it with rawURL going through it.
func CutPostgres(t testing.TB, rawURL string) (*CutProxy, string) {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	p := NewCutProxy(t, u.Host)
	return p, p.Via(t, rawURL)
}

// Via is rawURL (a postgres:// URL) with its host:port replaced by the proxy's.
func (p *CutProxy) Via(t testing.TB, rawURL string) string {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = p.Addr
	return u.String()
}

func (p *CutProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.pipe(c)
	}
}

func (p *CutProxy) pipe(c net.Conn) {
	p.mu.Lock()
	m := p.mode
	if m == blackholed {
		p.conns[c] = true // held, read and dropped until Restore or Cut
	}
	p.mu.Unlock()
	switch m {
	case cut, closed:
		c.Close()
		return
	case blackholed:
		p.copy(nil, c)
		c.Close()
		p.untrack(c)
		return
	}
	up, err := net.Dial("tcp", p.to)
	if err != nil {
		c.Close()
		return
	}
	if !p.track(c, up) {
		return
	}
	done := make(chan struct{}, 2)
	go func() { p.copy(up, c); done <- struct{}{} }()
	go func() { p.copy(c, up); done <- struct{}{} }()
	<-done
	c.Close()
	up.Close()
	p.untrack(c, up)
}

// copy forwards src to dst until either fails; while blackholed what is
// read is dropped (dst nil: always).
func (p *CutProxy) copy(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && dst != nil {
			p.mu.Lock()
			drop := p.mode == blackholed
			p.mu.Unlock()
			if !drop {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					return
				}
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *CutProxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode != forwarding {
		for _, c := range cs {
			c.Close()
		}
		return false
	}
	for _, c := range cs {
		p.conns[c] = true
	}
	return true
}

func (p *CutProxy) untrack(cs ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range cs {
		delete(p.conns, c)
	}
}

// set changes the mode, closing every connection carried or held when
// closeAll.
func (p *CutProxy) set(m mode, closeAll bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode == closed {
		return
	}
	p.mode = m
	if closeAll {
		for c := range p.conns {
			c.Close()
		}
		clear(p.conns)
	}
}

// Cut closes every connection carried and refuses new ones until Restore.
func (p *CutProxy) Cut() { p.set(cut, true) }

// Blackhole stops carrying anything: connections stay open, what is sent on
// them is dropped, new ones are accepted and never answered, until Restore.
func (p *CutProxy) Blackhole() { p.set(blackholed, false) }

// Restore forwards new connections again; those held or cut short while
// blackholed are closed.
func (p *CutProxy) Restore() { p.set(forwarding, true) }

func (p *CutProxy) close() {
	p.set(closed, true)
	p.ln.Close()
}
