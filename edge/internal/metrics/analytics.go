package metrics

import "github.com/prometheus/client_golang/prometheus"

// Page views and crawler visits, read from the analytics
// tracker's counters at each scrape: nothing more on the request path.
// Only these two have labels of bounded cardinality (the route table, the
// crawler names of shared/bots.json); campaigns and referrers stay in the
// database with their per-day cap.
var (
	pageViewsDesc = prometheus.NewDesc("omnibus_page_views_total",
		"Page views counted at the edge (cache hits included; no crawlers, prefetches, HEAD or errors), by route pattern.",
		[]string{"route"}, nil)
	crawlerVisitsDesc = prometheus.NewDesc("omnibus_crawler_visits_total",
		"Page visits by crawlers (the renderer's isbot list), by crawler name.",
		[]string{"crawler"}, nil)
)

// AnalyticsTotals calls view for every route and crawl for every crawler
// with their counts since start (analytics.Tracker.Totals).
type AnalyticsTotals func(view func(route string, n uint64), crawl func(crawler string, n uint64))

// WatchAnalytics exposes omnibus_page_views_total and
// omnibus_crawler_visits_total.
func (m *Metrics) WatchAnalytics(totals AnalyticsTotals) {
	m.reg.MustRegister(analyticsCollector(totals))
}

type analyticsCollector AnalyticsTotals

func (analyticsCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- pageViewsDesc
	ch <- crawlerVisitsDesc
}

func (a analyticsCollector) Collect(ch chan<- prometheus.Metric) {
	a(func(route string, n uint64) {
		ch <- prometheus.MustNewConstMetric(pageViewsDesc, prometheus.CounterValue, float64(n), route)
	}, func(crawler string, n uint64) {
		ch <- prometheus.MustNewConstMetric(crawlerVisitsDesc, prometheus.CounterValue, float64(n), crawler)
	})
}
