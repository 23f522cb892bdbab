// Package stripemock starts Stripe's own API mock (github.com/stripe/stripe-mock)
// for tests: installed into the project's edge/bin by `go install` when it is
// missing (as `make stripe-mock` does), started on a free loopback port,
// stopped when the test ends. When it cannot be installed the test is skipped
// with the reason, except under CI=true, where that is a failure.
package stripemock

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// Module is the pinned stripe-mock (the Makefile's stripe-mock target installs the same).
const Module = "github.com/stripe/stripe-mock@v0.203.0"

var installOnce sync.Once
var installErr error

// Binary is edge/bin/stripe-mock, installed on first use.
func Binary(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	edgeDir := filepath.Join(filepath.Dir(file), "..", "..", "..", "..")
	bin := filepath.Join(edgeDir, "bin", "stripe-mock")
	installOnce.Do(func() {
		if _, err := os.Stat(bin); err == nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", "install", Module)
		cmd.Dir = edgeDir
		cmd.Env = append(os.Environ(), "GOBIN="+filepath.Join(edgeDir, "bin"))
		if out, err := cmd.CombinedOutput(); err != nil {
			installErr = fmt.Errorf("go install %s: %v\n%s", Module, err, out)
		}
	})
	if installErr != nil {
		msg := "stripe-mock could not be installed locally (run `make stripe-mock`): " + installErr.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return bin
}

// Start runs stripe-mock on a free loopback port and returns its URL.
func Start(t testing.TB) string {
	t.Helper()
	bin := Binary(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin, "-http-addr", addr)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return "http://" + addr
		}
		select {
		case <-done:
			t.Fatalf("stripe-mock exited before listening on %s", addr)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("stripe-mock did not listen on %s within a minute", addr)
		}
	}
}
