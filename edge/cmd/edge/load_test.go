package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"omnibus/edge/internal/poll"
)

// rollUnderLoad keeps GETs of four pages (three workers) and newsletter
// POSTs (one worker, each from its own address in net 10.<subnet>.x.y, so
// no rate limit answers) going to public while roll replaces or restarts
// the edges behind it, then asserts what a visitor would notice: no answer
// other than 2xx/3xx, and that the load really ran. what names the roll in
// the log.
func rollUnderLoad(t *testing.T, public, what string, subnet int, roll func()) {
	t.Helper()
	counts := &tally{ok: map[string]int{}}
	client := &http.Client{Timeout: 15 * time.Second, CheckRedirect: noRedirect, Transport: &http.Transport{DisableKeepAlives: true}}
	loadCtx, stopLoad := context.WithCancel(context.Background())
	defer stopLoad()
	var wg sync.WaitGroup
	paths := []string{"/", "/features", "/career", "/blog"}
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; loadCtx.Err() == nil; i++ {
				p := paths[(i+w)%len(paths)]
				r := getPage(client, public+p)
				switch {
				case r.err != "":
					counts.add("GET", p+": "+r.err)
				case r.status >= 400:
					counts.add("GET", fmt.Sprintf("%s: %d", p, r.status))
				default:
					counts.add("GET", "")
				}
			}
		}()
	}
	var posted atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		for loadCtx.Err() == nil {
			n := posted.Add(1)
			req, _ := http.NewRequest(http.MethodPost, public+"/api/v1/news-letter/subscribe",
				strings.NewReader(fmt.Sprintf(`{"emailaddress":"roll%d-%d@example.com"}`, subnet, n)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Origin", public)
			req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", subnet, n/250%250, n%250+1))
			res, err := client.Do(req)
			if err != nil {
				counts.add("POST", err.Error())
				continue
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode >= 300 {
				counts.add("POST", strconv.Itoa(res.StatusCode))
				continue
			}
			counts.add("POST", "")
		}
	}()

	began := time.Now()
	poll.Until(t, 10*time.Second, func() bool { counts.mu.Lock(); defer counts.mu.Unlock(); return counts.ok["GET"] > 30 }, "no load reached the edges")
	roll()
	took := time.Since(began)
	stopLoad()
	wg.Wait()
	counts.mu.Lock()
	defer counts.mu.Unlock()
	t.Logf("%s in %s: %v", what, took.Round(time.Millisecond), counts.ok)
	if len(counts.errors) > 0 {
		t.Errorf("%d answers other than 2xx/3xx during the roll, want 0: %s", len(counts.errors), strings.Join(counts.errors, "; "))
	}
	for _, kind := range []string{"GET", "POST"} {
		if counts.ok[kind] < 20 {
			t.Errorf("only %d %s answered: the load did not run", counts.ok[kind], kind)
		}
	}
}
