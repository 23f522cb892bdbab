package ratelimit_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// Two edges on one PostgreSQL database draw from one bucket: the burst is
// allowed once in total, whichever instance the requests reach. On SQLite
// (one instance) each limiter keeps its own buckets in memory.
func TestLimitSharedByInstances(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		other := reopen(t, db) // a second edge: its own connections to the same database
		a := ratelimit.Keys{}.For(db, "test_shared", 3, time.Hour)
		b := ratelimit.Keys{}.For(other, "test_shared", 3, time.Hour)

		for i, l := range []*ratelimit.Limiter{a, b, a} {
			if ok, _ := l.Allow(context.Background(), "198.51.100.7"); !ok {
				t.Fatalf("event %d of the burst refused", i+1)
			}
		}
		okB, waitB := b.Allow(context.Background(), "198.51.100.7")
		okA, waitA := a.Allow(context.Background(), "198.51.100.7")
		if db.Postgres {
			if okA || okB {
				t.Fatalf("fourth and fifth events allowed (a %v, b %v): the instances do not share the limit", okA, okB)
			}
			for _, w := range []time.Duration{waitA, waitB} {
				if w <= 0 || w > time.Hour {
					t.Errorf("retry after %v, want within (0, 1h]", w)
				}
			}
		} else if !okA || !okB {
			t.Fatalf("SQLite: b's 2nd event allowed=%v, a's 3rd allowed=%v; want in-memory limits per limiter", okB, okA)
		}

		// Other keys and other limiters are not affected.
		if ok, _ := b.Allow(context.Background(), "198.51.100.8"); !ok {
			t.Error("another key was refused")
		}
		if ok, _ := (ratelimit.Keys{}).For(other, "test_other", 1, time.Hour).Allow(context.Background(), "198.51.100.7"); !ok {
			t.Error("another limiter's bucket was used")
		}
	})
}

// Concurrent events on two instances never exceed the burst.
func TestSharedLimitUnderConcurrency(t *testing.T) {
	db := storagetest.Postgres(t)
	ls := []*ratelimit.Limiter{ratelimit.Keys{}.For(db, "test_race", 5, time.Hour), ratelimit.Keys{}.For(reopen(t, db), "test_race", 5, time.Hour)}
	const n = 20
	allowed := make(chan bool, n)
	for i := range n {
		go func() {
			ok, _ := ls[i%2].Allow(context.Background(), "k")
			allowed <- ok
		}()
	}
	got := 0
	for range n {
		if <-allowed {
			got++
		}
	}
	if got != 5 {
		t.Fatalf("%d of %d concurrent events allowed, want the burst of 5", got, n)
	}
}

// A short refill lets the next event through once its time has come.
func TestSharedLimitRefills(t *testing.T) {
	db := storagetest.Postgres(t)
	l := ratelimit.Keys{}.For(db, "test_refill", 1, 5*time.Second) // long enough for two queries on a loaded machine
	if ok, _ := l.Allow(context.Background(), "k"); !ok {
		t.Fatal("first event refused")
	}
	ok, wait := l.Allow(context.Background(), "k")
	if ok {
		t.Fatal("second event allowed at once")
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		time.Sleep(wait) // the wait the limiter itself asked for
		if ok, wait = l.Allow(context.Background(), "k"); ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("never refilled")
		}
	}
}

func reopen(t *testing.T, db *storage.DB) *storage.DB {
	t.Helper()
	var again *storage.DB
	var err error
	if db.Postgres {
		again, err = storage.OpenPostgres(db.DSN)
	} else {
		again, err = storage.OpenSQLite(strings.SplitN(db.DSN, "?", 2)[0])
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { again.Close() })
	return again
}
