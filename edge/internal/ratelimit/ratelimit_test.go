package ratelimit

import (
	"context"
	"testing"
	"time"
)

func TestBurstThenRefusedThenRefilled(t *testing.T) {
	now := time.Unix(1000, 0)
	l := New(2, 10*time.Second)
	l.now = func() time.Time { return now }
	for i := 0; i < 2; i++ {
		if ok, _ := l.Allow(context.Background(), "a"); !ok {
			t.Fatalf("event %d refused within the burst", i)
		}
	}
	ok, wait := l.Allow(context.Background(), "a")
	if ok || wait <= 0 || wait > 10*time.Second {
		t.Fatalf("third event: ok=%v wait=%v, want refused with a wait up to 10s", ok, wait)
	}
	if ok, _ := l.Allow(context.Background(), "b"); !ok {
		t.Fatal("another key was refused")
	}
	now = now.Add(10 * time.Second)
	if ok, _ := l.Allow(context.Background(), "a"); !ok {
		t.Fatal("still refused after the refill interval")
	}
}
