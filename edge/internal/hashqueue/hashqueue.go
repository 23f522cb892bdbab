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

	// Hooks, when set, hear of every hash's way through the queue
	// (metrics.HashQueue).
	Hooks Hooks
}

// Hooks follow each Do: Enqueued when it has to wait for a slot, then
// Started (with the wait, zero when a slot was free) and Finished, or
// Rejected when it gives up waiting.
type Hooks interface {
	Enqueued()
	Started(waited time.Duration)
	Finished(took time.Duration)
	Rejected()
}

// noHooks is the default: nothing listens.
type noHooks struct{}

func (noHooks) Enqueued()              {}
func (noHooks) Started(time.Duration)  {}
func (noHooks) Finished(time.Duration) {}
func (noHooks) Rejected()              {}

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
	hooks := q.Hooks
	if hooks == nil {
		hooks = noHooks{}
	}
	start := time.Now()
	select {
	case q.slots <- struct{}{}:
		hooks.Enqueued()
	default:
		if q.waiting.Add(1) > q.maxWait {
			q.waiting.Add(-1)
			hooks.Enqueued()
			hooks.Rejected()
			return ErrBusy
		}
		hooks.Enqueued()
		t := time.NewTimer(q.deadline)
		select {
		case q.slots <- struct{}{}:
			t.Stop()
			q.waiting.Add(-1)
		case <-t.C:
			q.waiting.Add(-1)
			hooks.Rejected()
			return ErrBusy
		case <-ctx.Done():
			t.Stop()
			q.waiting.Add(-1)
			hooks.Rejected()
			return ctx.Err()
		}
	}
	hooks.Started(time.Since(start))
	defer func() { <-q.slots }()
	began := time.Now()
	defer func() { hooks.Finished(time.Since(began)) }()
	f()
	return nil
}
