package renderer

// The standby state machine: a child becomes ready once it answers its
// health check (and is warmed with one render), the first ready child is
// active, and when the active child goes a ready standby takes over at
// once.

import (
	"context"
	"io"
	"net/http"
	"time"
)

// readyPoll is how often watch asks a starting child's health.
const readyPoll = 50 * time.Millisecond

// watch polls in's health until it answers (then it may become active) and
// waits for its exit or Stop. It reports whether in was ever ready.
func (s *Supervisor) watch(in *instance, exited <-chan error) (wasReady bool) {
	tick := time.NewTicker(readyPoll)
	defer tick.Stop()
	for {
		select {
		case err := <-exited:
			s.down(in)
			s.log.Error("renderer: exited; restarting", "pid", in.pid, "err", err, "was_serving", wasReady)
			return wasReady
		case <-s.stop:
			s.terminate(in, exited)
			s.down(in)
			return wasReady
		case <-tick.C:
			if wasReady {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			if s.check(ctx, in.url) == nil {
				wasReady = true
				s.warm(in)
				s.up(in)
				tick.Reset(time.Hour)
			}
			cancel()
		}
	}
}

// warm renders the landing page once on a child that has just started, so
// the first visitor it serves after a takeover does not pay for Node's cold
// start (module loading, JIT). Failures are ignored: health said it is up.
func (s *Supervisor) warm(in *instance) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, in.url.String()+"/", nil)
	if err != nil {
		return
	}
	req.Header.Set("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
}

// up marks in ready; it becomes the active child if there is none ready.
func (s *Supervisor) up(in *instance) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in.ready = true
	if s.active == nil || !s.active.ready {
		s.active = in
	}
}

// down forgets in; if it was active, a ready standby takes over at once.
func (s *Supervisor) down(in *instance) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in.ready = false
	for i, x := range s.slots {
		if x == in {
			s.slots[i] = nil
		}
	}
	if s.active == in {
		for _, x := range s.slots {
			if x != nil && x.ready {
				s.active = x
				s.log.Warn("renderer: standby took over", "pid", x.pid, "url", x.url.String())
				return
			}
		}
	}
}
