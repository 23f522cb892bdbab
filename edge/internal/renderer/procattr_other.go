//go:build unix && !linux

package renderer

import "syscall"

// childAttr puts the renderer in its own process group (so a stop reaches
// its workers too). Only Linux can also signal it when the edge dies.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
