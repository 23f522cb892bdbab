package cache

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"omnibus/edge/internal/theme"
)

// The page cache keeps one copy of a page per colour theme, as
// the renderer writes it on <html> from the theme cookie: a dark visitor's
// page is never served to a light or system visitor (nor the other way),
// only three copies can exist whatever the cookie says, the renderer is
// asked with the theme and no other cookie, and a purge removes them all.
func TestCacheKeepsAPagePerTheme(t *testing.T) {
	c, _ := newTestCache(t, DefaultMaxBytes)
	up := &renderer{respond: func(w http.ResponseWriter, r *http.Request, n int64) {
		class := ""
		if ck, err := r.Cookie(theme.Cookie); err == nil {
			class = ck.Value
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><html class="%s"><body>render %d%s</body></html>`, class, n, strings.Repeat("<p>Sell everywhere.</p>", 50))
	}}
	h := c.Wrap(up)
	cookie := func(v string) reqOpt { return header("Cookie", v) }
	htmlClass := func(t *testing.T, body, want string) {
		t.Helper()
		if !strings.Contains(body, `<html class="`+want+`">`) {
			t.Fatalf("want <html class=%q>, got %.80q", want, body)
		}
	}

	w := get(h, "/blog", cookie(theme.Cookie+"=dark; other=secret"))
	expect(t, w, 200, "MISS")
	htmlClass(t, w.Body.String(), "dark")
	if got := up.lastRequest().Header.Get("Cookie"); got != theme.Cookie+"=dark" {
		t.Errorf("renderer asked with Cookie %q, want the theme alone", got)
	}

	// A light visitor and a visitor of no preference (system) get their own page, not the dark one.
	w = get(h, "/blog")
	expect(t, w, 200, "MISS")
	htmlClass(t, w.Body.String(), "")
	w = get(h, "/blog", cookie(theme.Cookie+"=light"))
	expect(t, w, 200, "MISS")
	htmlClass(t, w.Body.String(), "light")

	// Each is served from its own copy afterwards.
	for _, tc := range []struct{ cookie, class string }{{theme.Cookie + "=dark", "dark"}, {"", ""}, {theme.Cookie + "=light", "light"}} {
		w = get(h, "/blog", cookie(tc.cookie))
		expect(t, w, 200, "HIT")
		htmlClass(t, w.Body.String(), tc.class)
	}

	// Made-up values are the system page: no render, no entry of their own.
	calls := up.calls.Load()
	entries, _ := c.Stats()
	for _, v := range []string{"purple", "DARK", "dark%20x", "system", strings.Repeat("x", 100)} {
		w = get(h, "/blog", cookie(theme.Cookie+"="+v))
		expect(t, w, 200, "HIT")
		htmlClass(t, w.Body.String(), "")
	}
	if up.calls.Load() != calls {
		t.Errorf("made-up theme values rendered %d pages", up.calls.Load()-calls)
	}
	if n, _ := c.Stats(); n != entries {
		t.Errorf("made-up theme values made %d entries", n-entries)
	}

	// The not-found page varies the same way.
	w = get(h, "/no-such-page", cookie(theme.Cookie+"=dark"))
	htmlClass(t, w.Body.String(), "dark")
	w = get(h, "/no-such-page")
	htmlClass(t, w.Body.String(), "")

	// A purge of the path takes every theme's copy.
	if _, err := c.Purge(Target{Path: "/blog"}); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"", theme.Cookie + "=dark", theme.Cookie + "=light"} {
		expect(t, get(h, "/blog", cookie(v)), 200, "MISS")
	}
}

func TestKeyVariant(t *testing.T) {
	for _, tc := range []struct{ key, page, variant, path string }{
		{"/blog", "/blog", "", "/blog"},
		{"/blog dark", "/blog", "dark", "/blog"},
		{"/blog?a=1&b=2 light", "/blog?a=1&b=2", "light", "/blog"},
	} {
		if p, v, _ := splitVariant(tc.key); p != tc.page || v != tc.variant {
			t.Errorf("splitVariant(%q) = %q, %q", tc.key, p, v)
		}
		if p := keyPath(tc.key); p != tc.path {
			t.Errorf("keyPath(%q) = %q", tc.key, p)
		}
	}
}
