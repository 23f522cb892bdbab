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

// A known device's sign-in (DoFirst) gets the next free slot ahead of every
// stranger already waiting, and is not refused because their waiting room
// is full.
func TestDoFirstAheadOfDo(t *testing.T) {
	q := New(1, 5*time.Second, 3)
	hold := make(chan struct{})
	go q.Do(context.Background(), func() { <-hold })
	for q.Running() != 1 {
		time.Sleep(time.Millisecond)
	}
	order := make(chan string, 8)
	for range 3 {
		go q.Do(context.Background(), func() { order <- "stranger" })
	}
	for q.Waiting() != 3 {
		time.Sleep(time.Millisecond)
	}
	if err := q.Do(context.Background(), func() {}); err != ErrBusy {
		t.Fatalf("a fourth stranger: %v, want ErrBusy (the waiting room holds 3)", err)
	}
	done := make(chan error)
	go func() { done <- q.DoFirst(context.Background(), func() { order <- "owner" }) }()
	for q.Waiting() != 4 {
		time.Sleep(time.Millisecond)
	}
	close(hold)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := <-order; got != "owner" {
		t.Fatalf("the freed slot went to a %s first", got)
	}
	for range 3 {
		<-order
	}
}
