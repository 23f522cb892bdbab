package cache

import (
	"log/slog"
	"net/http"
	"testing"

	"omnibus/edge/internal/canonical"
	"omnibus/shared"
)

// The route table's own query lists and every odd form of a path: junk
// queries are hits with the renderer seeing none of them, other path forms
// are redirected to the one canonical address (never off the site), and a
// purge of /features leaves nothing that renders it.
func TestCanonicalAddresses(t *testing.T) {
	addresses := canonical.New(shared.Routes)
	c := New(Options{Policies: NewPolicies(addresses), Logger: slog.New(slog.DiscardHandler)})
	up := &renderer{}
	h := addresses.Canonical(c.Wrap(up))

	expect(t, get(h, "/features"), 200, "MISS")
	for _, junk := range []string{"?utm_source=x", "?page=2&q=%27OR%201=1", "?a", "?;;;", "?newsletter=subscribed&x=1"} {
		w := get(h, "/features"+junk)
		if junk == "?newsletter=subscribed&x=1" {
			// The footer's newsletter outcome is read by the page: its own entry.
			expect(t, w, 200, "MISS")
			if q := up.lastRequest().URL.RawQuery; q != "newsletter=subscribed" {
				t.Errorf("renderer saw %q, want only the newsletter outcome", q)
			}
			continue
		}
		expect(t, w, 200, "HIT")
	}
	if n := up.calls.Load(); n != 2 {
		t.Errorf("%d renders for /features and its junk queries, want 2", n)
	}

	// Parameters a page reads reach it; others are dropped.
	get(h, "/reset-password?token=abc&evil=1")
	if q := up.lastRequest().URL.RawQuery; q != "token=abc" {
		t.Errorf("/reset-password: renderer saw %q", q)
	}
	get(h, "/contact-us?outcome=sent&field=email&x=y")
	if q := up.lastRequest().URL.RawQuery; q != "outcome=sent" {
		t.Errorf("/contact-us: renderer saw %q", q)
	}
	get(h, "/features.data?_routes=root%2Cfeatures&x=1")
	if q := up.lastRequest().URL.RawQuery; q != "_routes=root%2Cfeatures" {
		t.Errorf("/features.data: renderer saw %q", q)
	}
	// A cached page's parameter keeps only a value the route table declares,
	// so random values cannot each become a render and an entry; React Router's _routes only this table's route ids.
	for _, junk := range []string{"?outcome=x1", "?newsletter=random", "?newsletter=error&reason=nope"} {
		get(h, "/contact-us"+junk)
		if q := up.lastRequest().URL.RawQuery; q != "" && q != "newsletter=error" {
			t.Errorf("/contact-us%s: renderer saw %q", junk, q)
		}
	}
	get(h, "/features.data?_routes=routes%2Fevil")
	if q := up.lastRequest().URL.RawQuery; q != "" {
		t.Errorf("/features.data?_routes=routes/evil: renderer saw %q", q)
	}

	for from, to := range map[string]string{
		"/features/":              "/features",
		"/./features":             "/features",
		"/%66eatures":             "/features",
		"//features":              "/features",
		"/blog/../features":       "/features",
		"/features//?x=1":         "/features",
		"/login/?error=malformed": "/login?error=malformed",
		"//evil.example/features": "/evil.example/features",
		"/%2F/evil.example":       "/evil.example",
	} {
		w := get(h, from)
		if w.Code != http.StatusMovedPermanently || w.Header().Get("Location") != to {
			t.Errorf("%s: %d → %q, want 301 → %q", from, w.Code, w.Header().Get("Location"), to)
		}
	}
	// Other methods are rewritten, not redirected.
	do(h, http.MethodPost, "//features/")
	if p := up.lastRequest().URL.Path; p != "/features" {
		t.Errorf("POST //features/ reached the renderer as %q", p)
	}

	// /features, its newsletter outcome and its data requests (with the
	// route ids, and with the made-up ids dropped).
	if n, err := c.Purge(Target{Path: "/features"}); err != nil || n != 4 {
		t.Fatalf("purge /features: %d %v, want its 4 entries", n, err)
	}
	expect(t, get(h, "/features?junk=1"), 200, "MISS")
}

// A path that names a route in another letter case is sent to
// the route table's spelling (slugs in lower case), one rule for every
// route, before anything renders; a path that names no route in any case
// is left to the not-found page.
func TestLetterCaseRedirectsToTheRouteTablesSpelling(t *testing.T) {
	up := &renderer{}
	h := canonical.New(shared.Routes).Canonical(up)
	for from, to := range map[string]string{
		"/FEATURES":                           "/features",
		"/Blog":                               "/blog",
		"/Help/Category/Article/gst-invoices": "/help/category/article/gst-invoices",
		"/help/category/article/GST-Invoices": "/help/category/article/gst-invoices",
		"/Blocks/Advanced/FAQ?x=1":            "/blocks/advanced/faq",
		"/Reset-Password?token=abc":           "/reset-password?token=abc",
		"/BLOG/Article/Selling-Online/":       "/blog/article/selling-online",
		// A page asked for by a file name, as old sites and link checkers do.
		"/index.html":      "/",
		"/blog/index.html": "/blog",
		"/features.html":   "/features",
		"/Features.HTML":   "/features",
	} {
		w := get(h, from)
		if w.Code != http.StatusMovedPermanently || w.Header().Get("Location") != to {
			t.Errorf("%s: %d → %q, want 301 → %q", from, w.Code, w.Header().Get("Location"), to)
		}
	}
	if n := up.calls.Load(); n != 0 {
		t.Errorf("%d renders before the redirects, want none", n)
	}
	for _, p := range []string{"/features", "/Nowhere-Known", "/features.data", "/nowhere.html", "/offline.html"} {
		if w := get(h, p); w.Code != http.StatusOK {
			t.Errorf("%s: %d, want it passed on as it is", p, w.Code)
		}
		if got := up.lastRequest().URL.Path; got != p {
			t.Errorf("%s reached the renderer as %q", p, got)
		}
	}
	do(h, http.MethodPost, "/Contact-Us")
	if p := up.lastRequest().URL.Path; p != "/contact-us" {
		t.Errorf("POST /Contact-Us reached the renderer as %q", p)
	}
}
