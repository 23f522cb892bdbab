// Package ratelimit limits how often one key (a client IP, an account) may
// do something abusable: subscribe, log in, ask for a password reset. It is a
// token bucket per key: in memory (golang.org/x/time/rate, pruned), or, for a
// limiter made with For on PostgreSQL, one bucket in the database shared by
// every edge instance (shared.go), so N instances still allow the limit once.
package ratelimit

import (
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"

	"omnibus/edge/internal/http/response"
	"omnibus/edge/internal/metrics"
	"omnibus/edge/internal/storage"
)

// Limiter allows Burst events at once per key, refilled at Every.
type Limiter struct {
	every time.Duration
	burst int
	// name labels the limiter's refusals in the metrics and its rows in the
	// shared table.
	name string
	// shared, when set, keeps the buckets in PostgreSQL; the in-memory
	// buckets below then serve only while the database cannot be reached.
	shared *shared

	mu      sync.Mutex
	buckets map[string]*bucket
	lastGC  time.Time
	now     func() time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

// New returns a limiter of burst events per key, one more every `every`,
// kept in this process's memory.
func New(burst int, every time.Duration) *Limiter {
	return &Limiter{every: every, burst: burst, name: "unnamed", buckets: map[string]*bucket{}, now: time.Now}
}

// For returns the limiter called name (a short, fixed identifier such as
// "login_ip": it labels the metrics and separates this limiter's keys from
// others'). On PostgreSQL its buckets live in the database, shared by every
// edge instance on it; on SQLite (one instance) or with a nil db, in memory.
func For(db *storage.DB, name string, burst int, every time.Duration) *Limiter {
	l := New(burst, every)
	l.name = name
	if db != nil && db.Postgres {
		l.shared = &shared{db: db}
	}
	return l
}

// Allow takes one event for key. When it is refused, retryAfter says how long
// until one is allowed again.
func (l *Limiter) Allow(key string) (ok bool, retryAfter time.Duration) {
	if l.shared != nil {
		var err error
		if ok, retryAfter, err = l.shared.allow(l, key); err == nil {
			if !ok {
				metrics.RateLimitRefused(l.name)
			}
			return ok, retryAfter
		}
		// The database is unreachable: limit in this process meanwhile
		// rather than let everything through or refuse everyone.
		slog.Warn("ratelimit: shared limit unavailable; limiting in memory", "limit", l.name, "err", err)
	}
	ok, retryAfter = l.allowLocal(key)
	if !ok {
		metrics.RateLimitRefused(l.name)
	}
	return ok, retryAfter
}

func (l *Limiter) allowLocal(key string) (ok bool, retryAfter time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.gc(now)
	b := l.buckets[key]
	if b == nil {
		b = &bucket{lim: rate.NewLimiter(rate.Every(l.every), l.burst)}
		l.buckets[key] = b
	}
	b.seen = now
	r := b.lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// gc drops buckets idle long enough to be full again, at most once a minute.
func (l *Limiter) gc(now time.Time) {
	if now.Sub(l.lastGC) < time.Minute {
		return
	}
	l.lastGC = now
	idle := l.every * time.Duration(l.burst)
	for k, b := range l.buckets {
		if now.Sub(b.seen) > idle {
			delete(l.buckets, k)
		}
	}
}

// Refuse answers 429 with Retry-After and the API's error shape.
func Refuse(c echo.Context, retryAfter time.Duration) error {
	secs := RetryAfter(c, retryAfter)
	return response.Error(c, http.StatusTooManyRequests, "Too many requests. Please try again in "+strconv.Itoa(secs)+" seconds.")
}

// RetryAfter sets the answer's Retry-After (whole seconds, at least 1) and
// returns it; a page answering 429 (internal/forms) sets it here too.
func RetryAfter(c echo.Context, retryAfter time.Duration) int {
	secs := int(math.Ceil(retryAfter.Seconds()))
	if secs < 1 {
		secs = 1
	}
	c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
	return secs
}

// ByIP is middleware that limits requests per client IP (echo's RealIP).
func (l *Limiter) ByIP() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if ok, wait := l.Allow(c.RealIP()); !ok {
				return Refuse(c, wait)
			}
			return next(c)
		}
	}
}
