package accounts_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"sync"
	"testing"
	"time"

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
// posts to its own page, and a signed-in visitor's pages offer to sign out (the
// root loader reads the state the edge resolved).
func TestEdgeRealPages(t *testing.T) {
	e := startEdge(t, nil, true)
	anon := newBrowser(t, e.URL)
	res, body := anon.do("GET", "/login", "")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, `action="/login"`) || strings.Contains(body, "Sign out") {
		t.Fatalf("anonymous /login: %d", res.StatusCode)
	}
	// The reset page keeps its token out of Referer headers; a link that
	// names no reset is said on the page that offers a new one.
	res, _ = anon.do("GET", "/reset-password?token=abc", "")
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Referrer-Policy") != "no-referrer" || res.Header.Get("Location") != "/forgot-password?error=resetInvalid" {
		t.Fatalf("/reset-password with an unknown link: %d %v", res.StatusCode, res.Header)
	}
	if res, body = anon.do("GET", "/forgot-password?error=resetInvalid", ""); res.StatusCode != http.StatusOK || !strings.Contains(body, "This reset link is invalid, has expired or was already used.") {
		t.Fatalf("/forgot-password?error=resetInvalid: %d, without the message", res.StatusCode)
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

// During a SIGTERM drain the edge stops accepting connections; signed-in
// pages already in flight still render signed in, since the renderer reads
// the state the edge resolved instead of calling back into the edge.
func TestSignedInPagesDuringDrain(t *testing.T) {
	reached, release := make(chan struct{}, 8), make(chan struct{})
	e := edgetest.Start(t, edgetest.Options{RealRenderer: true, Setup: func(e *edgetest.Edge) {
		pages := e.Server.Pages() // the production page handler: sessions, cache, renderer
		e.Server.SetPages(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/privacy-policy" {
				reached <- struct{}{}
				<-release
			}
			pages.ServeHTTP(w, r)
		}))
	}})
	b := newBrowser(t, e.URL)
	if res, body := b.do("POST", "/api/v1/oaccount/register", `{"name":"Ana","email":"ana@example.com","password":"correct horse battery","storeName":"ana"}`); res.StatusCode != http.StatusCreated {
		t.Fatalf("register: %d %s", res.StatusCode, body)
	}
	const n = 4
	bodies := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("GET", e.URL+"/privacy-policy", nil)
			req.Header.Set("User-Agent", edgetest.ChromeUA)
			res, err := b.c.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer res.Body.Close()
			out, _ := io.ReadAll(res.Body)
			bodies[i] = string(out)
		}()
	}
	for range n {
		<-reached
	}
	// SIGTERM: the edge drains; wait until it no longer accepts connections.
	drained := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		drained <- e.Shutdown(ctx)
	}()
	for {
		c, err := net.DialTimeout("tcp", strings.TrimPrefix(e.URL, "http://"), time.Second)
		if err != nil {
			break
		}
		c.Close()
		time.Sleep(10 * time.Millisecond)
	}
	close(release)
	wg.Wait()
	if err := <-drained; err != nil {
		t.Fatal(err)
	}
	for i, body := range bodies {
		if !strings.Contains(body, `action="/api/v1/oaccount/logout"`) {
			t.Errorf("in-flight page %d rendered signed out during the drain (%d bytes)", i, len(body))
		}
	}
}
