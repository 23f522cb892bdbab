package hashqueue

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"omnibus/edge/internal/poll"
)

// countingHooks records what the queue reported.
type countingHooks struct {
	mu                                    sync.Mutex
	enqueued, started, finished, rejected int
}

func (h *countingHooks) Enqueued()              { h.mu.Lock(); h.enqueued++; h.mu.Unlock() }
func (h *countingHooks) Started(time.Duration)  { h.mu.Lock(); h.started++; h.mu.Unlock() }
func (h *countingHooks) Finished(time.Duration) { h.mu.Lock(); h.finished++; h.mu.Unlock() }
func (h *countingHooks) Rejected()              { h.mu.Lock(); h.rejected++; h.mu.Unlock() }

// The metrics see every hash: one that ran, one refused because the only
// slot stayed taken past the deadline.
func TestHooksSeeEveryHash(t *testing.T) {
	q := New(1, 20*time.Millisecond, 4)
	h := &countingHooks{}
	q.Hooks = h
	hold, held := make(chan struct{}), make(chan struct{})
	go q.Do(context.Background(), func() { close(held); <-hold })
	<-held
	if err := q.Do(context.Background(), func() { t.Error("ran without a slot") }); !errors.Is(err, ErrBusy) {
		t.Fatalf("second hash: %v, want ErrBusy", err)
	}
	close(hold)
	// The first Do reports Finished after its f returns; wait for it.
	poll.Until(t, 5*time.Second, func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.finished == 1
	}, "Finished never reported")
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.enqueued != 2 || h.started != 1 || h.finished != 1 || h.rejected != 1 {
		t.Fatalf("hooks: %d enqueued, %d started, %d finished, %d rejected; want 2, 1, 1, 1", h.enqueued, h.started, h.finished, h.rejected)
	}
}
