// Package hashqueue bounds the memory and CPU an outsider can make the edge
// spend on password hashing. Each argon2id hash holds its whole memory cost
// (19 MiB) while it runs, so the number of hashes running at once is capped
// (sized from the machine: its cores and GOMEMLIMIT), requests beyond the cap
// wait in a bounded queue, and a request that cannot start within the queue
// deadline is refused (ErrBusy: the API answers 503 with Retry-After).
//
// Callers of DoFirst (sign-ins from a browser known to the account, issue
// 28.4) are served before callers of Do: a freed slot goes to the longest
// waiting of them first, and they have a waiting room of their own, so a
// flood of strangers' guesses cannot keep the owner out.
package hashqueue

import (
	"container/list"
	"context"
	"errors"
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// ErrBusy: the hash could not start before the queue deadline (or the queue
// was full).
var ErrBusy = errors.New("hashqueue: busy")

// Queue runs at most Slots hashes at once.
type Queue struct {
	deadline time.Duration
	maxWait  int
	slots    int
	waiting  atomic.Int64

	mu      sync.Mutex
	running int
	queues  [2]list.List // of *waiter: [first] for DoFirst, [later] for Do

	// Hooks, when set, hear of every hash's way through the queue
	// (metrics.Metrics.HashQueue).
	Hooks Hooks
}

const (
	first = 0
	later = 1
)

// waiter is one caller waiting for a slot; ready is closed when it is
// handed one (under mu, which also sets granted).
type waiter struct {
	ready   chan struct{}
	granted bool
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
// deadline for one, and at most maxWaiting of them wait at once (as many
// again of DoFirst's).
func New(slots int, deadline time.Duration, maxWaiting int) *Queue {
	return &Queue{slots: max(slots, 1), deadline: deadline, maxWait: max(maxWaiting, 0)}
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
func (q *Queue) Cap() int { return q.slots }

// Running is the number of hashes running now.
func (q *Queue) Running() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.running
}

// Waiting is the number of callers waiting for a slot now.
func (q *Queue) Waiting() int { return int(q.waiting.Load()) }

// RetryAfter is what a refused client is told to wait.
func (q *Queue) RetryAfter() time.Duration { return max(q.deadline, time.Second) }

// Do runs f when a slot is free. It returns ErrBusy when none frees within
// the deadline or too many already wait, and ctx's error when the caller
// gives up first; f does not run then.
func (q *Queue) Do(ctx context.Context, f func()) error { return q.do(ctx, later, f) }

// DoFirst is Do ahead of every caller of Do.
func (q *Queue) DoFirst(ctx context.Context, f func()) error { return q.do(ctx, first, f) }

func (q *Queue) do(ctx context.Context, class int, f func()) error {
	hooks := q.Hooks
	if hooks == nil {
		hooks = noHooks{}
	}
	start := time.Now()
	hooks.Enqueued()
	q.mu.Lock()
	// A free slot is taken at once unless someone of this class or a
	// higher one waits for it.
	free := q.running < q.slots && q.queues[first].Len() == 0 && (class == first || q.queues[later].Len() == 0)
	if free {
		q.running++
		q.mu.Unlock()
	} else {
		if q.queues[class].Len() >= q.maxWait {
			q.mu.Unlock()
			hooks.Rejected()
			return ErrBusy
		}
		w := &waiter{ready: make(chan struct{})}
		el := q.queues[class].PushBack(w)
		q.waiting.Add(1)
		q.mu.Unlock()
		t := time.NewTimer(q.deadline)
		var err error
		select {
		case <-w.ready:
		case <-t.C:
			err = ErrBusy
		case <-ctx.Done():
			err = ctx.Err()
		}
		t.Stop()
		q.waiting.Add(-1)
		if err != nil {
			q.mu.Lock()
			granted := w.granted
			if !granted {
				q.queues[class].Remove(el)
			}
			q.mu.Unlock()
			if !granted {
				hooks.Rejected()
				return err
			}
			// Handed a slot as it gave up: use it.
		}
	}
	hooks.Started(time.Since(start))
	defer q.release()
	began := time.Now()
	defer func() { hooks.Finished(time.Since(began)) }()
	f()
	return nil
}

// release hands the slot to the longest waiting caller of the first class
// that has one, or frees it.
func (q *Queue) release() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i := range q.queues {
		if el := q.queues[i].Front(); el != nil {
			w := q.queues[i].Remove(el).(*waiter)
			w.granted = true
			close(w.ready)
			return
		}
	}
	q.running--
}
