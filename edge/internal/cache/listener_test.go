package cache

import (
	"context"
	"testing"
	"time"

	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/storage/storagetest"
)

// The purge listener's state is visible (omnibus_cache_purge_listener_up):
// down while its connection is gone, up again once it has reconnected.
func TestPurgeListenerStateFollowsItsConnection(t *testing.T) {
	db := storagetest.Postgres(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, _ := newTestCache(t, DefaultMaxBytes)
	if up, ok := c.PurgeListenerUp(); ok || up {
		t.Fatalf("before StartFanout: up %v ok %v, want no listener", up, ok)
	}
	c.StartFanout(ctx, db)
	if up, ok := c.PurgeListenerUp(); !ok || !up {
		t.Fatalf("after StartFanout: up %v ok %v, want up", up, ok)
	}
	// Cut the listener's own connection (found by its LISTEN statement).
	if err := db.Exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = ?", `LISTEN "`+*c.fanout.channel.Load()+`"`).Error; err != nil {
		t.Fatal(err)
	}
	wait := func(want bool) {
		t.Helper()
		poll.Until(t, 15*time.Second, func() bool { up, _ := c.PurgeListenerUp(); return up == want },
			"purge listener up: want %v within 15 s", want)
	}
	wait(false)
	wait(true)
}
