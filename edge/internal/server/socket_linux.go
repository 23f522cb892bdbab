package server

import (
	"errors"
	"net"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// stopListening stops a listening socket this process owns alone without
// resetting a connection the kernel has completed: in one go, with no
// scheduling in between, it shrinks the backlog to its minimum, accepts
// every connection already queued (a client may have sent its request on
// one: closing the socket would reset it) and shuts the socket down, so a
// connection that comes later is refused before anything is sent on it.
// It returns the connections it accepted, to be served.
func stopListening(ln net.Listener) ([]net.Conn, error) {
	sc, ok := ln.(syscall.Conn)
	if !ok {
		return nil, errors.New("listener has no socket")
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil, err
	}
	var fds []int
	var serr error
	if err := rc.Control(func(fd uintptr) {
		unix.Listen(int(fd), 0)
		for {
			nfd, _, err := unix.Accept4(int(fd), unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC)
			if err != nil {
				break
			}
			fds = append(fds, nfd)
		}
		serr = unix.Shutdown(int(fd), unix.SHUT_RD)
	}); err != nil {
		return nil, err
	}
	var conns []net.Conn
	for _, fd := range fds {
		f := os.NewFile(uintptr(fd), "accepted")
		c, err := net.FileConn(f)
		f.Close()
		if err == nil {
			conns = append(conns, c)
		}
	}
	return conns, serr
}

// pendingBytes is how many received bytes wait unread in c's socket (0 when
// it cannot tell).
func pendingBytes(c *net.TCPConn) int {
	rc, err := c.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	rc.Control(func(fd uintptr) {
		n, _ = unix.IoctlGetInt(int(fd), unix.SIOCINQ)
	})
	return n
}
