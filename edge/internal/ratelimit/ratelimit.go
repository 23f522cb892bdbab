// Package ratelimit limits how often one key (a client IP, an account) may
// do something abusable: subscribe, log in, ask for a password reset. It is a
// token bucket per key: in memory, or, for a limiter made with For on
// PostgreSQL, one bucket in the database shared by every edge instance
// (shared.go), so N instances still allow the limit once.
//
// In memory a bucket is one number, its theoretical arrival time (GCRA, as
// in shared.go), kept under a 64-bit hash of its key in an LRU of at most
// Keys.Max entries per limiter: however many addresses a flood
// comes from, the limiter's memory has a ceiling (about 8 MiB at the default
// 65,536 keys), and the buckets given up first are the ones idle longest, so
// a client that keeps trying keeps its bucket. nginx's limit_req zones do
// the same (a fixed-size zone, least recently used first). IPv6 clients are
// limited per /64 (Client): one subscriber's network is one client. The
// ceiling and the IPv6 network are a Keys value the edge makes from its
// configuration and hands to each part that makes limiters: no package
// setting, so two edges in one process (the tests) each keep their own.
//
// It decides and says how long to wait; the caller answers (a 429 through
// httpx/response.TooManyRequests, or the form's page again: exchange).
package ratelimit

import (
	"context"
	"hash/maphash"
	"log/slog"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"github.com/prometheus/client_golang/prometheus"

	"omnibus/edge/internal/httpx/request"
	"omnibus/edge/internal/metrics"
	"omnibus/edge/internal/storage"
)

// DefaultMaxKeys is the number of keys a limiter keeps in memory
// (RATE_LIMIT_MAX_KEYS).
const DefaultMaxKeys = 1 << 16

// DefaultIPv6Prefix is the prefix length an IPv6 client is limited by
// (RATE_LIMIT_IPV6_PREFIX): one subscriber's network, as a /64 is what an
// ISP hands out and what an attacker has 2^64 addresses in.
const DefaultIPv6Prefix = 64

// Keys is what the limiters of one edge share: how many keys each keeps
// in memory and how a client's address becomes its key. The edge makes
// one from its configuration and each part makes its limiters with it;
// the zero value is the defaults.
type Keys struct {
	// Max is the ceiling of keys a limiter keeps (0: DefaultMaxKeys).
	Max int
	// IPv6Prefix is the network an IPv6 client is keyed by, 1 to 128 (0:
	// DefaultIPv6Prefix).
	IPv6Prefix int
}

// max is the ceiling of keys, the default for zero.
func (k Keys) max() int {
	if k.Max <= 0 {
		return DefaultMaxKeys
	}
	return k.Max
}

// ClientKey is the key of a client at address ip: its IPv4 address, or its
// IPv6 address's IPv6Prefix network.
func (k Keys) ClientKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap()
	prefix := k.IPv6Prefix
	if prefix <= 0 {
		prefix = DefaultIPv6Prefix
	}
	if !a.Is6() || prefix >= 128 {
		return a.String()
	}
	p, err := a.Prefix(prefix)
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
	// clients keys a client's address (Client, ClientKey).
	clients Keys
	// shared, when set, keeps the buckets in PostgreSQL; the in-memory
	// buckets below then serve only while the database cannot be reached.
	shared *shared

	mu sync.Mutex
	// buckets: a key's hash → its bucket's theoretical arrival time (Unix
	// nanoseconds), at most Keys.Max of them.
	buckets *simplelru.LRU[uint64, int64]
	keys    prometheus.Gauge
	now     func() time.Time
}

// New returns a limiter of burst events per key, one more every `every`,
// kept in this process's memory, with the default Keys.
func New(burst int, every time.Duration) *Limiter { return Keys{}.New(burst, every) }

// New returns a limiter of burst events per key, one more every `every`,
// kept in this process's memory.
func (k Keys) New(burst int, every time.Duration) *Limiter {
	return k.newLimiter("unnamed", burst, every)
}

func (k Keys) newLimiter(name string, burst int, every time.Duration) *Limiter {
	buckets, err := simplelru.NewLRU[uint64, int64](k.max(), nil)
	if err != nil {
		panic(err)
	}
	metrics.RateLimitMaxKeys(name).Set(float64(k.max()))
	return &Limiter{every: every, burst: burst, name: name, clients: k, buckets: buckets, keys: metrics.RateLimitKeys(name), now: time.Now}
}

// For returns the limiter called name (a short, fixed identifier such as
// "login_ip": it labels the metrics and separates this limiter's keys from
// others'). On PostgreSQL its buckets live in the database, shared by every
// edge instance on it; on SQLite (one instance) or with a nil db, in memory.
func (k Keys) For(db *storage.DB, name string, burst int, every time.Duration) *Limiter {
	l := k.newLimiter(name, burst, every)
	if db != nil && db.Postgres {
		l.shared = &shared{db: db}
	}
	return l
}

// Client is the key of the request's client (request.ClientIP), by the
// limiter's Keys.
func (l *Limiter) Client(r *http.Request) string { return l.ClientKey(request.ClientIP(r)) }

// ClientKey is Client for an address.
func (l *Limiter) ClientKey(ip string) string { return l.clients.ClientKey(ip) }

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
