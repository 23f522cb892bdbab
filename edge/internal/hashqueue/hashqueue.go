// Package hashqueue bounds the memory and CPU an outsider can make the edge
// spend on password hashing. Each argon2id hash holds its whole memory cost
// (19 MiB) while it runs, so the number of hashes running at once is capped
// (sized from the machine: its cores and GOMEMLIMIT), requests beyond the cap
// wait in a bounded queue, and a request that cannot start within the queue
// deadline is refused (ErrBusy: the API answers 503 with Retry-After).
package hashqueue

import (
	"context"
	"errors"
	"math"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"
)

// ErrBusy: the hash could not start before the queue deadline (or the queue
// was full).
var ErrBusy = errors.New("hashqueue: busy")

// Queue runs at most Slots hashes at once.
type Queue struct {
	slots    chan struct{}
	deadline time.Duration
	maxWait  int64
	waiting  atomic.Int64

	// Observe, when set, is called once per Do with how long the caller
	// waited for a slot and whether it got one (a hook for metrics).
	Observe func(waited time.Duration, admitted bool)
}

// New returns a queue of slots concurrent hashes; callers wait at most
// deadline for one, and at most maxWaiting of them wait at once.
func New(slots int, deadline time.Duration, maxWaiting int) *Queue {
	if slots < 1 {
		slots = 1
	}
	if maxWaiting < 0 {
		maxWaiting = 0
	}
	return &Queue{slots: make(chan struct{}, slots), deadline: deadline, maxWait: int64(maxWaiting)}
}

// Slots is the number of hashes allowed at once on this machine for hashes
// of memBytes each: one per core, and no more than a quarter of the memory
// limit (GOMEMLIMIT) when one is set, at least 1.
func Slots(memBytes int64) int {
	n := runtime.NumCPU()
	if limit := debug.SetMemoryLimit(-1); limit > 0 && limit < math.MaxInt64 && memBytes > 0 {
		if byMem := int(limit / 4 / memBytes); byMem < n {
			n = byMem
		}
	}
	return max(n, 1)
}

// Cap is the number of hashes the queue runs at once.
func (q *Queue) Cap() int { return cap(q.slots) }

// Running is the number of hashes running now.
func (q *Queue) Running() int { return len(q.slots) }

// Waiting is the number of callers waiting for a slot now.
func (q *Queue) Waiting() int { return int(q.waiting.Load()) }

// RetryAfter is what a refused client is told to wait.
func (q *Queue) RetryAfter() time.Duration { return max(q.deadline, time.Second) }

// Do runs f when a slot is free. It returns ErrBusy when none frees within
// the deadline or too many already wait, and ctx's error when the caller
// gives up first; f does not run then.
func (q *Queue) Do(ctx context.Context, f func()) error {
	start := time.Now()
	admitted := false
	defer func() {
		if q.Observe != nil {
			q.Observe(time.Since(start), admitted)
		}
	}()
	select {
	case q.slots <- struct{}{}:
	default:
		if q.waiting.Add(1) > q.maxWait {
			q.waiting.Add(-1)
			return ErrBusy
		}
		t := time.NewTimer(q.deadline)
		select {
		case q.slots <- struct{}{}:
			t.Stop()
			q.waiting.Add(-1)
		case <-t.C:
			q.waiting.Add(-1)
			return ErrBusy
		case <-ctx.Done():
			t.Stop()
			q.waiting.Add(-1)
			return ctx.Err()
		}
	}
	admitted = true
	defer func() { <-q.slots }()
	f()
	return nil
}
