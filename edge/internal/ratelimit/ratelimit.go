// Package ratelimit limits how often one key (a client IP, an account) may
// do something abusable: subscribe, log in, ask for a password reset. It is a
// token bucket per key (golang.org/x/time/rate), kept in memory and pruned.
package ratelimit

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"

	"omnibus/edge/internal/http/response"
)

// Limiter allows Burst events at once per key, refilled at Every.
type Limiter struct {
	every time.Duration
	burst int

	mu      sync.Mutex
	buckets map[string]*bucket
	lastGC  time.Time
	now     func() time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

// New returns a limiter of burst events per key, one more every `every`.
func New(burst int, every time.Duration) *Limiter {
	return &Limiter{every: every, burst: burst, buckets: map[string]*bucket{}, now: time.Now}
}

// Allow takes one event for key. When it is refused, retryAfter says how long
// until one is allowed again.
func (l *Limiter) Allow(key string) (ok bool, retryAfter time.Duration) {
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

// Refuse answers 429 with Retry-After (whole seconds, at least 1) and the
// API's error shape.
func Refuse(c echo.Context, retryAfter time.Duration) error {
	secs := int(math.Ceil(retryAfter.Seconds()))
	if secs < 1 {
		secs = 1
	}
	c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
	return response.Error(c, http.StatusTooManyRequests, "Too many requests. Please try again in "+strconv.Itoa(secs)+" seconds.")
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
