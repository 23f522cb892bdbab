package edgetest

import (
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
)

// CutProxy forwards TCP connections to a server (PostgreSQL) until Cut: then
// it closes every connection it carries and refuses new ones, as a network
// partition or a database that went away would, without touching the shared
// server itself.
type CutProxy struct {
	// Addr is the proxy's host:port.
	Addr string

	ln    net.Listener
	to    string
	mu    sync.Mutex
	conns map[net.Conn]bool
	cut   bool
}

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
	t.Cleanup(p.Cut)
	return p
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
	up, err := net.Dial("tcp", p.to)
	if err != nil {
		c.Close()
		return
	}
	if !p.track(c, up) {
		return
	}
	done := make(chan struct{}, 2)
	go func() { io.Copy(up, c); done <- struct{}{} }()
	go func() { io.Copy(c, up); done <- struct{}{} }()
	<-done
	c.Close()
	up.Close()
}

func (p *CutProxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cut {
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

// Cut closes the listener and every connection carried; the database is
// unreachable from then on.
func (p *CutProxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cut {
		return
	}
	p.cut = true
	p.ln.Close()
	for c := range p.conns {
		c.Close()
	}
}
