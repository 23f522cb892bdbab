package renderer

import "syscall"

// childAttr puts the renderer in its own process group (so a stop reaches
// its workers too) and has Linux send it SIGTERM when the edge dies.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
