package ratelimit

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"sync"
	"time"

	"omnibus/edge/internal/storage"
)

// shared keeps a limiter's buckets in PostgreSQL's rate_limits table
// (migration 110), one row per limiter and key, so every edge instance on
// the database draws from the same bucket.
//
// A bucket is one timestamp, its theoretical arrival time (the generic cell
// rate algorithm, equivalent to a token bucket): an event is allowed when
// tat' = max(tat, now) + every is no later than now + burst*every, and then
// tat' is stored. One INSERT … ON CONFLICT DO UPDATE … WHERE decides and
// stores atomically (concurrent events for one key queue on its row), and
// the database's clock is the only clock, so instances need not agree on
// the time. Keys are stored hashed: no e-mail address or IP sits in the table.
type shared struct {
	db *storage.DB

	mu     sync.Mutex
	lastGC time.Time
}

// queryTimeout bounds one decision; past it the limiter falls back to memory.
const queryTimeout = 5 * time.Second

const allowSQL = `
WITH taken AS (
	INSERT INTO rate_limits AS r (name, key, tat)
	VALUES (@name, @key, now() + @every * interval '1 microsecond')
	ON CONFLICT (name, key) DO UPDATE
		SET tat = GREATEST(r.tat, now()) + @every * interval '1 microsecond'
		WHERE GREATEST(r.tat, now()) + @every * interval '1 microsecond' <= now() + @window * interval '1 microsecond'
	RETURNING 1
)
SELECT EXISTS (SELECT 1 FROM taken) AS ok,
	COALESCE((SELECT EXTRACT(EPOCH FROM (GREATEST(tat, now()) + @every * interval '1 microsecond' - now() - @window * interval '1 microsecond'))
	          FROM rate_limits WHERE name = @name AND key = @key), 0)::float8 AS wait`

func (s *shared) allow(l *Limiter, key string) (ok bool, retryAfter time.Duration, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
	defer cancel()
	s.gc(l.name)
	sum := sha256.Sum256([]byte(key))
	var row struct {
		OK   bool
		Wait float64
	}
	err = s.db.WithContext(ctx).Raw(allowSQL,
		sql.Named("name", l.name),
		sql.Named("key", hex.EncodeToString(sum[:])),
		sql.Named("every", l.every.Microseconds()),
		sql.Named("window", (l.every*time.Duration(l.burst)).Microseconds()),
	).Scan(&row).Error
	if err != nil {
		return false, 0, err
	}
	if row.OK {
		return true, 0, nil
	}
	return false, max(time.Duration(row.Wait*float64(time.Second)), time.Millisecond), nil
}

// gc deletes, at most once a minute, this limiter's rows whose bucket is
// full again (a missing row means the same), in the background.
func (s *shared) gc(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Since(s.lastGC) < time.Minute {
		return
	}
	s.lastGC = time.Now()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.db.WithContext(ctx).Exec("DELETE FROM rate_limits WHERE name = ? AND tat < now()", name)
	}()
}
