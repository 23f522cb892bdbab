package metrics

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// rendererGatherer fetches the renderer's exposition (prom-client's text
// format) at each scrape and hands it to the edge's handler as metric
// families, so both reach Prometheus in one scrape and in whatever format it
// asked for. The renderer's metrics port is loopback-only and nothing on the
// public port leads to it.
type rendererGatherer struct {
	url    string
	client *http.Client
	up     prometheus.Gauge
}

// rendererScrapeTimeout bounds the fetch; a scrape never waits longer on a
// stuck renderer.
const rendererScrapeTimeout = 3 * time.Second

// maxRendererExposition bounds what one fetch may read.
const maxRendererExposition = 4 << 20

func newRendererGatherer(url string) *rendererGatherer {
	return &rendererGatherer{
		url:    url,
		client: &http.Client{Timeout: rendererScrapeTimeout},
		up: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "omnibus_renderer_metrics_up",
			Help: "1 when the last scrape got the renderer's own metrics, 0 when it did not answer.",
		}),
	}
}

func (g *rendererGatherer) Gather() ([]*dto.MetricFamily, error) {
	mfs, err := g.fetch()
	if err != nil {
		g.up.Set(0)
		return nil, fmt.Errorf("renderer metrics at %s: %w", g.url, err)
	}
	g.up.Set(1)
	return mfs, nil
}

func (g *rendererGatherer) fetch() ([]*dto.MetricFamily, error) {
	ctx, cancel := context.WithTimeout(context.Background(), rendererScrapeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/plain;version=0.0.4")
	res, err := g.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("answered %s", res.Status)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	byName, err := parser.TextToMetricFamilies(io.LimitReader(res.Body, maxRendererExposition))
	if err != nil {
		return nil, err
	}
	mfs := make([]*dto.MetricFamily, 0, len(byName))
	for _, mf := range byName {
		mfs = append(mfs, mf)
	}
	return mfs, nil
}
