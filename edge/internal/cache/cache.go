// Package cache is the edge's page cache. It wraps the page proxy: anonymous
// GET and HEAD requests for cacheable routes (the route table's policies) are
// answered from memory with the finished document in identity, gzip and
// brotli; a stale page is served at once while one background render
// refreshes it; concurrent misses share one render; anything that depends on
// the visitor, sets cookies or failed is never stored. Purges come from the
// admin API, the edge binary's command line and, on PostgreSQL, from other
// edge instances over LISTEN/NOTIFY.
package cache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"

	"omnibus/edge/internal/security"
	"omnibus/edge/internal/theme"
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
	// Policies come from the shared route table (ParsePolicies).
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

	store *store
	group singleflight.Group
	gen   atomic.Uint64 // bumped by every purge: renders begun before one are not stored

	refreshMu  sync.Mutex
	refreshing map[string]bool
	background sync.WaitGroup

	fanout *fanout // set by StartFanout on PostgreSQL

	warm    warmState   // warm.go
	warming atomic.Bool // StartWarming was called

	cdn       []string // caches in front, told of each purge (SetCDN)
	cdnClient *http.Client

	testHookFetch func() // called as a request starts waiting for a render
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

func (c *Cache) serveHTTP(w http.ResponseWriter, r *http.Request, next http.Handler) {
	if !anonymousRead(r) {
		bypass(w, r, next)
		return
	}
	// Only cacheable routes are ever stored, so a stored page needs no
	// policy lookup; a miss checks the route first.
	key := withVariant(Key(r.URL), r)
	old := c.store.get(key)
	if old == nil {
		policy, known := c.policies.match(r.URL.Path)
		if policy.Private {
			bypass(w, r, next)
			return
		}
		if !known {
			// Every path the route table does not know is the one
			// not-found page: one render and one entry for them all, so
			// random paths are neither renders nor entries of their own
			// (issue 28.2).
			key = withVariant(notFoundKey(r.URL.Path), r)
			old = c.store.get(key)
		}
	}
	if old != nil {
		// One clock read serves the freshness check and the Age header.
		age := c.now().Sub(old.stored)
		if age < old.policy.Fresh {
			serve(w, r, old, "HIT", age)
			return
		}
		if age < old.policy.Fresh+old.policy.Stale {
			c.refreshInBackground(key, r, next)
			serve(w, r, old, "STALE", age)
			return
		}
		// Past its stale window: render now, but keep the old page in case
		// the renderer cannot answer.
	}
	res, ok := c.fetch(r, key, next)
	switch {
	case !ok:
		return // the visitor left while waiting
	case res.failed && old != nil:
		c.serve(w, r, old, "STALE")
	case res.entry != nil:
		c.serve(w, r, res.entry, "MISS")
	default:
		// The renderer's answer is personal (cookies, private) or too large
		// to share: this visitor asks for its own.
		bypass(w, r, next)
	}
}

// notFoundPath is the path the shared not-found page is rendered at and
// stored under: a path no route of the table has.
const notFoundPath = "/__not-found"

// notFoundKey is the key of the not-found page for a path the route table
// does not know (its React Router data request for a .data path).
func notFoundKey(path string) string {
	if strings.HasSuffix(path, ".data") {
		return notFoundPath + ".data"
	}
	return notFoundPath
}

// anonymousRead reports whether a request may be answered from the shared
// cache: a GET or HEAD of no signed-in visitor, without credentials, that is
// not the page of a refused form post.
func anonymousRead(r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	// By canonical key: Header.Get canonicalizes its argument on every call,
	// and this runs on every page request.
	h := r.Header
	return first(h[accountKey]) == "" && len(h[formStateKey]) == 0 && first(h["Authorization"]) == "" && first(h["Upgrade"]) == ""
}

// accountKey is AccountHeader in canonical form.
var accountKey = http.CanonicalHeaderKey(AccountHeader)

// first is a header's first value, as Header.Get gives it for a canonical key.
func first(vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	return vs[0]
}

// result is what one render gives every request waiting for it.
type result struct {
	entry  *entry // the answer to share; nil means each request asks for its own
	failed bool   // the renderer failed (5xx, or no complete answer)
}

// fetch renders key once however many requests ask at the same time; each
// waits for the shared result unless it gives up first (ok false).
func (c *Cache) fetch(r *http.Request, key string, next http.Handler) (res result, ok bool) {
	if c.testHookFetch != nil {
		c.testHookFetch()
	}
	c.warm.waiting.Add(1) // warming pauses meanwhile
	defer c.warm.waiting.Add(-1)
	ch := c.group.DoChan(key, func() (any, error) {
		// A render that finished between this request's lookup and now has
		// stored a fresh page: use it rather than render again.
		if e := c.store.get(key); e != nil && c.now().Sub(e.stored) < e.policy.Fresh {
			return result{entry: e}, nil
		}
		return c.render(r, key, next), nil
	})
	select {
	case v := <-ch:
		return v.Val.(result), true
	case <-r.Context().Done():
		return result{}, false
	}
}

// refreshInBackground starts one render of key unless one is running.
func (c *Cache) refreshInBackground(key string, r *http.Request, next http.Handler) {
	c.refreshMu.Lock()
	if c.refreshing[key] {
		c.refreshMu.Unlock()
		return
	}
	c.refreshing[key] = true
	c.background.Add(1)
	c.refreshMu.Unlock()
	go func() {
		defer c.background.Done()
		defer func() {
			c.refreshMu.Lock()
			delete(c.refreshing, key)
			c.refreshMu.Unlock()
		}()
		res := <-c.group.DoChan(key, func() (any, error) { return c.render(r, key, next), nil })
		if res.Val.(result).failed {
			c.log.WarnContext(r.Context(), "cache: background refresh failed; still serving the stale page", "key", key)
		}
	}()
}

// render asks next for the complete document of key as an anonymous visitor
// would see it, stores it when it may be shared for later, and returns it.
func (c *Cache) render(orig *http.Request, key string, next http.Handler) result {
	gen := c.gen.Load()
	// The render outlives the request that started it (others wait for it),
	// but keeps its values (the proxy may look at the server in there).
	ctx, cancel := context.WithTimeout(context.WithoutCancel(orig.Context()), c.renderTimeout)
	defer cancel()
	req, err := renderRequest(ctx, orig, key)
	if err != nil {
		c.log.ErrorContext(ctx, "cache: render request", "key", key, "err", err)
		return result{failed: true}
	}
	nonce := ""
	if c.security != nil {
		nonce = security.NewNonce()
		req.Header.Set(security.NonceHeader, nonce)
	}
	rec := newRecorder(c.store.maxBytes)
	if err := serveRecorded(next, rec, req); err != nil {
		c.log.WarnContext(ctx, "cache: render failed", "key", key, "err", err)
		return result{failed: true}
	}
	status := rec.statusCode()
	if rec.tooBig {
		return result{} // each visitor gets it streamed, unstored
	}
	if why := rec.incomplete(); why != "" {
		c.log.WarnContext(ctx, "cache: incomplete render not kept", "key", key, "status", status, "why", why)
		return result{failed: true}
	}
	// One document for many visitors: no nonce of its own, its inline
	// scripts allowed by hash.
	body := rec.buf.Bytes()
	if c.security != nil {
		var csp string
		if body, csp = c.security.Seal(body, rec.header.Get("Content-Type"), nonce); csp != "" {
			rec.header.Set(security.CSPHeader, csp)
		}
	}
	if status >= 500 {
		if len(rec.header.Values("Set-Cookie")) > 0 {
			return result{failed: true}
		}
		// Shared with the requests waiting now (with its Retry-After and
		// no-store), never stored.
		return result{entry: &entry{key: key, status: status, header: sharedHeader(rec.header), body: body}, failed: true}
	}
	if why := personal(rec.header); why != "" {
		return result{} // each visitor asks for its own
	}
	policy, storable := c.policyFor(orig.URL.Path, status)
	if !storable { // e.g. a temporary redirect: shared now, not kept
		return result{entry: &entry{key: key, status: status, header: sharedHeader(rec.header), body: body}}
	}
	// Kept bytes are copied to their exact size: entries are counted by len.
	e := &entry{key: key, status: status, header: storedHeader(rec.header), body: bytes.Clone(body)}
	e.policy = policy
	e.stored = c.now()
	e.cacheControl = []string{fmt.Sprintf("public, max-age=0, s-maxage=%d, stale-while-revalidate=%d",
		int(policy.Fresh.Seconds()), int(policy.Stale.Seconds()))}
	sum := sha256.Sum256(e.body)
	hash := hex.EncodeToString(sum[:12])
	e.hash, e.owner = hash, c.store
	e.variants[identity].Store(newVariant(e.body, hash, identity))
	if e.compress = compressible(e.header.Get("Content-Type")) && len(e.body) > 0; e.compress {
		for _, enc := range eagerEncodings(orig) {
			e.variants[enc].Store(newVariant(encodeBytes(enc, e.body), hash, enc))
		}
	}
	e.computeSize()
	if c.gen.Load() != gen {
		// A purge ran while this was rendering: the page may predate the
		// change the purge was for. Answer with it, but do not keep it.
		return result{entry: e}
	}
	c.store.put(e)
	return result{entry: e}
}

// policyFor is the policy a response of this status may be stored under.
func (c *Cache) policyFor(path string, status int) (Policy, bool) {
	switch status {
	case http.StatusOK, http.StatusMovedPermanently, http.StatusPermanentRedirect:
		p := c.policies.For(path)
		return p, !p.Private && p.Fresh+p.Stale > 0
	case http.StatusNotFound, http.StatusGone:
		p := c.policies.NotFound()
		return p, !p.Private && p.Fresh+p.Stale > 0
	}
	return Policy{}, false
}

// renderRequest is the anonymous request the cache sends for key: no cookies
// or credentials but the key's theme, no compression (the cache compresses
// once), complete mode.
func renderRequest(ctx context.Context, orig *http.Request, key string) (*http.Request, error) {
	key, variant := splitVariant(key)
	u := *orig.URL
	u.RawQuery = ""
	if _, q, ok := strings.Cut(key, "?"); ok {
		u.RawQuery = q
	}
	if p := keyPath(key); p == notFoundPath || p == notFoundPath+".data" {
		u.Path, u.RawPath = p, "" // the not-found page, for whatever path asked
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Host = orig.Host
	req.RemoteAddr = orig.RemoteAddr
	req.Proto, req.ProtoMajor, req.ProtoMinor = orig.Proto, orig.ProtoMajor, orig.ProtoMinor
	req.RequestURI = u.RequestURI()
	req.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
	req.Header.Set("Accept-Encoding", "identity")
	req.Header.Set("User-Agent", renderUserAgent)
	req.Header.Set(RenderModeHeader, "complete")
	if variant != "" {
		req.AddCookie(&http.Cookie{Name: theme.Cookie, Value: variant})
	}
	for _, h := range []string{"X-Forwarded-Proto", "X-Forwarded-Host", "X-Request-Id"} {
		if v := orig.Header.Get(h); v != "" {
			req.Header.Set(h, v)
		}
	}
	return req, nil
}

// serveRecorded runs next, turning the panic httputil.ReverseProxy raises
// when an upstream body breaks off into an error.
func serveRecorded(next http.Handler, rec *recorder, req *http.Request) (err error) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				err = errors.New("upstream response broke off")
				return
			}
			err = fmt.Errorf("panic: %v", v)
		}
	}()
	next.ServeHTTP(rec, req)
	return nil
}

// personal reports why a response must not be shared with other visitors.
func personal(h http.Header) string {
	if len(h.Values("Set-Cookie")) > 0 {
		return "sets a cookie"
	}
	cc := strings.ToLower(strings.Join(h.Values("Cache-Control"), ","))
	for _, d := range []string{"no-store", "private", "no-cache"} {
		if strings.Contains(cc, d) {
			return "Cache-Control: " + cc
		}
	}
	return ""
}

// perResponse are headers the cache sets itself on every answer, so the
// renderer's copies are not kept.
var perResponse = []string{
	"Cache-Control", "Age", "Date", "Expires", "ETag", "Last-Modified", "Vary",
	"Content-Length", "Content-Encoding", "Transfer-Encoding", "Connection",
	"Keep-Alive", "Set-Cookie", "X-Cache", "Retry-After", "X-Request-Id", "Trailer",
}

// sharedHeader is the renderer's header for a one-off answer given to the
// requests that waited for it: as sent, less what belongs to one connection.
func sharedHeader(h http.Header) http.Header {
	s := h.Clone()
	for _, k := range []string{"Content-Length", "Transfer-Encoding", "Connection", "Keep-Alive", "X-Request-Id", "Trailer"} {
		s.Del(k)
	}
	return s
}

func storedHeader(h http.Header) http.Header {
	s := h.Clone()
	for _, k := range perResponse {
		s.Del(k)
	}
	return s
}

// Header values the hit path assigns as they are (no allocation). A later
// Add elsewhere copies them, since their capacity is their length.
var (
	xCacheValues   = map[string][]string{"HIT": {"HIT"}, "MISS": {"MISS"}, "STALE": {"STALE"}}
	varyEncoding   = []string{"Accept-Encoding"}
	privateNoCache = []string{"private, no-cache"}
)

// serve writes e at the cache's current time (misses and stale fallbacks).
func (c *Cache) serve(w http.ResponseWriter, r *http.Request, e *entry, xcache string) {
	serve(w, r, e, xcache, c.now().Sub(e.stored))
}

// serve writes a stored (or shared) entry, age old, in the encoding the
// client prefers. Headers are assigned directly by canonical key: this is
// the hot path.
func serve(w http.ResponseWriter, r *http.Request, e *entry, xcache string, age time.Duration) {
	h := w.Header()
	for k, vs := range e.header {
		h[k] = vs // clipped slices (Header.Clone): an Add elsewhere copies
	}
	h["X-Cache"] = xCacheValues[xcache]
	id := e.variants[identity].Load()
	if id == nil { // shared once, never stored: 5xx, temporary redirects
		if h.Get("Cache-Control") == "" {
			h.Set("Cache-Control", "no-store")
		}
		h.Set("Content-Length", strconv.Itoa(len(e.body)))
		w.WriteHeader(e.status)
		if r.Method != http.MethodHead {
			w.Write(e.body)
		}
		return
	}
	h["Cache-Control"] = e.cacheControl
	if len(h["Set-Cookie"]) > 0 {
		// The edge cleared a dead session cookie on this answer: the page
		// is shared, this answer is not.
		h["Cache-Control"] = privateNoCache
	}
	if secs := int(age / time.Second); secs > 0 {
		h["Age"] = e.ageHeader(secs)
	}
	v := id
	if e.compress {
		h["Vary"] = varyEncoding
		if enc := negotiate(first(r.Header["Accept-Encoding"]), true, true); enc != identity {
			v = e.variant(enc)
		}
	}
	if e.status == http.StatusOK {
		h["Etag"] = v.etagHeader
		if inm := first(r.Header["If-None-Match"]); inm != "" && notModified(inm, v.etag) {
			delete(h, "Content-Type")
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	if v.encoding != nil {
		h["Content-Encoding"] = v.encoding
	}
	h["Content-Length"] = v.contentLength
	w.WriteHeader(e.status)
	if r.Method != http.MethodHead {
		w.Write(v.body)
	}
}

// notModified evaluates If-None-Match against etag (weak comparison, as the
// header is defined to use).
func notModified(ifNoneMatch, etag string) bool {
	if ifNoneMatch == "" {
		return false
	}
	for _, t := range strings.Split(ifNoneMatch, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

// bypass sends the request to next untouched (it streams) and marks the
// answer X-Cache: BYPASS. An answer without its own Cache-Control is marked
// private, since it may have been made for this visitor.
func bypass(w http.ResponseWriter, r *http.Request, next http.Handler) {
	next.ServeHTTP(&bypassWriter{ResponseWriter: w}, r)
}

type bypassWriter struct {
	http.ResponseWriter
	wrote bool
}

func (b *bypassWriter) WriteHeader(status int) {
	if !b.wrote && status >= 200 { // 1xx (103 Early Hints) come before the answer
		b.wrote = true
		h := b.ResponseWriter.Header()
		h.Set("X-Cache", "BYPASS")
		if h.Get("Cache-Control") == "" {
			h.Set("Cache-Control", "private, no-cache")
		}
	}
	b.ResponseWriter.WriteHeader(status)
}

func (b *bypassWriter) Write(p []byte) (int, error) {
	if !b.wrote {
		b.WriteHeader(http.StatusOK)
	}
	return b.ResponseWriter.Write(p)
}

func (b *bypassWriter) Flush() {
	if !b.wrote {
		b.WriteHeader(http.StatusOK)
	}
	http.NewResponseController(b.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the real writer.
func (b *bypassWriter) Unwrap() http.ResponseWriter { return b.ResponseWriter }
