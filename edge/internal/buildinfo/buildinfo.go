// Package buildinfo says which build of the edge is running: the version
// and commit the build was given (-ldflags -X, as deploy/Dockerfile and the
// Makefile set them), else what Go recorded of the module and its VCS
// checkout, else "dev" and "unknown".
package buildinfo

import "runtime/debug"

// Set at link time:
//
//	go build -ldflags "-X omnibus/edge/internal/buildinfo.version=1.2.3 -X omnibus/edge/internal/buildinfo.commit=abc123"
var version, commit string

// Version is the build's version, e.g. "1.2.3" or "dev".
func Version() string { return read().version }

// Commit is the build's VCS revision ("unknown" when nobody said).
func Commit() string { return read().commit }

type info struct{ version, commit string }

func read() info {
	i := info{version: version, commit: commit}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if i.version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			i.version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && i.commit == "" {
				i.commit = s.Value
			}
		}
	}
	if i.version == "" {
		i.version = "dev"
	}
	if i.commit == "" {
		i.commit = "unknown"
	}
	return i
}
