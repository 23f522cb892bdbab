package metrics_test

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/config"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// After a few page loads, METRICS_ADDR shows the cache and render series,
// the renderer's own (render time by route, event-loop lag) and the pool's,
// in one scrape; the public port serves none of it.
func TestMetricsEndpointAfterPageLoads(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e := edgetest.Start(t, edgetest.Options{
			DB: db, RealRenderer: true,
			Config: func(c *config.Config) { c.MetricsAddr = "127.0.0.1:0" },
		})
		if e.App.MetricsURL == "" {
			t.Fatal("no metrics listener")
		}
		for _, path := range []string{"/", "/", "/features", "/blog/article/no-such-article"} {
			e.Get(t, path)
		}

		wants := []string{
			`omnibus_http_requests_total{method="GET",route="/",status="200"} 2`,
			`omnibus_http_requests_total{method="GET",route="/blog/article/:slug",status="404"} 1`,
			`omnibus_page_cache_requests_total{result="miss"} 3`,
			`omnibus_page_cache_requests_total{result="hit"} 1`,
			`omnibus_page_cache_response_bytes_total{result="hit"}`,
			`omnibus_page_cache_entries 3`,
			`omnibus_renders_total{status="2xx"} 2`,
			`omnibus_renders_total{status="4xx"} 1`,
			`omnibus_render_duration_seconds_count 3`,
			`omnibus_renderer_starts_total`,
			`omnibus_renderer_metrics_up 1`,
			// the renderer's own, by route id (which child holds the metrics
			// port, the first or its warmed-up standby, is up to the supervisor)
			`omnibus_renderer_request_duration_seconds_count{route="`,
			`omnibus_renderer_nodejs_eventloop_lag_seconds`,
			`go_sql_open_connections{db_name="omnibus"}`,
		}
		// A request is counted once its handler is done, which may be just
		// after the visitor has the whole answer: scrape until it is in.
		var out string
		var lack []string
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			var status int
			status, out = get(t, e.App.MetricsURL)
			if status != http.StatusOK {
				t.Fatalf("metrics: %d", status)
			}
			lack = lack[:0]
			for _, want := range wants {
				if !strings.Contains(out, want) {
					lack = append(lack, want)
				}
			}
			if len(lack) == 0 || time.Now().After(deadline) {
				break
			}
		}
		for _, want := range lack {
			t.Errorf("metrics lack %s", want)
		}
		if t.Failed() {
			t.Logf("metrics:\n%s", out)
		}

		// Not on the public port, nor through it to the renderer.
		for _, path := range []string{"/metrics", "/metrics/", "/__renderer/metrics"} {
			_, body := get(t, e.URL+path)
			if metricLine.MatchString(body) || strings.Contains(body, "# TYPE") {
				t.Errorf("the public port serves metrics at %s", path)
			}
		}
		// The renderer's page port (which the edge proxies) has no metrics either.
		if _, body := get(t, e.Renderer.URL().String()+"/metrics"); strings.Contains(body, "# TYPE") {
			t.Error("the renderer serves its metrics on its page port")
		}
	})
}

// The renderer's log lines are JSON and carry the edge's request id.
func TestRendererLogsCarryTheRequestID(t *testing.T) {
	t.Setenv("LOG_LEVEL", "debug") // the renderer's per-request line is at debug
	e := edgetest.Start(t, edgetest.Options{RealRenderer: true})
	const id = "test-request-id-4711"
	req, _ := http.NewRequest(http.MethodGet, e.URL+"/features", nil)
	req.Header.Set("User-Agent", edgetest.ChromeUA)
	req.Header.Set("X-Request-ID", id)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()

	logged := func() bool {
		for _, line := range strings.Split(e.RendererLog(), "\n") {
			if strings.HasPrefix(line, "{") && strings.Contains(line, `"request_id":"`+id+`"`) && strings.Contains(line, `"route":"features"`) {
				return true
			}
		}
		return false
	}
	poll.Until(t, 10*time.Second, logged, "no JSON log line of the renderer carries request id %s", id)
}

// metricLine is a line of the Prometheus text format naming one of ours
// (a page may name omnibus_… cookies; only an exposition has such lines).
var metricLine = regexp.MustCompile(`(?m)^omnibus_\w+[ {]`)
