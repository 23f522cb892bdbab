package server_test

import (
	"net"
	"testing"

	"golang.org/x/sys/unix"
)

// canCountSegments: Linux reports a socket's received segments (TCP_INFO).
const canCountSegments = true

// dataSegments is how many TCP segments with data c has received.
func dataSegments(t *testing.T, c *net.TCPConn) uint32 {
	t.Helper()
	raw, err := c.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var info *unix.TCPInfo
	if err := raw.Control(func(fd uintptr) {
		info, err = unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO)
	}); err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return info.Data_segs_in
}
