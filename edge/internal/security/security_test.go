package security

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"omnibus/edge/internal/http/request"
)

func directive(csp, name string) string {
	for _, d := range strings.Split(csp, ";") {
		if f := strings.Fields(d); len(f) > 0 && f[0] == name {
			return strings.Join(f[1:], " ")
		}
	}
	return "<absent>"
}

func mustNew(t *testing.T, o Options) *Policy {
	t.Helper()
	p, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The policy is strict: scripts only by nonce or hash with 'strict-dynamic',
// nothing inline or eval'd, no plugins, no <base>, no framing, forms to the
// site only; and none of Google's origins unless Google sign-in is on.
func TestPolicyIsStrict(t *testing.T) {
	p := mustNew(t, Options{PublicURL: "http://localhost:8080"})
	csp := p.CSP("abcdefghijklmnopqrstuv")
	for name, want := range map[string]string{
		"default-src":     "'none'",
		"script-src":      "'nonce-abcdefghijklmnopqrstuv' 'strict-dynamic'",
		"object-src":      "<absent>", // default-src 'none' covers it (no redundant directives)
		"base-uri":        "'none'",
		"frame-ancestors": "'none'",
		"form-action":     "'self'",
	} {
		if got := directive(csp, name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if strings.Contains(csp, "unsafe-eval") || strings.Contains(directive(csp, "script-src"), "unsafe-inline") || strings.Contains(csp, "google") {
		t.Errorf("CSP too loose: %s", csp)
	}
	if directive(csp, "frame-src") != "<absent>" {
		t.Errorf("frames allowed without Google: %s", csp)
	}
	for _, h := range []string{"Strict-Transport-Security"} {
		if p.Header(h) != "" {
			t.Errorf("%s on an http site", h)
		}
	}
	if p.Header("Cross-Origin-Opener-Policy") != "same-origin" {
		t.Errorf("COOP %q", p.Header("Cross-Origin-Opener-Policy"))
	}
}

// With Google sign-in: what Google's CSP guide lists for its script, the
// issuer as a form target (the no-JS flow) and a COOP that keeps the popup's
// window.opener.
func TestPolicyWithGoogle(t *testing.T) {
	p := mustNew(t, Options{PublicURL: "https://omnibus.example", GoogleClientID: "x.apps.googleusercontent.com",
		GoogleIssuerURL: "https://accounts.google.com", MerchantAppURL: "https://app.omnibus.example/home"})
	csp := p.CSP("abcdefghijklmnopqrstuv")
	for name, want := range map[string]string{
		"script-src":     "'nonce-abcdefghijklmnopqrstuv' 'strict-dynamic' https://accounts.google.com/gsi/client",
		"frame-src":      "https://accounts.google.com/gsi/",
		"connect-src":    "'self' https://accounts.google.com/gsi/",
		"style-src-elem": "'self' 'nonce-abcdefghijklmnopqrstuv' https://accounts.google.com/gsi/style",
		"style-src-attr": "'unsafe-inline'",
		"style-src":      "'self' 'unsafe-inline' https://accounts.google.com/gsi/style",
		"form-action":    "'self' https://accounts.google.com https://app.omnibus.example",
	} {
		if got := directive(csp, name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if got := p.Header("Cross-Origin-Opener-Policy"); got != "same-origin-allow-popups" {
		t.Errorf("COOP %q", got)
	}
	if got := p.Header("Strict-Transport-Security"); got != "max-age=63072000" {
		t.Errorf("HSTS %q", got)
	}
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// Seal: the scripts the renderer marked with the render's nonce are allowed
// by hash, the nonce leaves the document, and a script without it (injected
// through content, say) is not allowed.
func TestSeal(t *testing.T) {
	p := mustNew(t, Options{})
	const n = "RENDERnonce1234567890a"
	doc := `<!DOCTYPE html><html><head><script nonce="` + n + `">theme()</script>` +
		`<style nonce="` + n + `">body{color:red}</style>` +
		`<link rel="modulepreload" href="/assets/a.js" nonce="` + n + `"/></head><body>` +
		`<div><script>alert(1)</script><style>p{}</style></div>` +
		`<script nonce="` + n + `">window.ctx = "a<\/script>";</script>` +
		`<script nonce="` + n + `" type="module" async="">import("/assets/a.js");` + "\n" + `</script>` +
		`<script nonce="` + n + `">theme()</script>` +
		`<script nonce="` + n + `" src="/x.js"></script></body></html>`
	body, csp := p.Seal([]byte(doc), "text/html; charset=utf-8", n)
	if strings.Contains(string(body), n) || strings.Contains(string(body), "nonce=") {
		t.Errorf("nonce left in the stored page: %s", body)
	}
	want := []string{sha("theme()"), sha(`window.ctx = "a<\/script>";`), sha("import(\"/assets/a.js\");\n")}
	if got := ScriptHashes(csp); !slices.Equal(got, want) {
		t.Errorf("hashes %q, want %q", got, want)
	}
	if got := StyleHashes(csp); !slices.Equal(got, []string{sha("body{color:red}")}) {
		t.Errorf("style hashes %q (%s)", got, csp)
	}
	if slices.Contains(ScriptHashes(csp), sha("alert(1)")) || strings.Contains(csp, "nonce-") {
		t.Errorf("CSP allows what it should not: %s", csp)
	}
	if b, csp := p.Seal([]byte(`{"a":1}`), "application/json", n); csp != "" || string(b) != `{"a":1}` {
		t.Errorf("non-HTML sealed: %q %q", b, csp)
	}
}

// A page with no inline script at all may run none.
func TestSealNoScripts(t *testing.T) {
	_, csp := mustNew(t, Options{}).Seal([]byte("<html><p>hi</p></html>"), "text/html", "RENDERnonce1234567890a")
	if got := directive(csp, "script-src"); got != "'none'" {
		t.Errorf("script-src %q", got)
	}
	if got := directive(csp, "style-src-elem"); got != "'self'" {
		t.Errorf("style-src-elem %q", got)
	}
}

func TestNonceIsFreshAndWellFormed(t *testing.T) {
	a, b := NewNonce(), NewNonce()
	if a == b || !regexp.MustCompile(`^[A-Za-z0-9_-]{22}$`).MatchString(a) {
		t.Errorf("nonces %q %q", a, b)
	}
}

func TestForwardedProto(t *testing.T) {
	for _, tc := range []struct {
		peer, xfp string
		marked    bool // the server's middleware found the peer in TRUSTED_PROXIES
		want      string
	}{
		{"127.0.0.1:5000", "http", false, "http"},
		{"127.0.0.1:5000", "https", false, "https"},
		{"10.0.0.2:5000", "HTTPS, http", true, "https"},
		{"10.0.0.2:5000", "https", false, "http"},    // private, but not a configured proxy
		{"203.0.113.9:5000", "https", false, "http"}, // not a trusted proxy: ignored
		{"127.0.0.1:5000", "gopher", false, "http"},
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = tc.peer
		r.Header.Set("X-Forwarded-Proto", tc.xfp)
		if tc.marked {
			r = request.With(r, "id", "198.51.100.7", true)
		}
		if got := ForwardedProto(r); got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.peer, tc.xfp, got, tc.want)
		}
	}
}
