// Package cache is the edge's page cache. It wraps the page proxy: anonymous
// GET and HEAD requests for cacheable routes (the route table's policies) are
// answered from memory with the finished document in identity, gzip and
// brotli; a stale page is served at once while one background render
// refreshes it; concurrent misses share one render; anything that depends on
// the visitor, sets cookies or failed is never stored. Purges come from the
// admin API, the edge binary's command line and, on PostgreSQL, from other
// edge instances over LISTEN/NOTIFY.
//
// Which route a path is a page of, and its one address, are
// internal/canonical's (they run with the cache off too). What stays here,
// and why each is not a package of its own:
//
//   - purge fan-out and its acknowledgement (fanout.go, ack.go, purge.go,
//     cli.go: the endpoint and the command that asks it): a purge is
//     acknowledged once each edge has applied it to its store and warmed
//     the new copies, so the fan-out reads the store's generation and the
//     warming rounds; apart it would need the store's internals exported;
//   - the CDN purge (cdn.go): one step of applying a purge, in the same
//     order on every edge (store, then the caches in front), and it is
//     what the acknowledgement waits for; apart it would be a hook that
//     every purge path must remember to call;
//   - warming (warm.go): it renders through the cache's own render path
//     (singleflight, the store) and pauses while a visitor waits for a
//     render, which only the cache sees; its acknowledgement ends a purge.
package cache

import (
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	"omnibus/edge/internal/security"
	"omnibus/shared"
)

// AccountHeader carries the sign-in state the edge resolved from the session
// cookie (accounts.Pages, which runs first and strips any incoming copy). A
// request carrying it is signed in and gets a page made for that visitor, so
// it is never answered from, nor stored in, the shared cache. A cookie alone
// (made up, expired) does not bypass the cache.
var AccountHeader = shared.HTTP.AccountHeader

// formStateKey is the header a page rendered for a refused form post
// carries (internal/forms): that page is one visitor's, never shared.
var formStateKey = http.CanonicalHeaderKey(shared.HTTP.FormStateHeader)

// RenderModeHeader asks the renderer for the complete document (everything
// resolved, as crawlers get it) instead of a stream, so the one stored copy
// serves crawlers and browsers alike.
const RenderModeHeader = "X-Render-Mode"

// renderUserAgent is sent on cache renders. It matches isbot too, so a
// renderer that only knows isbot still renders the complete document.
const renderUserAgent = "Mozilla/5.0 (compatible; OmnibusEdgeCacheBot/1.0)"

// DefaultMaxBytes is the memory bound when none is configured.
const DefaultMaxBytes = 64 << 20

// Options configure a Cache.
type Options struct {
	// MaxBytes bounds the memory the entries use (bodies in all encodings
	// plus headers); the least recently used go first.
	MaxBytes int64
	// Policies come from the shared route table (NewPolicies).
	Policies Policies
	// RenderTimeout bounds one render the cache asks for (default 30s). A
	// render runs to the end even if the visitor who caused it leaves, since
	// others may be waiting for it.
	RenderTimeout time.Duration
	// Now is the clock (tests inject one).
	Now func() time.Time
	// Logger receives render failures (default slog.Default()).
	Logger *slog.Logger
	// Security seals stored documents: each render gets a nonce of its own,
	// which is then replaced by a Content-Security-Policy allowing the
	// page's inline scripts by hash (security.Policy.Seal). Nil: pages are
	// stored as rendered, without a policy of their own.
	Security *security.Policy
}

// Cache is the page cache. It is safe for concurrent use.
type Cache struct {
	policies      Policies
	renderTimeout time.Duration
	now           func() time.Time
	log           *slog.Logger
	security      *security.Policy
	onPurge       atomic.Pointer[func([]Target)]

	store *store
	group singleflight.Group
	gen   atomic.Uint64 // bumped by every purge: renders begun before one are not stored

	refreshMu  sync.Mutex
	refreshing map[string]bool
	background sync.WaitGroup

	fanout *fanout // set by StartFanout on PostgreSQL

	// Acknowledged purges (ack.go): name is this edge's, acks the purges
	// begun here that wait for answers (by id), pending the purges applied
	// here whose warm-up has not finished.
	name      string
	acks      sync.Map
	pendingMu sync.Mutex
	pending   []pendingWarm
	observe   struct {
		applied func(fromOther bool, d time.Duration)
		warmed  func(time.Duration)
	}

	warm    warmState   // warm.go
	warming atomic.Bool // StartWarming was called

	cdn       []string // caches in front, told of each purge (SetCDN)
	cdnClient *http.Client

	testHookFetch func() // called once a request has joined the render it waits for
}

// New returns an empty cache.
func New(opts Options) *Cache {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.RenderTimeout <= 0 {
		opts.RenderTimeout = 30 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Cache{
		policies:      opts.Policies,
		renderTimeout: opts.RenderTimeout,
		now:           opts.Now,
		log:           opts.Logger,
		security:      opts.Security,
		store:         newStore(opts.MaxBytes),
		refreshing:    map[string]bool{},
		name:          edgeName(),
	}
}

// Wrap returns the page handler with the cache in front of next (the page
// proxy). Requests the cache does not answer reach next unchanged and still
// stream.
func (c *Cache) Wrap(next http.Handler) http.Handler {
	c.warm.next = next
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.serveHTTP(w, r, next)
	})
}

// Stats reports how many pages are stored and the bytes they use.
func (c *Cache) Stats() (entries int, bytes int64) { return c.store.stats() }

// WaitIdle waits for background refreshes to finish (tests, shutdown).
func (c *Cache) WaitIdle() { c.background.Wait() }
