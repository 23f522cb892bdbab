package cache

// The render path: one render of a page however many requests miss it at
// once (fetch), background refreshes of stale pages, and what a render
// comes to (result).

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"

	"omnibus/edge/internal/proxy"
	"omnibus/edge/internal/security"
	"omnibus/edge/internal/theme"
)

// kind is what a render came to, for every request waiting for it.
type kind int

const (
	// renderHit: a fresh page another render stored meanwhile; nothing rendered.
	renderHit kind = iota + 1
	// renderStored: rendered and kept for later visitors.
	renderStored
	// renderShared: rendered and given to the requests waiting now, not kept (a
	// temporary redirect, a page rendered while a purge ran).
	renderShared
	// renderOwn: the answer is one visitor's (cookies, private) or too large to
	// hold: each waiting request asks the renderer for its own.
	renderOwn
	// renderFailed: the renderer failed. entry is the failure answer the waiting
	// requests share (the renderer's 5xx, or the edge's own "back in a
	// moment" page), never stored; a request with a stale copy serves that
	// instead. No waiting request goes to the failing renderer again.
	renderFailed
)

// result is what one render gives every request waiting for it.
type result struct {
	kind  kind
	entry *entry // the answer; nil only for renderOwn
}

// failure is the failed result for a render that left no answer of its
// own (it broke off, came back incomplete, or could not be asked): the
// edge's 503 page, as the proxy answers when the renderer is down.
func failure(key string) result {
	rec := NewRecorder(1 << 20)
	proxy.Unavailable(rec, http.StatusServiceUnavailable)
	return result{kind: renderFailed, entry: &entry{key: key, status: rec.Status(), header: sharedHeader(rec.Header()), body: rec.Body()}}
}

// fetch renders key once however many requests ask at the same time; each
// waits for the shared result unless it gives up first (ok false).
func (c *Cache) fetch(r *http.Request, key string, next http.Handler) (res result, ok bool) {
	c.warm.waiting.Add(1) // warming pauses meanwhile
	defer c.warm.waiting.Add(-1)
	ch := c.group.DoChan(key, func() (any, error) {
		// A render that finished between this request's lookup and now has
		// stored a fresh page: use it rather than render again.
		if e := c.store.get(key); e != nil && c.now().Sub(e.stored) < e.policy.Fresh {
			return result{kind: renderHit, entry: e}, nil
		}
		return c.render(r, key, next), nil
	})
	// After DoChan: this request has joined the render it waits for (a
	// hook before it let a test's render finish before the last request
	// had joined, which then rendered again).
	if c.testHookFetch != nil {
		c.testHookFetch()
	}
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
		if res.Val.(result).kind == renderFailed {
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
		return failure(key)
	}
	nonce := ""
	if c.security != nil {
		nonce = security.NewNonce()
		req.Header.Set(security.NonceHeader, nonce)
	}
	rec := NewRecorder(c.store.maxBytes)
	if err := rec.Serve(next, req); err != nil {
		c.log.WarnContext(ctx, "cache: render failed", "key", key, "err", err)
		return failure(key)
	}
	status := rec.Status()
	if rec.TooBig() {
		return result{kind: renderOwn} // each visitor gets it streamed, unstored
	}
	if why := rec.incomplete(); why != "" {
		c.log.WarnContext(ctx, "cache: incomplete render not kept", "key", key, "status", status, "why", why)
		return failure(key)
	}
	// One document for many visitors: no nonce of its own, its inline
	// scripts allowed by hash.
	body := rec.Body()
	if c.security != nil {
		var csp string
		if body, csp = c.security.Seal(body, rec.Header().Get("Content-Type"), nonce); csp != "" {
			rec.Header().Set(security.CSPHeader, csp)
		}
	}
	if status >= 500 {
		if len(rec.Header().Values("Set-Cookie")) > 0 {
			return failure(key) // a cookie is nobody else's to get
		}
		// Shared with the requests waiting now (with its Retry-After and
		// no-store), never stored.
		return result{kind: renderFailed, entry: &entry{key: key, status: status, header: sharedHeader(rec.Header()), body: body}}
	}
	if why := personal(rec.Header()); why != "" {
		return result{kind: renderOwn} // each visitor asks for its own
	}
	policy, storable := c.policyFor(orig.URL.Path, status)
	if !storable { // e.g. a temporary redirect: shared now, not kept
		return result{kind: renderShared, entry: &entry{key: key, status: status, header: sharedHeader(rec.Header()), body: body}}
	}
	// Kept bytes are copied to their exact size: entries are counted by len.
	e := &entry{key: key, status: status, header: storedHeader(rec.Header()), body: bytes.Clone(body)}
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
		return result{kind: renderShared, entry: e}
	}
	c.store.put(e)
	return result{kind: renderStored, entry: e}
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

// renderRequest is the request the cache sends for key: no cookies or
// credentials but the key's theme and account header (the sign-in status
// alone), no compression (the cache compresses once), complete mode.
func renderRequest(ctx context.Context, orig *http.Request, key string) (*http.Request, error) {
	key, variant, account := splitVariant(key)
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
	if account != "" {
		req.Header[accountKey] = []string{account}
	}
	for _, h := range []string{"X-Forwarded-Proto", "X-Forwarded-Host", "X-Request-Id"} {
		if v := orig.Header.Get(h); v != "" {
			req.Header.Set(h, v)
		}
	}
	return req, nil
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
// renderer's copies are not kept. Last-Modified is kept: the content
// store's layer sets it from the page's content date (content.PageData),
// and a stored page answers If-Modified-Since with it (serve).
var perResponse = []string{
	"Cache-Control", "Age", "Date", "Expires", "ETag", "Vary",
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
