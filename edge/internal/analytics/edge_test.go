package analytics_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/analytics"
	"omnibus/edge/internal/config"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/staff/stafftest"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

const chromeUA = edgetest.ChromeUA

// renderer stands in for the Node renderer: /login streams its page in two
// flushed parts, /blog/article/missing and the cache's shared not-found
// page (/__not-found, where the edge renders every unknown path) are 404s,
// any other path a page.
func renderer(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/login":
			io.WriteString(w, "<!DOCTYPE html><html><title>Sign in</title><h1>Sign in</h1>")
			w.(http.Flusher).Flush()
			io.WriteString(w, "<p>the rest of the stream</p></html>")
			return
		case "/blog/article/missing", "/__not-found", "/go/nope", analytics.StaffPath, analytics.StaffPath + "/views.csv":
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, "<!DOCTYPE html><html><title>Page not found</title><h1>Page not found</h1></html>")
			return
		}
		fmt.Fprintf(w, "<!DOCTYPE html><html><title>Page %[1]s</title><h1>Page %[1]s</h1></html>", r.URL.Path)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func start(t *testing.T, db *storage.DB, cfg func(*config.Config)) *edgetest.Edge {
	return edgetest.Start(t, edgetest.Options{DB: db, RendererURL: renderer(t), Config: cfg})
}

type client struct {
	t    *testing.T
	base string
	c    *http.Client
}

func newClient(t *testing.T, base string) *client {
	jar, _ := cookiejar.New(nil)
	return &client{t, base, &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// get sends method path with the browser's user agent and header pairs.
func (c *client) send(method, path string, header ...string) (*http.Response, string) {
	c.t.Helper()
	req, err := http.NewRequest(method, c.base+path, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("User-Agent", chromeUA)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := c.c.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

func (c *client) get(path string, header ...string) (*http.Response, string) {
	c.t.Helper()
	return c.send(http.MethodGet, path, header...)
}

// counts flushes the edges and sums the database's rows by kind|dim1|dim2.
func counts(t *testing.T, db *storage.DB, edges ...*edgetest.Edge) map[string]int64 {
	t.Helper()
	for _, e := range edges {
		if err := e.App.Analytics.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	var rows []analytics.Count
	if err := db.Find(&rows).Error; err != nil {
		t.Fatal(err)
	}
	m := map[string]int64{}
	for _, r := range rows {
		m[r.Kind+"|"+r.Dim1+"|"+r.Dim2] += r.Count
	}
	return m
}

func want(t *testing.T, got map[string]int64, key string, n int64) {
	t.Helper()
	if got[key] != n {
		t.Errorf("%s = %d, want %d (all: %v)", key, got[key], n, got)
	}
}

// Every page view is counted, however the edge answered it: a miss, a
// hit, a streamed page, a visit without JavaScript (documents only) and one
// with (a client-side navigation's .data request), and a short link's click.
func TestViewsCountedHowEverAnswered(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e := start(t, db, nil)
		c := newClient(t, e.URL)
		same := e.URL + "/"

		if res, _ := c.get("/"); res.Header.Get("X-Cache") != "MISS" {
			t.Fatalf("first / X-Cache %q, want MISS", res.Header.Get("X-Cache"))
		}
		if res, _ := c.get("/", "Referer", same); res.Header.Get("X-Cache") != "HIT" {
			t.Fatalf("second / X-Cache %q, want HIT", res.Header.Get("X-Cache"))
		}
		if res, body := c.get("/login", "Referer", same); res.StatusCode != 200 || !strings.Contains(body, "rest of the stream") {
			t.Fatalf("/login: %d %q", res.StatusCode, body)
		}
		// No JavaScript: documents only. With: a click is the page's data
		// request, as React Router sends it (/features.data?_routes=features;
		// every route module has a server loader: ssr/app/page-views.test.ts).
		c.get("/features", "Referer", same)
		c.get("/features.data?_routes=features", "Referer", same+"features")
		c.get("/blog/article/festive-season-checklist", "Referer", same) // an article of shared/content/blog
		// A hover prefetches the data (not a view); the click then asks for it
		// again with the prefetch's ETag (Chromium revalidates: max-age=0) and
		// gets a 304: one view.
		res, _ := c.get("/blog.data?_routes=blog", "Referer", same, "Sec-Purpose", "prefetch")
		if res.StatusCode != 200 || res.Header.Get("ETag") == "" {
			t.Fatalf("/blog.data prefetch: %d ETag %q", res.StatusCode, res.Header.Get("ETag"))
		}
		if res, _ := c.get("/blog.data?_routes=blog", "Referer", same, "If-None-Match", res.Header.Get("ETag")); res.StatusCode != http.StatusNotModified {
			t.Fatalf("/blog.data after its prefetch: %d, want 304", res.StatusCode)
		}

		// A short link: a 302 to the clean target, counted under its campaign.
		res, _ = c.get("/go/spring-ai", "Referer", "https://mail.example.net/inbox")
		if res.StatusCode != http.StatusFound || res.Header.Get("Location") != "/features#ai" {
			t.Fatalf("/go/spring-ai: %d Location %q", res.StatusCode, res.Header.Get("Location"))
		}
		if res.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("/go/ Cache-Control %q", res.Header.Get("Cache-Control"))
		}
		c.get("/features", "Referer", "https://mail.example.net/inbox") // the redirect followed

		// Landings: tagged, from another site, direct.
		c.get("/old-pricing?utm_source=LinkedIn&utm_medium=Social&utm_campaign=Black%20Friday!", "Referer", "https://www.LinkedIn.com/feed/")

		got := counts(t, db, e)
		want(t, got, "view|/|", 2)
		want(t, got, "view|/login|", 1)
		want(t, got, "view|/features|", 3)
		want(t, got, "view|/blog/article/:slug|/blog/article/festive-season-checklist", 1) // the article, not only its route
		want(t, got, "view|/blog|", 1)
		want(t, got, "view|/old-pricing|", 1)
		want(t, got, "click|spring-ai|/features#ai", 1)
		want(t, got, "campaign|spring-2026|newsletter/email", 1)
		want(t, got, "campaign|black-friday|linkedin/social", 1)
		want(t, got, "referrer|(direct)|", 1)
		want(t, got, "referrer|mail.example.net|", 1)
		want(t, got, "referrer|linkedin.com|", 1)
		if n := len(got); n != 12 {
			t.Errorf("%d keys, want 12: %v", n, got)
		}
	})
}

// An unknown short link is the site's 404 page, and no click of anything.
func TestUnknownShortLink(t *testing.T) {
	db := storagetest.SQLite(t)
	e := start(t, db, nil)
	c := newClient(t, e.URL)
	for _, p := range []string{"/go/nope", "/go/Spring-AI", "/go/spring-ai/x"} {
		res, body := c.get(p, "Referer", "https://mail.example.net/")
		if res.StatusCode != http.StatusNotFound || !strings.Contains(body, "Page not found") || res.Header.Get("Location") != "" {
			t.Errorf("%s: %d Location %q %q, want the 404 page", p, res.StatusCode, res.Header.Get("Location"), body)
		}
	}
	if got := counts(t, db, e); len(got) != 0 {
		t.Errorf("counted %v", got)
	}
}

// What is not a page view: HEAD, prefetches and prerenders, the service
// worker's own fetch, assets, API calls, error pages, redirects; crawlers
// are counted apart, by crawler and page.
func TestNotViews(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e := start(t, db, nil)
		c := newClient(t, e.URL)
		c.get("/features") // the one view, and its cache entry
		c.send(http.MethodHead, "/features")
		c.send(http.MethodHead, "/go/pricing")
		c.get("/features", "Sec-Purpose", "prefetch")
		c.get("/features.data", "Sec-Purpose", "prefetch")
		c.get("/features", "Sec-Purpose", "prefetch;prerender")
		c.get("/features", "Purpose", "prefetch")
		c.get("/go/pricing", "Sec-Purpose", "prefetch")
		c.get("/sw.js", "Service-Worker", "script")
		c.get("/features", "Service-Worker", "script")
		c.get("/assets/app-1234.js")
		c.get("/favicon.png")
		c.get("/api/v1/platform-features")
		c.get("/healthz")
		if res, _ := c.get("/blog/article/missing"); res.StatusCode != 404 {
			t.Fatalf("missing article: %d", res.StatusCode)
		}
		if res, _ := c.get("/no-such-page"); res.StatusCode != 404 { // the edge's shared not-found page
			t.Fatalf("/no-such-page: %d", res.StatusCode)
		}
		c.get("/features/") // 301 to /features
		c.get("/pricing")   // 301 to /old-pricing
		googlebot := "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
		c.get("/features", "User-Agent", googlebot)
		c.get("/features", "User-Agent", googlebot)
		c.get("/", "User-Agent", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)")
		c.get("/go/spring-ai", "User-Agent", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)")

		got := counts(t, db, e)
		want(t, got, "view|/features|", 1)
		want(t, got, "referrer|(direct)|", 1)
		want(t, got, "crawl|googlebot|/features", 2)
		want(t, got, "crawl|bingbot|/", 1)
		if n := len(got); n != 4 {
			t.Errorf("%d keys, want 4: %v", n, got)
		}
	})
}

// Two edges on one PostgreSQL add into the same rows.
func TestTwoEdgesAddUp(t *testing.T) {
	db := storagetest.Postgres(t)
	a, b := start(t, db, nil), start(t, db, nil)
	for range 3 {
		newClient(t, a.URL).get("/features")
	}
	for range 2 {
		newClient(t, b.URL).get("/features")
	}
	newClient(t, a.URL).get("/go/pricing")
	newClient(t, b.URL).get("/go/pricing")
	got := counts(t, db, a, b)
	want(t, got, "view|/features|", 5)
	want(t, got, "click|pricing|/old-pricing", 2)
	want(t, got, "campaign|pricing-push|linkedin/social", 2)
	var rows int64
	db.Model(&analytics.Count{}).Where("kind = ? AND dim1 = ?", analytics.KindView, "/features").Count(&rows)
	if rows != 1 {
		t.Errorf("%d rows for /features, want one row both edges add into", rows)
	}
	// And again: the second flush adds to the row.
	newClient(t, b.URL).get("/features")
	want(t, counts(t, db, a, b), "view|/features|", 6)
}

// Nothing that names a visitor reaches the database: after traffic from a
// distinctive address, user agent, referring URL and campaign, no column of
// any table holds them.
func TestNoVisitorDataStored(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e := start(t, db, nil)
		const ip, ua = "203.0.113.77", "Mozilla/5.0 (X11; Linux x86_64) Zzyzxbrowser/9.9 Chrome/120.0.0.0 Safari/537.36"
		h := e.Server
		for i, path := range []string{"/features?utm_campaign=Spring&utm_source=news&secret=s3cr3t-token", "/features", "/go/pricing", "/", "/features.data"} {
			r := httptest.NewRequest(http.MethodGet, path, nil)
			r.Host = strings.TrimPrefix(e.URL, "http://")
			r.RemoteAddr = "127.0.0.1:40000"
			r.Header.Set("X-Forwarded-For", ip)
			r.Header.Set("User-Agent", ua)
			if i%2 == 0 {
				r.Header.Set("Referer", "https://news.example.org/private/path-q?mail=ana@example.org")
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code >= 300 && path != "/go/pricing" {
				t.Fatalf("%s: %d %v", path, w.Code, w.Header())
			}
		}
		got := counts(t, db, e)
		if got["view|/features|"] != 3 || got["referrer|news.example.org|"] != 1 {
			t.Fatalf("traffic not counted: %v", got)
		}
		tables, err := db.Migrator().GetTables()
		if err != nil {
			t.Fatal(err)
		}
		for _, table := range tables {
			var rows []map[string]any
			if err := db.Table(table).Find(&rows).Error; err != nil {
				t.Fatal(err)
			}
			for _, row := range rows {
				for col, v := range row {
					s := strings.ToLower(fmt.Sprint(v))
					for _, bad := range []string{ip, "zzyzx", "chrome/120", "private/path", "ana@example.org", "s3cr3t", "mozilla"} {
						if strings.Contains(s, bad) {
							t.Errorf("%s.%s holds %q: %q", table, col, bad, s)
						}
					}
				}
			}
		}
	})
}

// register makes an account through the site and leaves c signed in.
func (c *client) register(email string, extra string) {
	c.t.Helper()
	body := `{"name":"Ana Lima","email":"` + email + `","password":"correct horse battery","storeName":"` + strings.Split(email, "@")[0] + `-store"` + extra + `}`
	req, _ := http.NewRequest(http.MethodPost, c.base+"/api/v1/oaccount/register", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", c.base)
	res, err := c.c.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		c.t.Fatalf("register %s: %d", email, res.StatusCode)
	}
}

func staffCommand(t *testing.T, db *storage.DB, args ...string) {
	t.Helper()
	var out, errOut strings.Builder
	if code := staff.RunCommand(args, db, &out, &errOut); code != 0 {
		t.Fatalf("edge staff %v: exit %d: %s", args, code, errOut.String())
	}
}

// The staff page is the 404 page to anyone but staff (anonymous, signed
// in, or claiming staff on sign-up); the operator's command gives an
// account a role, a staff member signed in with a password only is sent to
// the studio's sign-in (the passkey), and with a studio session sees the
// counts: a chart drawn on the server (HTML and CSS, no script) and the tables,
// each as CSV.
func TestStaffPage(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e := start(t, db, nil)
		anon := newClient(t, e.URL)
		for _, p := range []string{analytics.StaffPath, analytics.StaffPath + "/views.csv"} {
			if res, body := anon.get(p); res.StatusCode != 404 || !strings.Contains(body, "Page not found") {
				t.Fatalf("anonymous %s: %d %q", p, res.StatusCode, body)
			}
		}
		ana := newClient(t, e.URL)
		ana.register("ana@example.com", `,"staff":true,"isStaff":true,"role":"staff"`)
		if res, body := ana.get(analytics.StaffPath); res.StatusCode != 404 || !strings.Contains(body, "Page not found") {
			t.Fatalf("signed-in non-staff: %d %q", res.StatusCode, body)
		}
		if out := new(strings.Builder); staff.RunCommand([]string{"grant", "nobody@example.com", "--role", "viewer"}, db, out, out) != 1 {
			t.Errorf("grant to an unknown address succeeded: %s", out)
		}

		visitor := newClient(t, e.URL)
		visitor.get("/go/spring-ai")
		visitor.get("/features", "Referer", "https://www.bing.com/")
		visitor.get("/features", "User-Agent", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")

		staffCommand(t, db, "grant", "Ana@Example.com", "--role", "viewer")
		if res, _ := ana.get(analytics.StaffPath); res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), staff.SignInPath) {
			t.Fatalf("staff signed in with a password only: %d %q, want the studio's sign-in", res.StatusCode, res.Header.Get("Location"))
		}
		base, _ := url.Parse(e.URL)
		anaID := stafftest.Account(t, db, "ana@example.com")
		ana.c.Jar.SetCookies(base, []*http.Cookie{stafftest.Session(t, db, anaID, time.Now().UTC(), time.Hour)})
		res, body := ana.get(analytics.StaffPath)
		if res.StatusCode != 200 {
			t.Fatalf("staff: %d %q", res.StatusCode, body)
		}
		if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "no-store") {
			t.Errorf("Cache-Control %q", cc)
		}
		if res.Header.Get("X-Robots-Tag") == "" || !strings.Contains(body, `<meta name="robots" content="noindex`) {
			t.Errorf("not noindex: %v", res.Header)
		}
		// The site's security headers, and its CSP with this answer's nonce,
		// the one its <style> carries; no script at all.
		page, _ := anon.get("/login") // a page the edge's renderer draws per request, as this one
		for _, h := range []string{"X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy", "Permissions-Policy",
			"Cross-Origin-Opener-Policy", "Cross-Origin-Resource-Policy", "Strict-Transport-Security"} {
			if got, want := res.Header.Values(h), page.Header.Values(h); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s: %q, the site's pages: %q", h, got, want)
			}
		}
		nonce := regexp.MustCompile(`<style nonce="([^"]+)">`).FindStringSubmatch(body)
		pageCSP := page.Header.Get("Content-Security-Policy")
		pageNonce := regexp.MustCompile(`'nonce-([^']+)'`).FindStringSubmatch(pageCSP)
		if nonce == nil || pageNonce == nil {
			t.Fatalf("no <style nonce> on the staff page, or no nonce in the site's CSP %q", pageCSP)
		}
		if csp, want := res.Header.Get("Content-Security-Policy"), strings.ReplaceAll(pageCSP, pageNonce[1], nonce[1]); csp != want || nonce[1] == pageNonce[1] {
			t.Errorf("staff page CSP\n%q\nwant the site's, with the style's nonce %q:\n%q", csp, nonce[1], want)
		}
		if strings.Contains(body, "<script") {
			t.Error("a script on the staff page")
		}
		// The chart without JavaScript: 30 bars, today's holding the visit.
		if n := strings.Count(body, `<span class="bar"`); n != analytics.ReportDays {
			t.Errorf("%d bars, want %d", n, analytics.ReportDays)
		}
		for _, s := range []string{`data-views="1"><span class="bar"`, `<ol class="bars">`, "spring-2026", "newsletter/email", "bing.com", "/go/spring-ai", "googlebot", "/features"} {
			if !strings.Contains(body, s) {
				t.Errorf("staff page lacks %q", s)
			}
		}
		for table, line := range map[string]string{
			"views": ",/features,1", "pages": "/features,1", "campaigns": "spring-2026,newsletter,email,1",
			"referrers": "bing.com,1", "clicks": "/go/spring-ai,/features#ai,1", "crawlers": "googlebot,/features,1",
		} {
			res, body := ana.get(analytics.StaffPath + "/" + table + ".csv")
			if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") || !strings.Contains(body, line) {
				t.Errorf("%s.csv: %d %s %q, want a line %q", table, res.StatusCode, res.Header.Get("Content-Type"), body, line)
			}
		}
		staffCommand(t, db, "revoke", "ana@example.com")
		if res, _ := ana.get(analytics.StaffPath); res.StatusCode != 404 {
			t.Errorf("after revoke: %d", res.StatusCode)
		}
	})
}

// Views by route and crawler visits by crawler are Prometheus series.
func TestPrometheusSeries(t *testing.T) {
	e := start(t, storagetest.SQLite(t), func(c *config.Config) { c.MetricsAddr = "127.0.0.1:0" })
	c := newClient(t, e.URL)
	c.get("/features")
	c.get("/features")
	c.get("/features", "User-Agent", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
	res, err := http.Get(e.App.MetricsURL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	for _, s := range []string{`omnibus_page_views_total{route="/features"} 2`, `omnibus_crawler_visits_total{crawler="googlebot"} 1`} {
		if !strings.Contains(string(body), s) {
			t.Errorf("metrics lack %q", s)
		}
	}
}
