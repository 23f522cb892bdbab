// Package metrics exposes the edge's Prometheus metrics (the official Go
// client) on a listener of its own (METRICS_ADDR), never on the public port.
//
// One scrape shows the edge and its renderer: the handler gathers the edge's
// registry and the renderer's own metrics (prom-client, served on the
// renderer's loopback metrics port), merged into one exposition.
//
// Every label is bounded: requests are labelled by route pattern (the echo
// route, or the page's pattern in shared/routes.json), never by raw path;
// methods outside the standard set become OTHER.
package metrics

import (
	"database/sql"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"

	"omnibus/edge/internal/buildinfo"
	"omnibus/edge/internal/routepath"
	"omnibus/shared"
)

// Metrics is one edge's registry and the instruments that feed it.
type Metrics struct {
	reg    *prometheus.Registry
	routes []route

	requests       *prometheus.CounterVec
	requestSeconds *prometheus.HistogramVec
	cacheResults   *prometheus.CounterVec
	cacheBytes     *prometheus.CounterVec
	renders        *prometheus.CounterVec
	renderSeconds  prometheus.Histogram
	renderTTFB     prometheus.Histogram

	renderer atomic.Pointer[rendererGatherer]
}

// New builds the registry. table is the route table (shared.Routes), whose
// paths name the page routes.
func New(table *shared.RouteTable) *Metrics {
	m := &Metrics{
		reg:    prometheus.NewRegistry(),
		routes: routesOf(table),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "omnibus_http_requests_total",
			Help: "HTTP requests answered by the edge, by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		requestSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "omnibus_http_request_duration_seconds",
			Help:    "Time from a request's arrival to its last byte (page streams included), by route pattern and method.",
			Buckets: []float64{0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30},
		}, []string{"route", "method"}),
		cacheResults: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "omnibus_page_cache_requests_total",
			Help: "Page requests by page-cache result (hit, miss, stale, bypass).",
		}, []string{"result"}),
		cacheBytes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "omnibus_page_cache_response_bytes_total",
			Help: "Body bytes of page answers by page-cache result.",
		}, []string{"result"}),
		renders: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "omnibus_renders_total",
			Help: "Requests the edge passed to the renderer (cache misses, refreshes, bypasses), by status class.",
		}, []string{"status"}),
		renderSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "omnibus_render_duration_seconds",
			Help:    "Time the renderer took to send a whole page, as the edge saw it.",
			Buckets: []float64{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30},
		}),
		renderTTFB: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "omnibus_render_first_byte_seconds",
			Help:    "Time until the renderer sent a page's status and headers.",
			Buckets: []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5},
		}),
	}
	m.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.requests, m.requestSeconds, m.cacheResults, m.cacheBytes, m.renders, m.renderSeconds, m.renderTTFB,
		rateLimitRefusals, rateLimitKeys, rateLimitMaxKeys,
	)
	m.reg.MustRegister(HashQueue.collectors()...)
	// Which build answers: a rolling update shows two series side by side.
	build := prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "omnibus_build_info",
		Help: "Always 1; the edge's version and VCS commit as labels.",
	}, []string{"version", "commit"})
	build.WithLabelValues(buildinfo.Version(), buildinfo.Commit()).Set(1)
	m.reg.MustRegister(build)
	return m
}

// WatchPurgeListener exposes whether the purge fan-out's LISTEN connection
// is up (PostgreSQL): while it is down, purges made on other edges do not
// reach this one (it purges everything when it reconnects).
func (m *Metrics) WatchPurgeListener(up func() bool) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "omnibus_cache_purge_listener_up",
		Help: "1 while this edge listens for other edges' purges (PostgreSQL LISTEN), 0 while it reconnects.",
	}, func() float64 {
		if up() {
			return 1
		}
		return 0
	}))
}

// Registry is the edge's registry, for more collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Middleware counts and times every request of the echo server. Add it with
// Server.Use after server.New, so it runs inside the access log and sees the
// final status.
func (m *Metrics) Middleware() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			if err := next(c); err != nil {
				c.Error(err) // write the error answer now, so its status is counted
			}
			r := c.Request()
			route, method := m.routeOf(c), methodOf(r.Method)
			m.requests.WithLabelValues(route, method, strconv.Itoa(c.Response().Status)).Inc()
			m.requestSeconds.WithLabelValues(route, method).Observe(time.Since(start).Seconds())
			return nil
		}
	}
}

// routeOf is the request's route pattern: echo's for registered routes,
// the route table's for pages, else a fixed bucket.
func (m *Metrics) routeOf(c echo.Context) string {
	p := c.Path()
	if p != "/*" && p != "" {
		return p // "/api/v1/help/slug/:slug", "/healthz", "/api/*" (unknown API path)
	}
	path := c.Request().URL.Path
	if strings.HasPrefix(path, "/assets/") {
		return "/assets/*"
	}
	if r, ok := m.pageRoute(path); ok {
		return r
	}
	if last := path[strings.LastIndexByte(path, '/')+1:]; strings.Contains(last, ".") {
		return "static" // the client build's other files (favicon, manifest), or a miss
	}
	return "not-found"
}

// PageCache wraps the page cache's handler: each answer is counted by its
// X-Cache (HIT, MISS, STALE, BYPASS) with its body bytes.
func (m *Metrics) PageCache(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &recorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		result := strings.ToLower(w.Header().Get("X-Cache"))
		switch result {
		case "hit", "miss", "stale", "bypass":
		default:
			return // answered before the cache decided (a redirect rule)
		}
		m.cacheResults.WithLabelValues(result).Inc()
		m.cacheBytes.WithLabelValues(result).Add(float64(rec.bytes))
	})
}

// Renders wraps the renderer proxy: every request that reaches the renderer
// is counted by status class and timed to its first and last byte.
func (m *Metrics) Renders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &recorder{ResponseWriter: w, start: time.Now()}
		next.ServeHTTP(rec, r)
		if rec.status == 0 {
			return // the visitor left before any answer
		}
		m.renders.WithLabelValues(strconv.Itoa(rec.status/100) + "xx").Inc()
		m.renderTTFB.Observe(rec.headerAt.Sub(rec.start).Seconds())
		m.renderSeconds.Observe(time.Since(rec.start).Seconds())
	})
}

// WatchRenderer exposes how many renderer children the supervisor has
// started (renderer.Supervisor.Starts): the first and its standby at start,
// then one more for each restart.
func (m *Metrics) WatchRenderer(starts func() int) {
	m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "omnibus_renderer_starts_total",
		Help: "Renderer children started by the supervisor (standbys included); it rises when one exits and is replaced.",
	}, func() float64 { return float64(starts()) }))
}

// WatchCache exposes the page cache's size (cache.Cache.Stats).
func (m *Metrics) WatchCache(stats func() (entries int, bytes int64)) {
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "omnibus_page_cache_entries",
			Help: "Pages held by the page cache.",
		}, func() float64 { n, _ := stats(); return float64(n) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "omnibus_page_cache_bytes",
			Help: "Bytes held by the page cache (every encoding and header), bounded by CACHE_MAX_BYTES.",
		}, func() float64 { _, b := stats(); return float64(b) }),
	)
}

// WatchWarming exposes the page cache's warm-up (cache.Cache.WarmState).
func (m *Metrics) WatchWarming(state func() (done bool, took time.Duration)) {
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "omnibus_page_cache_warm_done",
			Help: "1 when the last warm-up of the page cache stored every cacheable page and nothing was purged since.",
		}, func() float64 {
			if done, _ := state(); done {
				return 1
			}
			return 0
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "omnibus_page_cache_warm_seconds",
			Help: "How long the last complete warm-up of the page cache took.",
		}, func() float64 { _, took := state(); return took.Seconds() }),
	)
}

// WatchDatabase exposes omnibus_database_up: up is the database's last
// known state (storage.Health, pinged in the background), read at scrape
// time without waiting on the database. /readyz reports the same state
// without failing on it (a database outage is not a page outage).
func (m *Metrics) WatchDatabase(up func() bool) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "omnibus_database_up",
		Help: "1 when the database answered the edge's last ping (one a second, 1 s timeout), 0 when not (pages in the cache still serve).",
	}, func() float64 {
		if up() {
			return 1
		}
		return 0
	}))
}

// WatchAssetsPublished exposes omnibus_assets_published: 1 once this
// build's hashed files are in the shared database (assets.KeepPublishing),
// 0 while not: other builds' pages miss them on other edges meanwhile.
func (m *Metrics) WatchAssetsPublished(published func() bool) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "omnibus_assets_published",
		Help: "1 when this build's hashed files are in the shared database for the other builds' edges, 0 while not (retrying).",
	}, func() float64 {
		if published() {
			return 1
		}
		return 0
	}))
}

// WatchDB exposes the connection pool's use (go_sql_* series: open, in use,
// idle, waits and wait time).
func (m *Metrics) WatchDB(db *sql.DB) {
	m.reg.MustRegister(collectors.NewDBStatsCollector(db, "omnibus"))
}

// ScrapeRenderer adds the renderer's own metrics, fetched from url (its
// loopback /metrics) at each scrape, to this edge's.
func (m *Metrics) ScrapeRenderer(url string) {
	r := newRendererGatherer(url)
	m.reg.MustRegister(r.up)
	m.renderer.Store(r)
}

// Handler serves the exposition: the edge's registry and, when
// ScrapeRenderer was called, the renderer's metrics. A renderer that does
// not answer leaves its series out (omnibus_renderer_metrics_up 0).
// The handler may be made before ScrapeRenderer is called.
func (m *Metrics) Handler() http.Handler {
	g := prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) {
		r := m.renderer.Load()
		if r == nil {
			return m.reg.Gather()
		}
		return prometheus.Gatherers{r, m.reg}.Gather() // the renderer first: it sets its up gauge
	})
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(g, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError}))
	return mux
}

// NewServer is the HTTP server for METRICS_ADDR: /metrics only, with the
// public listener's header timeout.
func (m *Metrics) NewServer() *http.Server {
	return &http.Server{Handler: m.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second}
}

var standardMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodOptions: true,
}

// methodOf keeps the label bounded: a client can send any method token.
func methodOf(m string) string {
	if standardMethods[m] {
		return m
	}
	return "OTHER"
}

type route struct {
	pattern  string
	segments []string // ":slug" matches any one segment
}

func routesOf(table *shared.RouteTable) []route {
	routes := make([]route, 0, len(table.Routes))
	for _, r := range table.Routes {
		routes = append(routes, route{pattern: r.Path, segments: routepath.Split(r.Path)})
	}
	return routes
}

// pageRoute is the route-table pattern path belongs to; a React Router data
// request (/features.data, /_root.data) is its page's pattern plus ".data".
func (m *Metrics) pageRoute(path string) (string, bool) {
	suffix := ""
	if p, ok := strings.CutSuffix(path, ".data"); ok {
		path, suffix = p, ".data"
		if path == "/_root" {
			path = "/"
		}
	}
	segs := routepath.Split(path)
	for _, r := range m.routes {
		if routepath.Match(r.segments, segs) {
			return r.pattern + suffix, true
		}
	}
	return "", false
}

// recorder notes an answer's status, when its header went out and its body
// bytes, and keeps streaming intact (Flush, Unwrap for ResponseController).
type recorder struct {
	http.ResponseWriter
	status   int
	bytes    int64
	start    time.Time
	headerAt time.Time
}

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 && status >= 200 {
		r.status, r.headerAt = status, time.Now()
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status, r.headerAt = http.StatusOK, time.Now()
	}
	n, err := r.ResponseWriter.Write(p)
	r.bytes += int64(n)
	return n, err
}

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
