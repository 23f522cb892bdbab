package metrics_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/metrics"
	"omnibus/shared"
)

func newMetrics(t *testing.T) *metrics.Metrics {
	t.Helper()
	return metrics.New(shared.Routes)
}

func scrape(t *testing.T, h http.Handler) string {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("/metrics: %d %s", rec.Code, rec.Body)
	}
	return rec.Body.String()
}

// Requests are labelled by route pattern, never by the raw path, and odd
// methods share one label: a visitor cannot grow the series.
func TestRequestLabelsAreBounded(t *testing.T) {
	m := newMetrics(t)
	e := echo.New()
	e.Use(m.Middleware())
	e.GET("/api/v1/help/slug/:slug", func(c echo.Context) error { return c.NoContent(http.StatusOK) })
	e.RouteNotFound("/*", func(c echo.Context) error { return c.NoContent(http.StatusNotFound) })
	for _, r := range []struct{ method, path string }{
		{"GET", "/api/v1/help/slug/one"},
		{"GET", "/api/v1/help/slug/two"},
		{"GET", "/blog/article/first-post"},
		{"GET", "/blog/article/second-post"},
		{"GET", "/features.data"},
		{"GET", "/no/such/page/123"},
		{"GET", "/assets/app-abc123.js"},
		{"BREW", "/coffee"},
	} {
		e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(r.method, r.path, nil))
	}
	out := scrape(t, m.Handler())
	for _, want := range []string{
		`omnibus_http_requests_total{method="GET",route="/api/v1/help/slug/:slug",status="200"} 2`,
		`omnibus_http_requests_total{method="GET",route="/blog/article/:slug",status="404"} 2`,
		`omnibus_http_requests_total{method="GET",route="/features.data",status="404"} 1`,
		`omnibus_http_requests_total{method="GET",route="not-found",status="404"} 1`,
		`omnibus_http_requests_total{method="GET",route="/assets/*",status="404"} 1`,
		`omnibus_http_requests_total{method="OTHER",route="not-found",status="404"} 1`,
		`omnibus_http_request_duration_seconds_count{method="GET",route="/blog/article/:slug"} 2`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s", want)
		}
	}
	for _, raw := range []string{"first-post", "/no/such", "coffee", "BREW", "abc123"} {
		if strings.Contains(out, raw) {
			t.Errorf("a raw request value %q became a label", raw)
		}
	}
}

// Page answers are counted by the cache's X-Cache with their bytes; the
// renders behind it by status class, with their duration.
func TestCacheAndRenderSeries(t *testing.T) {
	m := newMetrics(t)
	render := m.Renders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, "<html>page</html>")
	}))
	pages := m.PageCache(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		result := r.URL.Query().Get("x")
		w.Header().Set("X-Cache", result)
		if result == "MISS" || result == "BYPASS" {
			render.ServeHTTP(w, r)
			return
		}
		io.WriteString(w, "cached")
	}))
	for _, x := range []string{"MISS", "HIT", "HIT", "STALE", "BYPASS"} {
		pages.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/?x="+x, nil))
	}
	out := scrape(t, m.Handler())
	for _, want := range []string{
		`omnibus_page_cache_requests_total{result="hit"} 2`,
		`omnibus_page_cache_requests_total{result="miss"} 1`,
		`omnibus_page_cache_requests_total{result="stale"} 1`,
		`omnibus_page_cache_requests_total{result="bypass"} 1`,
		`omnibus_page_cache_response_bytes_total{result="hit"} 12`,
		`omnibus_page_cache_response_bytes_total{result="miss"} 17`,
		`omnibus_renders_total{status="2xx"} 2`,
		`omnibus_render_duration_seconds_count 2`,
		`omnibus_render_first_byte_seconds_count 2`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s", want)
		}
	}
}

// The renderer's own metrics join the edge's in one scrape; when the
// renderer does not answer, the edge's still come, with the renderer marked down.
func TestRendererMetricsInTheSameScrape(t *testing.T) {
	renderer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		io.WriteString(w, "# HELP omnibus_renderer_request_duration_seconds x\n# TYPE omnibus_renderer_request_duration_seconds histogram\n"+
			`omnibus_renderer_request_duration_seconds_bucket{route="home",status="2xx",le="+Inf"} 3`+"\n"+
			`omnibus_renderer_request_duration_seconds_sum{route="home",status="2xx"} 0.3`+"\n"+
			`omnibus_renderer_request_duration_seconds_count{route="home",status="2xx"} 3`+"\n")
	}))
	m := newMetrics(t)
	m.ScrapeRenderer(renderer.URL + "/metrics")
	h := m.Handler()
	out := scrape(t, h)
	for _, want := range []string{
		`omnibus_renderer_request_duration_seconds_count{route="home",status="2xx"} 3`,
		"omnibus_renderer_metrics_up 1",
		"go_goroutines",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s", want)
		}
	}

	renderer.Close()
	out = scrape(t, h)
	if !strings.Contains(out, "omnibus_renderer_metrics_up 0") || !strings.Contains(out, "go_goroutines") {
		t.Errorf("with the renderer down:\n%s", out)
	}
}

// The hooks other packages call show up in every registry.
func TestHooks(t *testing.T) {
	m := newMetrics(t)
	metrics.RateLimitRefused("test_limit")
	metrics.HashQueue.Enqueued()
	metrics.HashQueue.Rejected()
	out := scrape(t, m.Handler())
	for _, want := range []string{
		`omnibus_ratelimit_refusals_total{limit="test_limit"} 1`,
		"omnibus_password_hash_rejected_total 1",
		"omnibus_password_hash_queue_waiting 0",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s", want)
		}
	}
}

// Which build answers, and whether purges from other edges arrive.
func TestBuildInfoAndPurgeListenerSeries(t *testing.T) {
	m := newMetrics(t)
	up := true
	m.WatchPurgeListener(func() bool { return up })
	out := scrape(t, m.Handler())
	if !strings.Contains(out, `omnibus_build_info{commit="`) || !strings.Contains(out, `version="`) {
		t.Errorf("no omnibus_build_info{version,commit} series:\n%s", out)
	}
	if !strings.Contains(out, "omnibus_cache_purge_listener_up 1") {
		t.Error("omnibus_cache_purge_listener_up is not 1 while the listener is up")
	}
	up = false
	if out := scrape(t, m.Handler()); !strings.Contains(out, "omnibus_cache_purge_listener_up 0") {
		t.Error("omnibus_cache_purge_listener_up is not 0 while the listener is down")
	}
}
