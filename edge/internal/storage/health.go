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
	// PingDownEvery: while the database is down, it is pinged this often,
	// so that it is found again within PingDownEvery of answering.
	PingDownEvery = 200 * time.Millisecond
)

// Health is the database's last known state, kept by one background pinger
// per edge, so that nothing a probe or a scrape asks waits on the database:
// readiness reads it (decision 0025), as does omnibus_database_up.
type Health struct {
	log  *slog.Logger
	pool *boundedPool // closed to statements while down; nil without LimitPool
	mu   sync.Mutex
	err  error
}

// errNotPinged stands for the state before the first ping answered.
var errNotPinged = errors.New("storage: database not pinged yet")

// WatchHealth pings db at once, then every PingEvery (PingDownEvery while
// it is down) until ctx ends, in one goroutine: at most one ping is ever in
// flight. It returns after the first ping, so the state is known from the
// start. A change of state is logged once (a warning when the database
// stops answering, a line when it is back), not once per ping.
//
// While the database is down, every other statement through the pool fails
// at once with ErrUnavailable (LimitPool's pool): nobody waits for the pool
// wait to learn what the pinger knows. The first ping answered opens it
// again; then the pool's own bound (DB_MAX_OPEN_CONNS) paces the
// reconnections, as it always does, so there is no herd to hold back.
func (db *DB) WatchHealth(ctx context.Context, log *slog.Logger) *Health {
	h := &Health{err: errNotPinged, log: log, pool: db.pool}
	h.ping(ctx, db)
	go func() {
		t := time.NewTimer(PingEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				h.ping(ctx, db)
				if h.Up() {
					t.Reset(PingEvery)
				} else {
					t.Reset(PingDownEvery)
				}
			}
		}
	}()
	return h
}

func (h *Health) ping(ctx context.Context, db *DB) {
	ctx, cancel := context.WithTimeout(ctx, PingTimeout)
	defer cancel()
	err := db.WithContext(asProbe(ctx)).Exec("SELECT 1").Error
	if errors.Is(err, ErrBusy) {
		return // every connection is in use by statements: no news
	}
	if h.pool != nil {
		h.pool.down.Store(err != nil)
	}
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
