package cache

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// A signed-in visitor's page that carries none of their own data
// (no edgeData) is rendered once per sign-in status, like an anonymous page
// once: the account header the edge set (status and notice, never who) is
// part of the key, the render is asked with it and no cookie, and every
// answer to a signed-in visitor is private. Anonymous visitors never get a
// signed-in page, nor one status another's; pages the edge hands a
// visitor's own data, and paths that are no route, are never shared.
func TestSignedInPagesSharedPerStatus(t *testing.T) {
	c, _ := newTestCache(t, DefaultMaxBytes)
	up := &renderer{respond: func(w http.ResponseWriter, r *http.Request, n int64) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!DOCTYPE html><html><body><p>account %q render %d</p>%s</body></html>",
			r.Header.Get(AccountHeader), n, strings.Repeat("<p>Sell everywhere.</p>", 50))
	}}
	h := c.Wrap(up)
	created := `{"isLoggedIn":true,"omnicustomerStatus":"account_created"}`
	active := `{"isLoggedIn":true,"omnicustomerStatus":"active"}`
	as := func(account string) reqOpt {
		return func(r *http.Request) {
			r.Header.Set(AccountHeader, account)
			r.Header.Set("Cookie", "omnibus_session=secret-of-this-visitor")
		}
	}
	body := func(w interface{ String() string }) string { return w.String() }

	w := get(h, "/", as(created))
	expect(t, w, 200, "MISS")
	if !strings.Contains(body(w.Body), fmt.Sprintf("account %q", created)) {
		t.Fatalf("the render did not get the account header: %.120q", body(w.Body))
	}
	if got := up.lastRequest().Header.Get("Cookie"); got != "" {
		t.Errorf("the shared render was sent the visitor's cookie %q", got)
	}
	if cc := w.Header().Get("Cache-Control"); cc != "private, no-cache" {
		t.Errorf("signed-in MISS Cache-Control %q, want private, no-cache", cc)
	}
	calls := up.calls.Load()
	w = get(h, "/", as(created))
	expect(t, w, 200, "HIT")
	if cc := w.Header().Get("Cache-Control"); cc != "private, no-cache" {
		t.Errorf("signed-in HIT Cache-Control %q, want private, no-cache", cc)
	}
	if up.calls.Load() != calls {
		t.Errorf("a second visitor of the same status rendered again")
	}

	// Anonymous visitors and another status get their own page.
	w = get(h, "/")
	expect(t, w, 200, "MISS")
	if !strings.Contains(body(w.Body), `account ""`) || strings.Contains(w.Header().Get("Cache-Control"), "private") {
		t.Errorf("anonymous got %.60q with Cache-Control %q", body(w.Body), w.Header().Get("Cache-Control"))
	}
	w = get(h, "/", as(active))
	expect(t, w, 200, "MISS")
	if !strings.Contains(body(w.Body), fmt.Sprintf("account %q", active)) {
		t.Errorf("an active merchant got another status's page: %.80q", body(w.Body))
	}

	// A page with the visitor's own data, and a path that is no route: never shared when signed in.
	for _, path := range []string{"/contact-us", "/no-such-page"} {
		for range 2 {
			expect(t, get(h, path, as(created)), 200, "BYPASS")
		}
	}
	expect(t, get(h, "/contact-us"), 200, "MISS") // anonymous: shared as before

	// A purge of the path takes every status's copy.
	if _, err := c.Purge(Target{Path: "/"}); err != nil {
		t.Fatal(err)
	}
	for _, o := range []reqOpt{as(created), as(active), func(*http.Request) {}} {
		expect(t, get(h, "/", o), 200, "MISS")
	}
}
