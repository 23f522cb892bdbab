package storage

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// How the database's state is kept (Health): one ping every PingEvery, each
// given at most PingTimeout. A database that does not answer within it (a
// partition that drops packets) counts as down.
const (
	PingEvery   = time.Second
	PingTimeout = time.Second
)

// Health is the database's last known state, kept by one background pinger
// per edge, so that nothing a probe or a scrape asks waits on the database:
// readiness reads it (decision 0025), as does omnibus_database_up.
type Health struct {
	log *slog.Logger
	mu  sync.Mutex
	err error
}

// errNotPinged stands for the state before the first ping answered.
var errNotPinged = errors.New("storage: database not pinged yet")

// WatchHealth pings db at once, then every PingEvery until ctx ends, in one
// goroutine: at most one ping is ever in flight. It returns after the first
// ping, so the state is known from the start. A change of state is logged
// once (a warning when the database stops answering, a line when it is
// back), not once per ping.
func (db *DB) WatchHealth(ctx context.Context, log *slog.Logger) *Health {
	h := &Health{err: errNotPinged, log: log}
	h.ping(ctx, db)
	go func() {
		t := time.NewTicker(PingEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				h.ping(ctx, db)
			}
		}
	}()
	return h
}

func (h *Health) ping(ctx context.Context, db *DB) {
	ctx, cancel := context.WithTimeout(ctx, PingTimeout)
	defer cancel()
	err := db.WithContext(ctx).Exec("SELECT 1").Error
	h.mu.Lock()
	was := h.err
	h.err = err
	h.mu.Unlock()
	switch {
	case err != nil && (was == nil || was == errNotPinged):
		h.log.Warn("storage: the database does not answer; cached pages and static files still serve", "err", err)
	case err == nil && was != nil && was != errNotPinged:
		h.log.Info("storage: the database answers again")
	}
}

// Err is the last ping's error: nil when the database answered.
func (h *Health) Err() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.err
}

// Up reports whether the last ping was answered.
func (h *Health) Up() bool { return h.Err() == nil }
