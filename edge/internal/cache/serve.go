package cache

// The serve path: which requests the cache may answer, answering from a
// stored page (fresh, stale, or past its stale window while the renderer
// fails), and passing the rest through untouched (bypass).

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

func (c *Cache) serveHTTP(w http.ResponseWriter, r *http.Request, next http.Handler) {
	if !sharedRead(r) {
		bypass(w, r, next)
		return
	}
	// Only cacheable routes are ever stored, so a stored page needs no
	// policy lookup; a miss checks the route first.
	key := withVariant(Key(r.URL), r)
	old := c.store.get(key)
	if old == nil {
		policy, known := c.policies.match(r.URL)
		signedIn := first(r.Header[accountKey]) != ""
		// A signed-in visitor's page is shared by everyone of the same
		// sign-in status (the variant), unless the edge hands the page
		// the visitor's own data (edgeData) or the path is no route.
		if policy.Private || signedIn && (policy.OwnData || !known) {
			bypass(w, r, next)
			return
		}
		if !known {
			// Every path the route table does not know is the one
			// not-found page: one render and one entry for them all, so
			// random paths are neither renders nor entries of their own,
			// and a flood of them cannot evict the pages visitors read.
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
	case res.kind == renderFailed && old != nil:
		c.serve(w, r, old, "STALE")
	case res.kind == renderOwn:
		// The renderer's answer is personal (cookies, private) or too large
		// to share: this visitor asks for its own.
		bypass(w, r, next)
	default: // hit, stored, shared, or the failure every waiter shares
		c.serve(w, r, res.entry, "MISS")
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

// sharedRead reports whether a request may be answered from the cache: a
// GET or HEAD without credentials of its own (a signed-in visitor's are
// the account header, the edge's: see withVariant), that is not the page of
// a refused form post.
func sharedRead(r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	// By canonical key: Header.Get canonicalizes its argument on every call,
	// and this runs on every page request.
	h := r.Header
	return len(h[formStateKey]) == 0 && first(h["Authorization"]) == "" && first(h["Upgrade"]) == ""
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
	if len(h["Set-Cookie"]) > 0 || len(r.Header[accountKey]) > 0 {
		// The edge cleared or slid a session cookie on this answer, or it is
		// a signed-in visitor's: the page is shared here, this answer is not
		// (no CDN or browser shares it).
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
		// If-None-Match decides when sent; else If-Modified-Since against
		// the page's content date (RFC 9110 13.2.2): what crawlers send.
		inm := first(r.Header["If-None-Match"])
		if inm != "" && notModified(inm, v.etag) || inm == "" && unmodifiedSince(r, h) {
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

// unmodifiedSince reports a request's If-Modified-Since at or after the
// answer's Last-Modified (both HTTP dates, to the second).
func unmodifiedSince(r *http.Request, h http.Header) bool {
	ims, lm := first(r.Header["If-Modified-Since"]), first(h["Last-Modified"])
	if ims == "" || lm == "" {
		return false
	}
	since, err1 := http.ParseTime(ims)
	mod, err2 := http.ParseTime(lm)
	return err1 == nil && err2 == nil && !mod.After(since)
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
