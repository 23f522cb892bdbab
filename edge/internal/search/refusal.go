package search

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"omnibus/edge/internal/cache"
	"omnibus/edge/internal/httpx/encoding"
	"omnibus/edge/internal/security"
	"omnibus/edge/internal/theme"
	"omnibus/shared"
)

// A client over its search limit gets the "too many searches" page with 429
// and Retry-After, from an answer rendered once and kept: a refusal costs
// the edge a copy of bytes, never a render, so a flood of random queries
// from one client cannot take the renderer's cores from the pages everyone
// else reads (docs/decisions/0065-a-refused-search-costs-no-render.md).
const (
	// RefusalKept is how long a rendered refusal is answered before it is
	// rendered again (the site's header and footer may have changed).
	RefusalKept = time.Minute
	// refusalFailedKept is how long the plain fallback answers for a variant
	// whose render failed, before the renderer is asked again.
	refusalFailedKept = 10 * time.Second
	// maxRefusalBytes caps a kept render; a bigger one is not kept.
	maxRefusalBytes = 1 << 20
	// maxRefusalVariants caps the kept answers: a page and its React Router
	// data request, per colour theme and sign-in status (a handful, all set
	// by the edge); past it they are all dropped and rendered again.
	maxRefusalVariants = 64
	refusalTimeout     = 10 * time.Second
)

// refusals keeps one rendered refusal per variant.
type refusals struct {
	seal  *security.Policy // nil: the answers go out as rendered
	now   func() time.Time
	group singleflight.Group
	mu    sync.Mutex
	kept  map[string]*refusal
}

// refusal is one kept answer, with its body in each coding.
type refusal struct {
	status int
	header http.Header
	bodies map[string][]byte // by coding: "" (identity), encoding.Brotli, encoding.Gzip
	until  time.Time
}

var accountKey = http.CanonicalHeaderKey(shared.HTTP.AccountHeader)

// refusalVariant is what the kept answer for r depends on: the page or its
// data request, the colour theme and the sign-in status (the account
// header's value: a handful of values, never who the visitor is).
func refusalVariant(r *http.Request) string {
	kind := "page"
	if strings.HasSuffix(r.URL.Path, ".data") {
		kind = "data"
	}
	return kind + " " + theme.Of(r) + "\n" + r.Header.Get(accountKey)
}

// serve answers r with the kept refusal of its variant, rendering it
// through next first when there is none (one render for every request
// waiting on it).
func (f *refusals) serve(w http.ResponseWriter, r *http.Request, next http.Handler, wait time.Duration) {
	key := refusalVariant(r)
	f.mu.Lock()
	ans := f.kept[key]
	f.mu.Unlock()
	if ans == nil || !f.now().Before(ans.until) {
		v, _, _ := f.group.Do(key, func() (any, error) {
			ans := f.render(r, next)
			f.mu.Lock()
			if f.kept == nil || len(f.kept) >= maxRefusalVariants {
				f.kept = map[string]*refusal{}
			}
			f.kept[key] = ans
			f.mu.Unlock()
			return ans, nil
		})
		ans = v.(*refusal)
	}
	h := w.Header()
	for k, v := range ans.header {
		h[k] = v
	}
	coding := encoding.Negotiate(r.Header.Get("Accept-Encoding"), ans.bodies[encoding.Brotli] != nil, ans.bodies[encoding.Gzip] != nil)
	body := ans.bodies[coding]
	if coding != "" {
		h.Set("Content-Encoding", coding)
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(wait.Seconds())))))
	w.WriteHeader(ans.status)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// render asks next for the search page of r's variant with no query and
// the status "limited", as its answer to anyone over the limit; the plain
// fallback when the renderer does not answer it.
func (f *refusals) render(orig *http.Request, next http.Handler) *refusal {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(orig.Context()), refusalTimeout)
	defer cancel()
	u := *orig.URL
	u.RawQuery = ""
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fallbackRefusal(f.now())
	}
	req.Host, req.RemoteAddr, req.RequestURI = orig.Host, orig.RemoteAddr, u.RequestURI()
	req.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
	req.Header.Set("Accept-Encoding", "identity")
	req.Header.Set("User-Agent", "Mozilla/5.0 (compatible; OmnibusEdgeSearchBot/1.0)")
	req.Header.Set(cache.RenderModeHeader, "complete")
	for _, h := range []string{"X-Forwarded-Proto", "X-Forwarded-Host", "X-Request-Id", accountKey} {
		if v := orig.Header.Get(h); v != "" {
			req.Header.Set(h, v)
		}
	}
	if t := theme.Of(orig); t != "" {
		req.AddCookie(&http.Cookie{Name: theme.Cookie, Value: t})
	}
	req.Header[Header] = []string{encode(&Result{Status: StatusLimited, Results: []Item{}})}
	nonce := security.NewNonce()
	req.Header.Set(security.NonceHeader, nonce)

	rec := cache.NewRecorder(maxRefusalBytes)
	if err := rec.Serve(next, req); err != nil || rec.Status() != http.StatusTooManyRequests || rec.TooBig() || len(rec.Header().Values("Set-Cookie")) > 0 {
		return fallbackRefusal(f.now())
	}
	body, header := rec.Body(), http.Header{}
	for _, k := range []string{"Content-Type", "Content-Language", "Link", "X-Remix-Response"} {
		if v := rec.Header().Values(k); len(v) > 0 {
			header[k] = v
		}
	}
	if f.seal != nil {
		// One document for many visitors: its inline scripts allowed by
		// hash, as the page cache's pages are.
		var csp string
		if body, csp = f.seal.Seal(body, rec.Header().Get("Content-Type"), nonce); csp != "" {
			header.Set(security.CSPHeader, csp)
		}
	}
	return newRefusal(http.StatusTooManyRequests, header, body, f.now().Add(RefusalKept))
}

func newRefusal(status int, header http.Header, body []byte, until time.Time) *refusal {
	header.Set("Cache-Control", "no-store")
	header.Set("X-Robots-Tag", "noindex")
	header.Set("Vary", "Accept-Encoding")
	ans := &refusal{status: status, header: header, bodies: map[string][]byte{"": bytes.Clone(body)}, until: until}
	if encoding.Compressible(header.Get("Content-Type")) {
		ans.bodies[encoding.Brotli] = encoding.Bytes(encoding.Brotli, body)
		ans.bodies[encoding.Gzip] = encoding.Bytes(encoding.Gzip, body)
	}
	return ans
}

// fallbackRefusal is the page without the renderer: the same words
// (shared/content/search.json), plain.
func fallbackRefusal(now time.Time) *refusal {
	var words struct{ Heading, TooMany string }
	_ = json.Unmarshal(shared.SearchJSON, &words)
	body := fmt.Sprintf(`<!DOCTYPE html><html lang="en-US"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>%[1]s — Omnibus</title></head><body><main><h1>%[1]s</h1><p>%[2]s</p><p><a href="/">Omnibus</a></p></main></body></html>`,
		html.EscapeString(words.Heading), html.EscapeString(words.TooMany))
	return newRefusal(http.StatusTooManyRequests, http.Header{"Content-Type": {"text/html; charset=utf-8"}}, []byte(body), now.Add(refusalFailedKept))
}
