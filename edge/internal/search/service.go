// Package search is the site's search (docs/decisions/0051-search.md): an
// in-memory index of the help and blog articles and the product pages,
// English word forms, one typo from five letters on, prefixes and the
// synonyms of shared/content/search-synonyms.json.
//
//   - The /search page: the edge answers ?q= itself and sends the results
//     to the renderer with the page request, in the search header of
//     shared/http.json (Pages), as the journey pages get their data; the
//     page works without JavaScript.
//   - GET /api/v1/search?q=: the same results as JSON, for the search
//     box's results as the visitor types (not counted).
//   - Index.Upsert and Index.Remove: a change is seen by the next search on
//     this edge. Index.Apply follows the content store's change on the edge
//     that committed it, Index.ApplyPath the purge of the changed article's
//     page on every other edge (change.go).
//
// What a visitor can make it spend is bounded: a query is cut to
// MaxQueryRunes characters and MaxQueryWords words, searches are limited
// per client (the page's, each a render, more tightly than the API's; a
// refused one is a page kept, no render: refusal.go), and results are
// answered from a cache of at most MaxCacheEntries results of at most
// MaxResultBytes each.
package search

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/httpx/response"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/security"
	"omnibus/shared"
)

// Bounds.
const (
	// MaxResults is how many results a search answers with.
	MaxResults = 10
	// MaxCacheEntries caps the results kept; the least recently used go.
	MaxCacheEntries = 2048
	// MaxResultBytes caps one result's encoding (the header's value): a
	// longer one loses results from its end. The renderer reads headers of
	// up to 48 KB (ssr/server.js).
	MaxResultBytes = 12 << 10
	// MaxCacheBytes is the cache's ceiling, MaxCacheEntries full results.
	MaxCacheBytes = MaxCacheEntries * MaxResultBytes
	// LimitBurst searches at once per client, one more every LimitEvery
	// (typing with results as you type stays well inside it).
	LimitBurst = 40
	LimitEvery = 250 * time.Millisecond
	// PageLimitBurst searches of the page at once per client, one more
	// every PageLimitEvery: each is a render on the renderer, which the
	// cached pages everyone reads share the machine with. A visitor reads
	// results for longer than that; typing uses the API's limit.
	PageLimitBurst = 10
	PageLimitEvery = 2 * time.Second
)

// Path is the search page.
const Path = "/search"

// Header is the search header of shared/http.json.
var Header = http.CanonicalHeaderKey(shared.HTTP.SearchHeader)

// Statuses of a Result.
const (
	StatusOK      = "ok"      // searched (Results may be empty)
	StatusEmpty   = "empty"   // no query
	StatusLimited = "limited" // the client searched too often
)

// Result is what the page (and the API) gets.
type Result struct {
	Status string `json:"status"`
	// Query is the query as searched (Normalise).
	Query string `json:"query"`
	// Total is how many documents matched (Results holds the first ones).
	Total   int    `json:"total"`
	Results []Item `json:"results"`
}

// Item is one result.
type Item struct {
	Type     string    `json:"type"`
	URL      string    `json:"url"`
	Category string    `json:"category"`
	Title    []Segment `json:"title"`
	Snippet  []Segment `json:"snippet"`
}

// Options configure New.
type Options struct {
	Index *Index
	// Limiter limits the API's searches per client (default LimitBurst per
	// client, one more every LimitEvery, in this edge's memory).
	Limiter *ratelimit.Limiter
	// PageLimiter limits the page's searches per client (default
	// PageLimitBurst, one more every PageLimitEvery, in this edge's memory).
	PageLimiter *ratelimit.Limiter
	// Searched, when set, is told of every search of the page (not of the
	// API's type-ahead): the request, the query as searched and how many
	// documents matched (internal/analytics counts them).
	Searched func(r *http.Request, query string, total int)
	// Security seals the kept "too many searches" page (refusal.go) as the
	// page cache seals its pages; nil sends it as rendered.
	Security *security.Policy
	// Now is the clock of the kept refusals (default time.Now).
	Now func() time.Time
}

// Service answers searches.
type Service struct {
	opts Options
	mu   sync.Mutex
	// cache holds encoded results by query, each with the index generation
	// it was computed at.
	cache *simplelru.LRU[string, cached]
	bytes int
	// refused answers a client over its limit.
	refused refusals
}

type cached struct {
	gen     uint64
	res     *Result
	encoded string // base64url JSON, the header's value
}

// New returns the service.
func New(opts Options) *Service {
	if opts.Limiter == nil {
		opts.Limiter = ratelimit.New(LimitBurst, LimitEvery)
	}
	if opts.PageLimiter == nil {
		opts.PageLimiter = ratelimit.New(PageLimitBurst, PageLimitEvery)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Service{opts: opts, refused: refusals{seal: opts.Security, now: opts.Now}}
	s.cache, _ = simplelru.NewLRU[string, cached](MaxCacheEntries, func(_ string, v cached) {
		s.bytes -= len(v.encoded)
	})
	return s
}

// CacheSize is the number of results kept and their bytes.
func (s *Service) CacheSize() (entries, bytes int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cache.Len(), s.bytes
}

// search answers the normalised query q from the cache or the index.
func (s *Service) search(q string) cached {
	ix := s.opts.Index
	gen := ix.Generation()
	s.mu.Lock()
	if c, ok := s.cache.Get(q); ok && c.gen == gen {
		s.mu.Unlock()
		return c
	}
	s.mu.Unlock()
	hits, total := ix.Search(q, MaxResults)
	res := &Result{Status: StatusOK, Query: q, Total: total, Results: make([]Item, 0, len(hits))}
	for _, h := range hits {
		res.Results = append(res.Results, Item{Type: h.Doc.Type, URL: h.Doc.URL, Category: h.Doc.Category, Title: h.Title, Snippet: h.Snippet})
	}
	enc := encode(res)
	for len(enc) > MaxResultBytes && len(res.Results) > 0 {
		res.Results = res.Results[:len(res.Results)-1]
		enc = encode(res)
	}
	c := cached{gen: gen, res: res, encoded: enc}
	s.mu.Lock()
	if old, ok := s.cache.Peek(q); ok {
		s.bytes -= len(old.encoded)
	}
	s.cache.Add(q, c)
	s.bytes += len(enc)
	s.mu.Unlock()
	return c
}

func encode(v any) string {
	b, _ := json.Marshal(v)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Pages wraps the page handler: a request for the search page (or its
// React Router data request) gets the results of its ?q= in Header. It
// runs before the page cache, which never stores the search page (its
// route is private): random queries are neither renders kept nor cache
// entries of the pages. A client over its limit is answered here, from the
// kept refusal (refusal.go), without a render.
func (s *Service) Pages(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if pagePath(r.URL.Path) != Path || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			next.ServeHTTP(w, r)
			return
		}
		q := Normalise(r.URL.Query().Get("q"))
		if q == "" {
			r.Header[Header] = []string{encode(&Result{Status: StatusEmpty, Results: []Item{}})}
			next.ServeHTTP(w, r)
			return
		}
		if ok, wait := s.opts.PageLimiter.Allow(r.Context(), s.opts.PageLimiter.Client(r)); !ok {
			s.refused.serve(w, r, next, wait)
			return
		}
		c := s.search(q)
		if s.opts.Searched != nil {
			s.opts.Searched(r, q, c.res.Total)
		}
		r.Header[Header] = []string{c.encoded}
		next.ServeHTTP(w, r)
	})
}

// Register adds GET /api/v1/search?q= to the API group: {"data": Result}
// (429 when the client searched too often).
func (s *Service) Register(api *echo.Group) {
	api.GET("/search", func(c echo.Context) error {
		r := c.Request()
		q := Normalise(r.URL.Query().Get("q"))
		if q == "" {
			return response.OK(c, map[string]any{"data": Result{Status: StatusEmpty, Results: []Item{}}})
		}
		if ok, wait := s.opts.Limiter.Allow(r.Context(), s.opts.Limiter.ClientKey(c.RealIP())); !ok {
			return response.TooManyRequests(c, wait)
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		c.Response().Header().Set("X-Robots-Tag", "noindex")
		return response.OK(c, map[string]any{"data": s.search(q).res})
	})
}

// pagePath is the page a path renders: a React Router data request
// (/search.data) is its page's.
func pagePath(p string) string {
	p = strings.TrimSuffix(p, ".data")
	if p != "/" {
		p = strings.TrimSuffix(p, "/")
	}
	return p
}
