// Package analytics counts page views at the edge, where every page request
// passes (cache hits included), without a script, a cookie or anything that
// names a visitor (docs/analytics.md, decision 0028):
//
//   - views per day by page (an article by its own path), landings (no same-site Referer) by
//     campaign (utm tags, read before the edge drops them) and by referring
//     host, crawler visits by crawler and route, clicks per short link;
//   - the /go/<name> short links of shared/content/campaign-links.json;
//   - the staff page /staff/insights and its CSV files (page.go).
//
// The hit path's share is a few header lookups and atomic adds at fixed
// indexes; landings from other sites and campaigns take a mutex over maps
// capped per day. Counts are written every few seconds, one upsert per key,
// adding into the rows other edges write too (flush.go).
package analytics

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/storage"
	"omnibus/shared"
)

// Defaults.
const (
	// DefaultFlushEvery is how often counts are written to the database.
	DefaultFlushEvery = 5 * time.Second
	// DefaultCap is the number of distinct campaigns, and of referring
	// hosts, kept per day; the rest are counted as Other.
	DefaultCap = 200
)

// Options configure New.
type Options struct {
	DB        *storage.DB
	Routes    *shared.RouteTable // shared.Routes
	LinksJSON []byte             // shared/content/campaign-links.json
	BotsJSON  []byte             // shared/bots.json
	// PublicURL's host counts as the same site (besides the request's Host).
	PublicURL string
	// StaffAccess decides the staff page for a request (staff.PageAccess:
	// a studio session of the viewer role or above): allowed, or answered
	// already (sent to the studio's sign-in); neither: the 404 page. nil:
	// the staff page is the 404 page.
	StaffAccess func(http.ResponseWriter, *http.Request) (allowed, answered bool)
	// FlushEvery (default DefaultFlushEvery); Cap (default DefaultCap).
	FlushEvery time.Duration
	Cap        int
	// Now is the clock that names the day (default time.Now).
	Now    func() time.Time
	Logger *slog.Logger
}

// Tracker counts; see the package comment.
type Tracker struct {
	opts       Options
	db         *storage.DB
	log        *slog.Logger
	routes     routeIndex
	bots       *bots
	linkTable  atomic.Pointer[linkTable]
	publicHost string

	// Pending counts, swapped to zero by each flush.
	views  []atomic.Uint64 // by route
	crawls []atomic.Uint64 // by crawler*len(routes)+route
	direct atomic.Uint64   // landings without a Referer

	mu        sync.Mutex           // the maps below
	clicks    map[[2]string]uint64 // by link name and target
	campaigns map[campaign]uint64
	referrers map[string]uint64
	// pages are the pending views of pages of routes with parameters (an
	// article: /blog/article/:slug), by route index and path, so the counts
	// tell one article from another. Only answers of 200 are counted, so
	// only pages that exist; at most pathCap paths a day, the rest are
	// counted by route alone (views), here and at the flush (capNew).
	pages      map[pageKey]uint64
	knownPages map[pageKey]bool
	// known is today's admitted keys (at most Cap each), so the cap holds
	// between flushes; reset when the day changes.
	day            string
	knownCampaigns map[campaign]bool
	knownReferrers map[string]bool
	// search is the pending site-search counts (search.go); knownQueries
	// today's admitted queries (at most Cap).
	search       searchCounts
	knownQueries map[string]bool

	flushMu sync.Mutex // one flush at a time; pruned under it
	pruned  string     // the day prune last ran
	// beforeCommit, when set (tests), runs in a flush's transaction after
	// its writes.
	beforeCommit func()
	// Totals since start, for Prometheus (pending excluded), under totMu.
	totMu       sync.Mutex
	viewTotals  []uint64
	crawlTotals []uint64 // by crawler

	stop chan struct{}
	done chan struct{}
}

// New builds a tracker; Start runs its flushes.
func New(opts Options) (*Tracker, error) {
	if opts.FlushEvery <= 0 {
		opts.FlushEvery = DefaultFlushEvery
	}
	if opts.Cap <= 0 {
		opts.Cap = DefaultCap
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	t := &Tracker{opts: opts, db: opts.DB, log: opts.Logger, clicks: map[[2]string]uint64{},
		campaigns: map[campaign]uint64{}, referrers: map[string]uint64{}, pages: map[pageKey]uint64{}, knownPages: map[pageKey]bool{},
		knownCampaigns: map[campaign]bool{}, knownReferrers: map[string]bool{},
		search: newSearchCounts(), knownQueries: map[string]bool{}}
	var err error
	t.routes = indexRoutes(opts.Routes)
	if t.bots, err = parseBots(opts.BotsJSON); err != nil {
		return nil, err
	}
	links, err := ParseLinks(opts.LinksJSON, t.routes)
	if err != nil {
		return nil, err
	}
	t.linkTable.Store(newLinkTable(links))
	if u, err := url.Parse(opts.PublicURL); err == nil {
		t.publicHost = strings.ToLower(u.Hostname())
	}
	n := len(t.routes.patterns)
	t.views = make([]atomic.Uint64, n)
	t.crawls = make([]atomic.Uint64, n*t.bots.count())
	t.viewTotals = make([]uint64, n)
	t.crawlTotals = make([]uint64, t.bots.count())
	return t, nil
}

// Start writes the counts every FlushEvery until Close.
func (t *Tracker) Start() {
	t.stop, t.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(t.done)
		tick := time.NewTicker(t.opts.FlushEvery)
		defer tick.Stop()
		for {
			select {
			case <-t.stop:
				return
			case <-tick.C:
				ctx, cancel := context.WithTimeout(context.Background(), t.opts.FlushEvery)
				if err := t.Flush(ctx); err != nil {
					t.log.Warn("analytics: writing counts", "err", err)
				}
				cancel()
			}
		}
	}()
}

// Close stops the flushes and writes what is pending.
func (t *Tracker) Close() {
	if t.stop != nil {
		close(t.stop)
		<-t.done
		t.stop = nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := t.Flush(ctx); err != nil {
		t.log.Warn("analytics: writing counts", "err", err)
	}
}

// Header keys, canonical (Header.Get would canonicalise per request).
var (
	secPurposeKey = http.CanonicalHeaderKey("Sec-Purpose")
	purposeKey    = http.CanonicalHeaderKey("Purpose")
	xMozKey       = http.CanonicalHeaderKey("X-Moz")
	swKey         = http.CanonicalHeaderKey("Service-Worker")
	uaKey         = http.CanonicalHeaderKey("User-Agent")
	refererKey    = http.CanonicalHeaderKey("Referer")
)

// Pages wraps the page handler (outermost: it must see the utm tags before
// the edge drops them): the short links and the staff page answer here;
// every other page request goes on and is counted once answered.
func (t *Tracker) Pages(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := r.URL.Path
		if strings.HasPrefix(path, "/go/") && t.shortLink(w, r) {
			return
		}
		if strings.HasPrefix(path, StaffPath) && t.staffPage(w, r) {
			return
		}
		rawQuery := r.URL.RawQuery // the handlers below rewrite r.URL
		if _, ok := w.(*echo.Response); !ok {
			sw := &statusWriter{ResponseWriter: w}
			next.ServeHTTP(sw, r)
			t.count(sw.status, r, path, rawQuery)
			return
		}
		next.ServeHTTP(w, r)
		t.count(statusOf(w), r, path, rawQuery)
	})
}

// statusOf is the status of an answer written through echo (0 if none was).
func statusOf(w http.ResponseWriter) int {
	if er := w.(*echo.Response); er.Committed {
		return er.Status
	}
	return 0
}

// notCounted: HEAD and other methods are not views, nor a browser's
// prefetch or prerender (Sec-Purpose: prefetch, or prefetch;prerender;
// Purpose: prefetch in older Chromium and Safari; X-Moz: prefetch in
// Firefox), nor the service worker's own fetch of its script
// (Service-Worker: script). Any other value of those headers is no reason
// not to count.
func notCounted(r *http.Request) bool {
	h := r.Header
	return r.Method != http.MethodGet || prefetch(h[secPurposeKey]) || prefetch(h[purposeKey]) || prefetch(h[xMozKey]) || len(h[swKey]) > 0
}

// prefetch reports whether a Sec-Purpose, Purpose or X-Moz header says
// prefetch: its first item, without parameters (Sec-Purpose is a
// structured list: "prefetch;prerender", "prefetch;anonymous-client-ip").
func prefetch(v []string) bool {
	if len(v) == 0 {
		return false
	}
	item := v[0]
	if i := strings.IndexAny(item, ";,"); i >= 0 {
		item = item[:i]
	}
	return strings.EqualFold(strings.TrimSpace(item), "prefetch")
}

// count records a page request once answered: a view (or a crawler's
// visit) when the answer is a page (200, or 304 to a browser's own copy)
// of a route of the table.
func (t *Tracker) count(status int, r *http.Request, path, rawQuery string) {
	if countingOff {
		return // the bench's build without counting (count_off.go)
	}
	if (status != http.StatusOK && status != http.StatusNotModified) || notCounted(r) || strings.HasPrefix(path, "/staff") {
		return // the studio's own pages are staff at work, not visits
	}
	ri := t.routes.of(path)
	if ri < 0 {
		return
	}
	if ua := r.Header[uaKey]; len(ua) > 0 {
		if c := t.bots.crawler(ua[0]); c >= 0 {
			t.crawls[c*len(t.views)+ri].Add(1)
			return
		}
	}
	data := strings.HasSuffix(path, ".data")
	t.view(ri, strings.TrimSuffix(path, ".data"))
	t.searchClick(r, path)
	if data {
		return // a client-side navigation: never the first page of a visit
	}
	t.landing(r, campaignOf(rawQuery))
}

// pageKey is a page of a route with parameters.
type pageKey struct {
	route int
	path  string
}

// maxPathLen is the longest path kept (analytics_counts.dim2 holds 128).
const maxPathLen = 128

// view counts a view of route ri at path: by route alone for a route
// without parameters (its path is its pattern), by path for the others.
func (t *Tracker) view(ri int, path string) {
	if !t.routes.hasParams(ri) || len(path) > maxPathLen {
		t.views[ri].Add(1)
		return
	}
	t.mu.Lock()
	k := pageKey{ri, path}
	if !t.knownPages[k] && len(t.knownPages) < t.pathCap() {
		t.knownPages[k] = true
	}
	if t.knownPages[k] {
		t.pages[k]++
		t.mu.Unlock()
		return
	}
	t.mu.Unlock()
	t.views[ri].Add(1)
}

// pathCap is the number of distinct pages of routes with parameters
// counted by their own path per day: ten times Cap (2,000 articles).
func (t *Tracker) pathCap() int { return 10 * t.opts.Cap }

// landing counts a visit's first page (no same-site Referer) by referring
// host and, when tagged, by campaign.
func (t *Tracker) landing(r *http.Request, c campaign) {
	host := Direct
	if ref := r.Header[refererKey]; len(ref) > 0 && ref[0] != "" {
		var raw string
		host, raw = refererHost(ref[0])
		if raw != "" && (raw == hostOnly(r.Host) || raw == t.publicHost) {
			return // a page of this site led here
		}
	}
	if host == Direct && c.empty() {
		t.direct.Add(1)
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if host == Direct {
		t.direct.Add(1)
	} else {
		if !t.knownReferrers[host] {
			if len(t.knownReferrers) >= t.opts.Cap {
				host = Other
			} else {
				t.knownReferrers[host] = true
			}
		}
		t.referrers[host]++
	}
	if !c.empty() {
		t.addCampaignLocked(c)
	}
}

func (t *Tracker) addCampaignLocked(c campaign) {
	if !t.knownCampaigns[c] {
		if len(t.knownCampaigns) >= t.opts.Cap {
			c = campaign{Campaign: Other}
		} else {
			t.knownCampaigns[c] = true
		}
	}
	t.campaigns[c]++
}

// shortLink answers GET and HEAD /go/<name> for a link of the file: 302 to
// its target, counting a GET's click (not a prefetch's or a crawler's) and
// its campaign. False for anything else (the page handler answers: an
// unknown name is the 404 page).
func (t *Tracker) shortLink(w http.ResponseWriter, r *http.Request) bool {
	lt := t.linkTable.Load()
	i, ok := lt.idx[r.URL.Path[len(LinkPrefix):]]
	if !ok || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		return false
	}
	l := &lt.links[i]
	h := w.Header()
	h.Set("Location", l.Target)
	// Not kept by browsers or shared caches, so each click reaches the edge.
	h.Set("Cache-Control", "no-store")
	h.Set("X-Robots-Tag", "noindex")
	w.WriteHeader(http.StatusFound)
	if notCounted(r) {
		return true
	}
	if ua := r.Header[uaKey]; len(ua) > 0 && t.bots.crawler(ua[0]) >= 0 {
		return true // link previews (Slackbot, facebookexternalhit) are not clicks
	}
	landing := true
	if ref := r.Header[refererKey]; len(ref) > 0 {
		if _, raw := refererHost(ref[0]); raw != "" && (raw == hostOnly(r.Host) || raw == t.publicHost) {
			landing = false // clicked on the site itself: a click, not a landing
		}
	}
	t.mu.Lock()
	t.clicks[[2]string{l.Name, l.Target}]++
	if landing {
		t.addCampaignLocked(l.campaign)
	}
	t.mu.Unlock()
	return true
}

// Links are the short links served now, in the file's (or the store's) order.
func (t *Tracker) Links() []Link { return t.linkTable.Load().links }

// statusWriter notes the status for a caller that is not echo's (tests).
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(p []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(p)
}

func (s *statusWriter) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Totals gives the views by route and the crawler visits by crawler since
// the edge started (Prometheus: internal/metrics.WatchAnalytics). Both
// label sets are fixed by the route table and shared/bots.json.
func (t *Tracker) Totals(view func(route string, n uint64), crawl func(crawler string, n uint64)) {
	t.totMu.Lock()
	defer t.totMu.Unlock()
	nRoutes := len(t.views)
	pending := make([]uint64, nRoutes)
	t.mu.Lock()
	for k, n := range t.pages {
		pending[k.route] += n
	}
	t.mu.Unlock()
	for i, p := range t.routes.patterns {
		view(p, t.viewTotals[i]+t.views[i].Load()+pending[i])
	}
	for c := range t.bots.count() {
		n := t.crawlTotals[c]
		for i := range nRoutes {
			n += t.crawls[c*nRoutes+i].Load()
		}
		crawl(t.bots.name(c), n)
	}
}
