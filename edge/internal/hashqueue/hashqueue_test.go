package hashqueue

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// No more than Cap hashes ever run at once, and callers that cannot start
// within the deadline are refused with ErrBusy instead of piling up.
func TestBoundAndDeadline(t *testing.T) {
	q := New(2, 50*time.Millisecond, 4)
	release := make(chan struct{})
	var running, peak atomic.Int64
	work := func() {
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		<-release
		running.Add(-1)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); errs <- q.Do(context.Background(), work) }()
	}
	// The two admitted hashes hold their slots until every other caller was
	// refused (queue full at once, or its deadline passed).
	busy := 0
	for busy < 8 {
		if err := <-errs; !errors.Is(err, ErrBusy) {
			t.Fatalf("got %v, want ErrBusy", err)
		}
		busy++
	}
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("admitted caller: %v", err)
		}
	}
	if peak.Load() != 2 {
		t.Fatalf("peak concurrency %d, want 2", peak.Load())
	}
}

func TestSlotsFromMachine(t *testing.T) {
	if n := Slots(19 << 20); n < 1 {
		t.Fatalf("Slots = %d", n)
	}
}
