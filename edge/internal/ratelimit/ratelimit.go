// Package ratelimit limits how often one key (a client IP, an account) may
// do something abusable: subscribe, log in, ask for a password reset. It is a
// token bucket per key: in memory, or, for a limiter made with For on
// PostgreSQL, one bucket in the database shared by every edge instance
// (shared.go), so N instances still allow the limit once.
//
// In memory a bucket is one number, its theoretical arrival time (GCRA, as
// in shared.go), kept under a 64-bit hash of its key in an LRU of at most
// MaxKeys entries per limiter: however many addresses a flood
// comes from, the limiter's memory has a ceiling (about 8 MiB at the default
// 65,536 keys), and the buckets given up first are the ones idle longest, so
// a client that keeps trying keeps its bucket. nginx's limit_req zones do
// the same (a fixed-size zone, least recently used first). IPv6 clients are
// limited per /64 (Client): one subscriber's network is one client.
package ratelimit

import (
	"context"
	"hash/maphash"
	"log/slog"
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"omnibus/edge/internal/http/request"
	"omnibus/edge/internal/http/response"
	"omnibus/edge/internal/metrics"
	"omnibus/edge/internal/storage"
)

// DefaultMaxKeys is the number of keys a limiter keeps in memory
// (RATE_LIMIT_MAX_KEYS).
const DefaultMaxKeys = 1 << 16

// MaxKeys is the ceiling of keys of the limiters made after it is set (the
// edge sets it from RATE_LIMIT_MAX_KEYS before it builds its parts).
var MaxKeys = DefaultMaxKeys

// IPv6Prefix is the prefix length an IPv6 client is limited by
// (RATE_LIMIT_IPV6_PREFIX, default 64: one subscriber's network, as a /64
// is what an ISP hands out and what an attacker has 2^64 addresses in).
var IPv6Prefix = 64

// Client is the key of the request's client (request.ClientIP): its IPv4
// address, or its IPv6 address's IPv6Prefix network.
func Client(r *http.Request) string { return ClientKey(request.ClientIP(r)) }

// ClientKey is Client for an address.
func ClientKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap()
	if !a.Is6() || IPv6Prefix >= 128 {
		return a.String()
	}
	p, err := a.Prefix(IPv6Prefix)
	if err != nil {
		return a.String()
	}
	return p.String()
}

var seed = maphash.MakeSeed()

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

	mu sync.Mutex
	// buckets: a key's hash → its bucket's theoretical arrival time (Unix
	// nanoseconds), at most MaxKeys of them.
	buckets *simplelru.LRU[uint64, int64]
	keys    prometheus.Gauge
	now     func() time.Time
}

// New returns a limiter of burst events per key, one more every `every`,
// kept in this process's memory.
func New(burst int, every time.Duration) *Limiter {
	return newLimiter("unnamed", burst, every)
}

func newLimiter(name string, burst int, every time.Duration) *Limiter {
	buckets, err := simplelru.NewLRU[uint64, int64](max(MaxKeys, 1), nil)
	if err != nil {
		panic(err)
	}
	metrics.RateLimitMaxKeys(name).Set(float64(max(MaxKeys, 1)))
	return &Limiter{every: every, burst: burst, name: name, buckets: buckets, keys: metrics.RateLimitKeys(name), now: time.Now}
}

// For returns the limiter called name (a short, fixed identifier such as
// "login_ip": it labels the metrics and separates this limiter's keys from
// others'). On PostgreSQL its buckets live in the database, shared by every
// edge instance on it; on SQLite (one instance) or with a nil db, in memory.
func For(db *storage.DB, name string, burst int, every time.Duration) *Limiter {
	l := newLimiter(name, burst, every)
	if db != nil && db.Postgres {
		l.shared = &shared{db: db}
	}
	return l
}

// Allow takes one event for key (ctx: the request, whose id a warning
// carries). When it is refused, retryAfter says how long
// until one is allowed again.
func (l *Limiter) Allow(ctx context.Context, key string) (ok bool, retryAfter time.Duration) {
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
		slog.WarnContext(ctx, "ratelimit: shared limit unavailable; limiting in memory", "limit", l.name, "err", err)
	}
	ok, retryAfter = l.allowLocal(key)
	if !ok {
		metrics.RateLimitRefused(l.name)
	}
	return ok, retryAfter
}

// allowLocal is the GCRA of shared.go in memory: an event is allowed when
// tat' = max(tat, now) + every is no later than now + burst*every.
func (l *Limiter) allowLocal(key string) (ok bool, retryAfter time.Duration) {
	h := maphash.String(seed, key)
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now().UnixNano()
	tat, _ := l.buckets.Get(h)
	next := max(tat, now) + int64(l.every)
	if over := next - now - int64(l.every)*int64(l.burst); over > 0 {
		return false, time.Duration(over)
	}
	l.buckets.Add(h, next)
	l.keys.Set(float64(l.buckets.Len()))
	return true, 0
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

// ByIP is middleware that limits requests per client (Client).
func (l *Limiter) ByIP() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if ok, wait := l.Allow(c.Request().Context(), ClientKey(c.RealIP())); !ok {
				return Refuse(c, wait)
			}
			return next(c)
		}
	}
}
