package security_test

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/security"
	"omnibus/shared"
)

func policy(t *testing.T, o security.Options) *security.Policy {
	t.Helper()
	p, err := security.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The edges below are the production wiring (internal/app, through
// edgetest): page cache, accounts, and the header set from the configuration.

// nonceRenderer plays the renderer: it writes its inline scripts with the
// nonce the edge sends, as ssr/app/entry.server.tsx does.
func nonceRenderer(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/__manifest" { // React Router's route manifest is JSON
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			fmt.Fprint(w, `{"patches":{}}`)
			return
		}
		n := r.Header.Get(shared.HTTP.NonceHeader)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><script nonce="%[1]s">theme()</script></head><body><h1>%[2]s</h1>`+
			`<script nonce="%[1]s">window.ctx={path:%[2]q}</script></body></html>`, n, r.URL.Path)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func do(t *testing.T, method, url string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("User-Agent", edgetest.ChromeUA)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

var headerSet = []string{
	"Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy",
	"Permissions-Policy", "Cross-Origin-Opener-Policy", "Cross-Origin-Resource-Policy",
}

// dataSet is what a JSON answer carries, and documentOnly (static_test.go)
// what it does not.
var dataSet = map[string]string{
	"Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'", "X-Frame-Options": "DENY",
	"X-Content-Type-Options": "nosniff", "Cross-Origin-Resource-Policy": "same-origin",
}

func checkHeaders(t *testing.T, what string, res *http.Response, p *security.Policy) {
	t.Helper()
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		checkDataHeaders(t, what, res)
		return
	}
	for _, h := range headerSet {
		got := res.Header.Values(h)
		if len(got) != 1 {
			t.Errorf("%s: %s = %q, want one value", what, h, got)
			continue
		}
		if h != "Content-Security-Policy" && got[0] != p.Header(h) {
			t.Errorf("%s: %s = %q, want %q", what, h, got[0], p.Header(h))
		}
	}
	csp := res.Header.Get("Content-Security-Policy")
	for _, must := range []string{"'strict-dynamic'", "default-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'"} {
		if !strings.Contains(csp, must) && !(must == "'strict-dynamic'" && strings.Contains(csp, "script-src 'none'")) {
			t.Errorf("%s: CSP lacks %s: %s", what, must, csp)
		}
	}
	if strings.Contains(csp, "unsafe-eval") || regexp.MustCompile(`script-src[^;]*unsafe-inline`).MatchString(csp) {
		t.Errorf("%s: CSP allows inline or eval'd script: %s", what, csp)
	}
}

// checkDataHeaders: a JSON answer is data a script reads, never a page: a
// policy that lets nothing load, run or frame it, nosniff and CORP, and
// none of what only a page obeys (its nonce'd policy, permissions, opener,
// referrers), which cost every API answer about 900 bytes of head.
func checkDataHeaders(t *testing.T, what string, res *http.Response) {
	t.Helper()
	for h, want := range dataSet {
		if got := res.Header.Values(h); len(got) != 1 || got[0] != want {
			t.Errorf("%s: %s = %q, want %q", what, h, got, want)
		}
	}
	for _, h := range []string{"Permissions-Policy", "Cross-Origin-Opener-Policy", "Referrer-Policy"} {
		if got := res.Header.Get(h); got != "" {
			t.Errorf("%s: a JSON answer carries %s %q, which only a page obeys", what, h, got)
		}
	}
}

// Every kind of answer the edge sends carries its header set: a cached
// page (miss and hit), a streamed page, a missing asset, the edge's own
// 404, 405 and 414, and the edge's 503 page when the renderer is down the
// whole page set; API JSON (found and not), health, React Router's route
// manifest a JSON answer's (checkDataHeaders). A static file gets a file's
// set instead (TestStaticAnswersAreLean).
func TestHeadersOnEveryAnswer(t *testing.T) {
	p := policy(t, security.Options{PublicURL: "http://localhost:8080"})
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "favicon.svg"), []byte("<svg/>"), 0o644)
	os.MkdirAll(filepath.Join(dir, "assets"), 0o755)
	os.WriteFile(filepath.Join(dir, "assets", "app-1.js"), []byte("export{}"), 0o644)
	e := edgetest.Start(t, edgetest.Options{RendererURL: nonceRenderer(t), AssetsDir: dir})

	for _, tc := range []struct {
		what, method, path string
		hdr                map[string]string
		status             int
	}{
		{"cached page (miss)", "GET", "/features", nil, 200},
		{"cached page (hit)", "GET", "/features", nil, 200},
		{"cached page (HEAD)", "HEAD", "/features", nil, 200},
		{"streamed page", "GET", "/login", nil, 200},
		{"streamed page, session", "GET", "/features", map[string]string{"Cookie": shared.HTTP.SessionCookie + "=x"}, 200},
		{"API JSON", "GET", "/api/v1/platform-features", nil, 200},
		{"route manifest", "GET", "/__manifest?paths=/features&version=1", nil, 200},
		{"API 404", "GET", "/api/v1/no-such-thing", nil, 404},
		{"missing asset", "GET", "/assets/nope.js", nil, 404},
		{"health", "GET", "/healthz", nil, 200},
		{"readiness", "GET", "/readyz", nil, 200},
		{"renderer path", "GET", "/__renderer/health", nil, 404},
		{"TRACE", "TRACE", "/", nil, 405},
		{"long URL", "GET", "/?q=" + strings.Repeat("a", 20<<10), nil, 414},
	} {
		res, _ := do(t, tc.method, e.URL+tc.path, tc.hdr)
		if res.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d", tc.what, res.StatusCode, tc.status)
		}
		checkHeaders(t, tc.what, res, p)
	}

	// A handler's own value wins over the default, once (here on the
	// redirect of an unknown reset link to /forgot-password).
	req, _ := http.NewRequest("GET", e.URL+"/reset-password?token=abc", nil)
	req.Header.Set("User-Agent", edgetest.ChromeUA)
	res, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if got := res.Header.Values("Referrer-Policy"); len(got) != 1 || got[0] != "no-referrer" {
		t.Errorf("/reset-password Referrer-Policy %q", got)
	}

	down := edgetest.Start(t, edgetest.Options{RendererURL: "http://127.0.0.1:1"})
	res, body := do(t, "GET", down.URL+"/pricing-never-cached", nil)
	if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "Back in a moment") {
		t.Fatalf("renderer down: %d", res.StatusCode)
	}
	checkHeaders(t, "edge's 503 page", res, p)
}

func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

var scriptRe = regexp.MustCompile(`(?is)<script\b([^>]*)>(.*?)</script>`)

// inlineScripts are the executable inline scripts of a document.
func inlineScripts(body string) []string {
	var out []string
	for _, m := range scriptRe.FindAllStringSubmatch(body, -1) {
		attrs := m[1]
		if strings.Contains(attrs, "src=") || strings.Contains(attrs, "application/json") || strings.Contains(attrs, "ld+json") || strings.Contains(attrs, "importmap") {
			continue
		}
		out = append(out, m[2])
	}
	return out
}

// A page the cache stores (real renderer) is served, miss and hit, with a
// policy that allows each of its inline scripts by hash and carries no
// nonce; a streamed page's scripts all carry that answer's nonce, which is
// new on every answer and never the one a client sent.
func TestCachedPagesCarryTheirScriptHashes(t *testing.T) {
	e := edgetest.Start(t, edgetest.Options{RealRenderer: true})

	for _, path := range []string{"/", "/features", "/blog", "/no-such-page"} {
		for _, want := range []string{"MISS", "HIT"} {
			res, body := do(t, "GET", e.URL+path, map[string]string{"Accept-Encoding": "identity"})
			if got := res.Header.Get("X-Cache"); got != want {
				t.Fatalf("%s: X-Cache %q, want %s", path, got, want)
			}
			csp := res.Header.Get("Content-Security-Policy")
			if strings.Contains(csp, "'nonce-") || strings.Contains(body, " nonce=") {
				t.Errorf("%s (%s): a nonce in a shared page: %s", path, want, csp)
			}
			allowed := security.ScriptHashes(csp)
			scripts := inlineScripts(body)
			if len(scripts) == 0 {
				t.Fatalf("%s: no inline scripts found; the test would prove nothing", path)
			}
			for _, s := range scripts {
				if !slices.Contains(allowed, hashOf(s)) {
					t.Errorf("%s (%s): inline script %.80q not allowed by %s", path, want, s, csp)
				}
			}
		}
	}

	var nonces []string
	for range 2 {
		res, body := do(t, "GET", e.URL+"/login", map[string]string{security.NonceHeader: "chosen-by-the-visitor-1234"})
		if res.Header.Get("X-Cache") != "BYPASS" {
			t.Fatalf("/login: X-Cache %q", res.Header.Get("X-Cache"))
		}
		m := regexp.MustCompile(`'nonce-([A-Za-z0-9_-]+)'`).FindStringSubmatch(res.Header.Get("Content-Security-Policy"))
		if m == nil || m[1] == "chosen-by-the-visitor-1234" {
			t.Fatalf("/login CSP: %s", res.Header.Get("Content-Security-Policy"))
		}
		nonces = append(nonces, m[1])
		tags := regexp.MustCompile(`<script\b[^>]*>`).FindAllString(body, -1)
		if len(tags) == 0 {
			t.Fatal("/login: no scripts")
		}
		for _, tag := range tags {
			if !strings.Contains(tag, `nonce="`+m[1]+`"`) && !strings.Contains(tag, `type="application/ld+json"`) { // JSON-LD is data, never run
				t.Errorf("/login: script without the answer's nonce: %s", tag)
			}
		}
	}
	if nonces[0] == nonces[1] {
		t.Errorf("the same nonce twice: %s", nonces[0])
	}
}

// With an https PUBLIC_URL: HSTS on every answer, and a request a trusted
// proxy reports as plain http is sent to https on the public origin (the
// Host header is not trusted for it); health probes are answered as they are.
func TestHTTPS(t *testing.T) {
	e := edgetest.Start(t, edgetest.Options{RendererURL: nonceRenderer(t), PublicURL: "https://omnibus.example"})
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	req, _ := http.NewRequest("GET", e.URL+"/features?a=1", nil)
	req.Host = "evil.example"
	req.Header.Set("X-Forwarded-Proto", "http")
	res, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusPermanentRedirect || res.Header.Get("Location") != "https://omnibus.example/features?a=1" {
		t.Errorf("plain http: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	if res.Header.Get("Strict-Transport-Security") == "" {
		t.Errorf("redirect without HSTS")
	}

	for _, path := range []string{"/features", "/api/v1/platform-features", "/healthz"} {
		res, _ := do(t, "GET", e.URL+path, map[string]string{"X-Forwarded-Proto": "https", "X-Forwarded-Host": "omnibus.example"})
		if res.StatusCode != 200 || res.Header.Get("Strict-Transport-Security") != "max-age=63072000" {
			t.Errorf("%s over https: %d HSTS %q", path, res.StatusCode, res.Header.Get("Strict-Transport-Security"))
		}
	}
	if res, _ := do(t, "GET", e.URL+"/healthz", map[string]string{"X-Forwarded-Proto": "http"}); res.StatusCode != 200 {
		t.Errorf("/healthz over http: %d", res.StatusCode)
	}
	// A request without X-Forwarded-Proto did not come through the TLS proxy: not sent to https.
	if res, _ := do(t, "GET", e.URL+"/api/v1/platform-features", map[string]string{"X-Forwarded-Host": "omnibus.example"}); res.StatusCode != 200 {
		t.Errorf("API without X-Forwarded-Proto: %d", res.StatusCode)
	}
}
