package accounts_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"

	"omnibus/edge/internal/accounts"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// startEdge runs the whole edge as main wires it (internal/app: server
// middleware, page cache, accounts, proxy, renderer).
func startEdge(t *testing.T, db *storage.DB, real bool) *edgetest.Edge {
	return edgetest.Start(t, edgetest.Options{DB: db, RealRenderer: real})
}

type browser struct {
	t    *testing.T
	base string
	c    *http.Client
}

func newBrowser(t *testing.T, base string) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t, base, &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (b *browser) do(method, path, body string, header ...string) (*http.Response, string) {
	b.t.Helper()
	req, _ := http.NewRequest(method, b.base+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Origin", b.base)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res, string(out)
}

// The redirect rules through the real server in front of a renderer: the
// page never reaches the renderer for a signed-in visitor.
func TestEdgeRedirectRules(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e := startEdge(t, db, false)
		anon := newBrowser(t, e.URL)
		for _, p := range []string{"/login", "/register"} {
			if res, body := anon.do("GET", p, ""); res.StatusCode != http.StatusOK || !strings.Contains(body, p) {
				t.Fatalf("anonymous %s: %d %q", p, res.StatusCode, body)
			}
		}
		b := newBrowser(t, e.URL)
		if res, body := b.do("POST", "/api/v1/oaccount/register", `{"name":"Ana","email":"ana@example.com","password":"correct horse battery","storeName":"ana"}`); res.StatusCode != http.StatusCreated {
			t.Fatalf("register: %d %s", res.StatusCode, body)
		}
		for status, want := range map[string]string{accounts.StatusAccountCreated: "/contact-us", accounts.StatusPendingPayment: "/contact-us", "active": "/landing-page"} {
			if err := db.Model(&accounts.Account{}).Where("email = ?", "ana@example.com").Update("status", status).Error; err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{"/login", "/register"} {
				if res, _ := b.do("GET", p, ""); res.StatusCode != http.StatusFound || res.Header.Get("Location") != want {
					t.Fatalf("%s with status %s: %d → %q, want %s", p, status, res.StatusCode, res.Header.Get("Location"), want)
				}
			}
		}
		// Through the server's middleware: a cross-site post, an oversized body.
		if res, body := b.do("POST", "/api/v1/oaccount/logout", "", "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"); res.StatusCode != http.StatusForbidden || !strings.Contains(body, "errorDetail") {
			t.Fatalf("cross-site logout: %d %s", res.StatusCode, body)
		}
		if res, body := b.do("POST", "/api/v1/oaccount/login", `{"email":"`+strings.Repeat("a", 20<<10)+`"}`); res.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(body, "errorDetail") {
			t.Fatalf("oversized login: %d %s", res.StatusCode, body)
		}
	})
}

// With the real renderer: the sign-in page is server-rendered as a form that
// posts to the edge, and a signed-in visitor's pages offer to sign out (the
// root loader asks the edge with the visitor's cookie).
func TestEdgeRealPages(t *testing.T) {
	e := startEdge(t, nil, true)
	anon := newBrowser(t, e.URL)
	res, body := anon.do("GET", "/login", "")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, `action="/api/v1/oaccount/login"`) || strings.Contains(body, "Sign out") {
		t.Fatalf("anonymous /login: %d", res.StatusCode)
	}
	// The reset page keeps its token out of Referer headers.
	res, body = anon.do("GET", "/reset-password?token=abc", "")
	if res.StatusCode != http.StatusOK || res.Header.Get("Referrer-Policy") != "no-referrer" || !strings.Contains(body, `name="token" value="abc"`) {
		t.Fatalf("/reset-password: %d %v", res.StatusCode, res.Header)
	}
	b := newBrowser(t, e.URL)
	if res, body := b.do("POST", "/api/v1/oaccount/register", `{"name":"Ana","email":"ana@example.com","password":"correct horse battery","storeName":"ana"}`); res.StatusCode != http.StatusCreated {
		t.Fatalf("register: %d %s", res.StatusCode, body)
	}
	res, body = b.do("GET", "/", "")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, `action="/api/v1/oaccount/logout"`) {
		t.Fatalf("signed-in / has no sign-out form: %d", res.StatusCode)
	}
	if res, _ := b.do("GET", "/login", ""); res.StatusCode != http.StatusFound || res.Header.Get("Location") != "/contact-us" {
		t.Fatalf("signed-in /login: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
}
