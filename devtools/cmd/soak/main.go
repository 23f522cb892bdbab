// Command soak is `make soak`: a bounded load test of password sign-in,
// which once took the edge to gigabytes of memory under concurrent logins
// (docs/decisions/0009-account-verification.md). It starts the built edge on a loopback port with a fresh
// SQLite database, registers one account, then fires -concurrency logins at
// once, over and over, for -duration (wrong passwords and unknown addresses,
// each worker from its own client IP through X-Forwarded-For, which the
// edge believes from loopback: the worst case, a botnet; 198.18.0.0/15,
// the benchmarking range, only named in a header, never contacted). It samples the
// edge's RSS from /proc, and prints the peak RSS, the status counts and the
// latencies. It fails when an answer is not 200/401/429/503, a refusal has
// no errorDetail, or the peak RSS passes -max-rss-mb. It sends traffic only
// to the loopback address it started the edge on, and stops by itself.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	edgeBin := flag.String("edge", "../edge/bin/edge", "the built edge")
	addr := flag.String("addr", "127.0.0.1:18190", "loopback address for the edge")
	rendererPort := flag.Int("renderer-port", 18191, "loopback port for its renderer")
	duration := flag.Duration("duration", 60*time.Second, "how long to fire logins")
	concurrency := flag.Int("concurrency", 200, "logins in flight at once")
	maxRSS := flag.Int("max-rss-mb", 300, "fail when the edge's peak RSS passes this")
	flag.Parse()
	if !strings.HasPrefix(*addr, "127.") && !strings.HasPrefix(*addr, "localhost:") {
		fail("soak: -addr must be a loopback address")
	}
	os.Exit(run(*edgeBin, *addr, *rendererPort, *duration, *concurrency, *maxRSS))
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, msg)
	os.Exit(2)
}

func run(edgeBin, addr string, rendererPort int, duration time.Duration, concurrency, maxRSS int) int {
	dir, err := os.MkdirTemp("", "omnibus-soak-")
	if err != nil {
		fail(err.Error())
	}
	defer os.RemoveAll(dir)
	base := "http://" + addr
	ssrDir, _ := filepath.Abs(filepath.Join(filepath.Dir(edgeBin), "..", "..", "ssr"))
	cmd := exec.Command(edgeBin)
	cmd.Env = append(os.Environ(), "LISTEN_ADDR="+addr, "RENDERER_PORT="+strconv.Itoa(rendererPort),
		"DATA_DIR="+dir, "SSR_DIR="+ssrDir, "PUBLIC_URL="+base, "LOG_LEVEL=error", "DATABASE_URL=", "OMNIBUS_ENV=development")
	cmd.Stdout, cmd.Stderr = io.Discard, os.Stderr
	if err := cmd.Start(); err != nil {
		fail("soak: start the edge: " + err.Error())
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
		}
	}()
	client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: concurrency, MaxConnsPerHost: concurrency}}
	ready := time.Now().Add(90 * time.Second)
	for {
		if r, err := client.Get(base + "/healthz"); err == nil {
			r.Body.Close()
			if r.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(ready) {
			fail("soak: the edge did not answer /healthz within 90 s")
		}
		time.Sleep(200 * time.Millisecond)
	}
	post := func(path, ip string, body any) (int, string, error) {
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", base+path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", ip)
		r, err := client.Do(req)
		if err != nil {
			return 0, "", err
		}
		defer r.Body.Close()
		out, _ := io.ReadAll(r.Body)
		return r.StatusCode, string(out), nil
	}
	if code, body, err := post("/api/v1/oaccount/register", "198.51.100.1", map[string]string{"name": "Soak Test", "email": "soak@example.com", "password": "correct horse battery", "storeName": "soak-test"}); err != nil || code != 201 {
		fail(fmt.Sprintf("soak: register: %d %s %v", code, body, err))
	}
	baseRSS := rssKB(cmd.Process.Pid)

	var peak atomic.Int64
	peak.Store(baseRSS)
	ctx, cancel := context.WithTimeout(context.Background(), duration)
	defer cancel()
	go func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if kb := rssKB(cmd.Process.Pid); kb > peak.Load() {
					peak.Store(kb)
				}
			}
		}
	}()
	var mu sync.Mutex
	counts := map[string]int{}
	var bad []string
	var lat []time.Duration
	var wg sync.WaitGroup
	for w := 0; w < concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ip := fmt.Sprintf("198.18.%d.%d", (w/250)%256, 1+w%250) // benchmark range: not a trusted proxy, never contacted
			for i := 0; ctx.Err() == nil; i++ {
				email := "soak@example.com"
				if i%2 == 1 {
					email = fmt.Sprintf("nobody%d@example.com", w)
				}
				start := time.Now()
				code, body, err := post("/api/v1/oaccount/login", ip, map[string]string{"email": email, "password": "wrong password " + strconv.Itoa(i)})
				d := time.Since(start)
				key := strconv.Itoa(code)
				ok := err == nil && (code == 200 || code == 401 || code == 429 || code == 503)
				if err != nil {
					key = "error"
				}
				if ok && code != 200 {
					var e struct {
						ErrorDetail string `json:"errorDetail"`
					}
					ok = json.Unmarshal([]byte(body), &e) == nil && e.ErrorDetail != ""
				}
				mu.Lock()
				counts[key]++
				lat = append(lat, d)
				if !ok && len(bad) < 5 {
					bad = append(bad, fmt.Sprintf("%s %q %v", key, body, err))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	final := rssKB(cmd.Process.Pid)
	if kb := final; kb > peak.Load() {
		peak.Store(kb)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[int(float64(len(lat)-1)*p)].Round(time.Millisecond)
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Printf("soak: %d concurrent logins for %s against %s (one client IP per worker)\n", concurrency, duration, base)
	fmt.Printf("  RSS: %d MB before, %d MB peak, %d MB at the end (limit %d MB)\n", baseRSS/1024, peak.Load()/1024, final/1024, maxRSS)
	fmt.Printf("  answers: %d, latency p50 %s p99 %s max %s\n", len(lat), pct(0.5), pct(0.99), pct(1))
	for _, k := range keys {
		fmt.Printf("  %s: %d\n", k, counts[k])
	}
	status := 0
	if len(bad) > 0 {
		fmt.Printf("  FAIL: unexpected answers, e.g. %v\n", bad)
		status = 1
	}
	if peak.Load()/1024 > int64(maxRSS) {
		fmt.Printf("  FAIL: peak RSS over %d MB\n", maxRSS)
		status = 1
	}
	return status
}

// rssKB is the resident set of a process (VmRSS in /proc/PID/status), in KiB.
func rssKB(pid int) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.Fields(rest)[0], 10, 64)
			return n
		}
	}
	return 0
}
