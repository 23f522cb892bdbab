package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// The rate limiter's series are fed from a package that has no Metrics at
// hand: they are process-wide, like the limiters they count, and every
// Metrics registry exposes them. The password-hashing queue's are a
// Metrics' own (Metrics.HashQueue), handed to the queue by the wiring.

var rateLimitRefusals = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "omnibus_ratelimit_refusals_total",
	Help: "Requests refused by a rate limit (429), by limit.",
}, []string{"limit"})

// RateLimitRefused counts one refusal by the named limit (internal/ratelimit
// calls it; the names are fixed in code, so the label stays small).
func RateLimitRefused(limit string) { rateLimitRefusals.WithLabelValues(limit).Inc() }

var rateLimitKeys = prometheus.NewGaugeVec(prometheus.GaugeOpts{
	Name: "omnibus_ratelimit_keys",
	Help: "Keys (clients, accounts) a rate limit keeps in this process's memory, by limit.",
}, []string{"limit"})

var rateLimitMaxKeys = prometheus.NewGaugeVec(prometheus.GaugeOpts{
	Name: "omnibus_ratelimit_keys_max",
	Help: "The ceiling of keys a rate limit keeps in memory (RATE_LIMIT_MAX_KEYS); past it the least recently used are forgotten.",
}, []string{"limit"})

// RateLimitKeys is the gauge of the keys the named limit holds.
func RateLimitKeys(limit string) prometheus.Gauge { return rateLimitKeys.WithLabelValues(limit) }

// RateLimitMaxKeys is the gauge of the named limit's ceiling of keys.
func RateLimitMaxKeys(limit string) prometheus.Gauge { return rateLimitMaxKeys.WithLabelValues(limit) }

// HashQueue instruments the bounded password-hashing queue
// (internal/accounts, whose Hashing.Hooks it is): Enqueued when a hash
// starts waiting for a slot, then either Started (it got one) and Finished
// (it is done), or Rejected (it gave up waiting: the answer is 503).
type HashQueue struct {
	waiting, running prometheus.Gauge
	wait, duration   prometheus.Histogram
	rejected         prometheus.Counter
}

func newHashQueue() *HashQueue {
	return &HashQueue{
		waiting: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "omnibus_password_hash_queue_waiting",
			Help: "Password hashes waiting for a slot.",
		}),
		running: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "omnibus_password_hash_running",
			Help: "Password hashes running now.",
		}),
		wait: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "omnibus_password_hash_wait_seconds",
			Help:    "How long a password hash waited for a slot.",
			Buckets: []float64{0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10},
		}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "omnibus_password_hash_duration_seconds",
			Help:    "How long one password hash took once it had a slot.",
			Buckets: []float64{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5},
		}),
		rejected: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "omnibus_password_hash_rejected_total",
			Help: "Password hashes that gave up waiting for a slot (answered 503).",
		}),
	}
}

// Enqueued: a hash starts waiting for a slot.
func (q *HashQueue) Enqueued() { q.waiting.Inc() }

// Started: the hash got a slot after waiting for waited.
func (q *HashQueue) Started(waited time.Duration) {
	q.waiting.Dec()
	q.running.Inc()
	q.wait.Observe(waited.Seconds())
}

// Finished: the hash that Started is done after took.
func (q *HashQueue) Finished(took time.Duration) {
	q.running.Dec()
	q.duration.Observe(took.Seconds())
}

// Rejected: the hash left the queue without a slot.
func (q *HashQueue) Rejected() {
	q.waiting.Dec()
	q.rejected.Inc()
}

func (q *HashQueue) collectors() []prometheus.Collector {
	return []prometheus.Collector{q.waiting, q.running, q.wait, q.duration, q.rejected}
}
