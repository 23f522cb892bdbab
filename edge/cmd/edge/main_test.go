package main

import (
	"bytes"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
)

// edgeBinary builds this command once per test binary.
func edgeBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "edge")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// The binary as an operator meets it: production unless told otherwise,
// refusing a development environment with every problem named and no
// secret printed; development starts, saying so loudly.
func TestProductionUnlessToldOtherwise(t *testing.T) {
	bin := edgeBinary(t)
	run := func(env ...string) (int, string) {
		cmd := exec.Command(bin)
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "DATA_DIR=" + t.TempDir()}, env...)
		out, _ := cmd.CombinedOutput()
		return cmd.ProcessState.ExitCode(), string(out)
	}

	// Forgetting PUBLIC_URL (finding 2) no longer runs a development site.
	code, out := run()
	if code != 2 || !strings.Contains(out, "PUBLIC_URL") || !strings.Contains(out, "SMTP_URL") || !strings.Contains(out, "OMNIBUS_ENV=development") {
		t.Errorf("an empty environment: exit %d, want 2 naming PUBLIC_URL and SMTP_URL:\n%s", code, out)
	}

	// Finding 6: a typo'd scheme used to print the password.
	code, out = run("DATABASE_URL=postgres//app:Sup3rSecretPw@host/x", "SMTP_URL=smtp//u:MailPw123@x", "CACHE_PURGE_TOKEN=CHANGE-ME-to-64-random-hex-chars")
	if code != 2 || !strings.Contains(out, "DATABASE_URL=") || !strings.Contains(out, "SMTP_URL=") || !strings.Contains(out, "CACHE_PURGE_TOKEN=") {
		t.Errorf("malformed URLs: exit %d:\n%s", code, out)
	}
	for _, secret := range []string{"Sup3rSecretPw", "MailPw123", "CHANGE-ME-to-64"} {
		if strings.Contains(out, secret) {
			t.Errorf("the error prints %q:\n%s", secret, out)
		}
	}

	// Development: starts, and says so before anything else.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "OMNIBUS_ENV=development", "DATA_DIR=" + t.TempDir(),
		"LISTEN_ADDR=" + addr, "RENDERER_URL=" + edgetest.StubRenderer(t)}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	poll.Until(t, 60*time.Second, func() bool {
		res, err := http.Get("http://" + addr + "/healthz")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	}, "the development edge did not answer /healthz in 60 s")
	cmd.Process.Kill()
	cmd.Wait()
	first, _, _ := strings.Cut(stderr.String(), "\n")
	if !strings.Contains(first, "DEVELOPMENT MODE") || !strings.Contains(first, "Never expose") {
		t.Errorf("the first line is not the development banner: %q", first)
	}
}

// `edge sleep` is the Kubernetes preStop hook (deploy/k8s: the image has no
// shell): it waits the duration given, then exits 0; a duration it cannot
// read exits 2 saying what it wants, instead of skipping the wait.
func TestSleepCommand(t *testing.T) {
	bin := edgeBinary(t)
	began := time.Now()
	out, err := exec.Command(bin, "sleep", "200ms").CombinedOutput()
	if took := time.Since(began); err != nil || took < 200*time.Millisecond {
		t.Errorf("edge sleep 200ms: %v after %s, want exit 0 after at least 200ms:\n%s", err, took, out)
	}
	cmd := exec.Command(bin, "sleep", "x")
	out, _ = cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(string(out), "usage: edge sleep DURATION") {
		t.Errorf("edge sleep x: exit %d, want 2 with the usage:\n%s", code, out)
	}
}
