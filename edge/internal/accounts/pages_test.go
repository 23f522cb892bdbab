package accounts

import (
	"net/http"
	"testing"
	"time"

	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// The edge resolves the session of every page request itself: a signed-in
// visitor's page request carries the resolved state to the renderer, a
// browsing-only visitor's session slides (the Set-Cookie comes from the
// edge), and a forged account header or a dead cookie is an anonymous
// visitor whose cookie is cleared.
func TestPagesResolveTheSession(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, nil, nil) // SessionTTL 24h
		b := st.browser()
		st.register(b, "ana@example.com", "ana")
		st.setStatus("ana@example.com", "active")

		a := st.do(b, "GET", "/features", nil)
		if want := `page /features as {"isLoggedIn":true,"omnicustomerStatus":"active"}`; a.body != want {
			t.Fatalf("signed-in page request reached the renderer as %q, want %q", a.body, want)
		}

		// Browsing pages only, for longer than the TTL in total: the
		// session slides with each page view.
		for i := 0; i < 3; i++ {
			st.advance(20 * time.Hour)
			a := st.do(b, "GET", "/features", nil)
			ck := a.cookie(CookieName)
			if ck == nil || ck.MaxAge != int((24*time.Hour).Seconds()) {
				t.Fatalf("page view %d after 20h did not slide the session: cookie %+v, body %q", i+1, ck, a.body)
			}
			if a.body == "page /features" {
				t.Fatalf("page view %d after 20h: signed out", i+1)
			}
		}

		// A forged header from outside is removed.
		anon := st.browser()
		if a := st.do(anon, "GET", "/features", nil, AccountHeader, `{"isLoggedIn":true,"omnicustomerStatus":"active"}`); a.body != "page /features" {
			t.Fatalf("forged account header reached the renderer: %q", a.body)
		}
		// Made-up cookies, well-formed or not, are anonymous and cleared.
		for _, v := range []string{"made-up", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"} {
			a := st.do(anon, "GET", "/features", nil, "Cookie", CookieName+"="+v)
			if a.body != "page /features" {
				t.Fatalf("cookie %q: %q", v, a.body)
			}
			if ck := a.cookie(CookieName); ck == nil || ck.MaxAge >= 0 {
				t.Fatalf("cookie %q not cleared: %+v", v, ck)
			}
		}
		// An expired session is anonymous too.
		st.advance(24*time.Hour + time.Second)
		a = st.do(b, "GET", "/features", nil)
		if ck := a.cookie(CookieName); a.body != "page /features" || ck == nil || ck.MaxAge >= 0 {
			t.Fatalf("expired session: %q cookie %+v", a.body, ck)
		}
		if a.status != http.StatusOK {
			t.Fatal(a.status)
		}
	})
}
