// Package security is the one place the edge's security headers are
// defined: the Content-Security-Policy, frame, sniffing, referrer,
// permissions and cross-origin headers, HSTS, and the redirect of plain-http
// requests to https. Middleware puts them on every answer the edge sends
// (streamed pages, cached pages, the edge's own 503 and 404, API JSON,
// assets); a handler that sets one of them itself (the page cache's CSP,
// /reset-password's Referrer-Policy) keeps its own value.
//
// Scripts: every answer gets a fresh nonce (Nonce), handed to the renderer in the
// request header shared.HTTP.NonceHeader (any incoming one is dropped); the
// renderer puts it on each script it writes and the answer's policy allows
// 'nonce-<it>' 'strict-dynamic'. A page kept in the page cache is served to
// many visitors, so it cannot carry one visitor's nonce: Seal replaces the
// nonce of a stored document by the SHA-256 hashes of its inline scripts
// (only those the renderer marked with the render's nonce) and returns the
// policy that allows exactly those.
//
// Styles: the document's inline <style> (the first view's CSS, inlined by
// the renderer) follows the same rule under style-src-elem: the nonce when
// streamed, its hash once sealed. Style attributes stay allowed
// (style-src-attr), and style-src keeps 'unsafe-inline' only as the
// fallback of browsers without CSP level 3's -elem and -attr directives.
package security

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/httpx/request"
	"omnibus/shared"
)

// NonceHeader carries the answer's nonce to the renderer (shared/http.json).
var NonceHeader = http.CanonicalHeaderKey(shared.HTTP.NonceHeader)

// CSPHeader is the Content-Security-Policy header's name.
const CSPHeader = "Content-Security-Policy"

// Google Identity Services: what its sign-in script needs, from Google's own
// CSP guide, when GOOGLE_CLIENT_ID is set.
const (
	googleScript = "https://accounts.google.com/gsi/client"
	googleGSI    = "https://accounts.google.com/gsi/"
	googleStyle  = "https://accounts.google.com/gsi/style"
)

// Options configure New.
type Options struct {
	// PublicURL is the site's origin. With https: HSTS, and plain-http
	// requests (as a trusted proxy reports them) are redirected to it.
	PublicURL string
	// GoogleClientID, when set, adds what Google's sign-in script needs.
	GoogleClientID string
	// GoogleIssuerURL is the OpenID provider the no-JS Google flow goes to
	// (its origin is allowed as a form-action target along with the site).
	GoogleIssuerURL string
	// MerchantAppURL: when it is on another origin, sign-in forms end there
	// (303 after the POST), so form-action allows it.
	MerchantAppURL string
	// Dev leaves the CSP out: Vite's dev server injects scripts of its own.
	Dev bool
}

// Policy is the header set built from Options.
type Policy struct {
	static    []header // assigned when the handler did not set the header
	cspHead   string   // up to script-src's sources
	cspScript string   // script-src's sources after the nonce or hashes
	cspStyle  string   // style-src-elem's sources after the nonce or hashes
	cspTail   string   // the directives after style-src-elem
	lean      []header // a static file's set (StaticHeaders)
	data      []header // a JSON answer's set (Headers)
	dev       bool
	https     bool
	publicURL *url.URL
	coop      string
}

// New builds the header set.
func New(opts Options) (*Policy, error) {
	p := &Policy{dev: opts.Dev}
	if opts.PublicURL != "" {
		u, err := url.Parse(opts.PublicURL)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return nil, fmt.Errorf("security: PUBLIC_URL %q is not an http(s) origin", opts.PublicURL)
		}
		p.publicURL = &url.URL{Scheme: u.Scheme, Host: u.Host}
		p.https = u.Scheme == "https"
	}
	google := opts.GoogleClientID != ""

	formAction := []string{"'self'"}
	if google {
		if o := origin(opts.GoogleIssuerURL); o != "" {
			formAction = append(formAction, o)
		}
	}
	if o := origin(opts.MerchantAppURL); o != "" && (p.publicURL == nil || o != p.publicURL.String()) {
		formAction = append(formAction, o)
	}
	styleExtra, connect, frame := "", "'self'", ""
	scriptExtra := ""
	if google {
		styleExtra = " " + googleStyle
		connect += " " + googleGSI
		frame = "; frame-src " + googleGSI
		scriptExtra = " " + googleScript // ignored beside 'strict-dynamic'; for browsers without it
	}
	// default-src 'none': anything not listed is refused. Inline style
	// attributes stay allowed (React's style props, Google's button); an
	// inline <style> needs the nonce or its hash, like a script.
	p.cspHead = "default-src 'none'; script-src"
	p.cspScript = " 'strict-dynamic'" + scriptExtra
	p.cspStyle = styleExtra
	p.cspTail = "; style-src-attr 'unsafe-inline'; style-src 'self' 'unsafe-inline'" + styleExtra +
		"; img-src 'self' data:; font-src 'self'; connect-src " + connect +
		"; manifest-src 'self'; worker-src 'self'" + frame +
		"; form-action " + strings.Join(formAction, " ") +
		"; frame-ancestors 'none'; base-uri 'none'" // object-src: default-src 'none' covers it

	// Google's sign-in popup reports back to the page that opened it through
	// window.opener, which 'same-origin' would cut (docs/decisions/0008-security-headers.md).
	p.coop = "same-origin"
	if google {
		p.coop = "same-origin-allow-popups"
	}
	// Each value has cap 1: every answer shares the slice, and an Add copies.
	p.static = []header{
		{"X-Content-Type-Options", []string{"nosniff"}},
		{"X-Frame-Options", []string{"DENY"}},
		{"Referrer-Policy", []string{"strict-origin-when-cross-origin"}},
		{"Permissions-Policy", []string{permissionsPolicy}},
		{"Cross-Origin-Opener-Policy", []string{p.coop}},
		{"Cross-Origin-Resource-Policy", []string{"same-origin"}},
	}
	// A static file (a bundle, a picture, the manifest, an icon) is not a
	// document: what only a document obeys (its CSP, framing, referrer,
	// permissions, opener) protects nothing on it (docs/decisions/0037-lean-static-answers.md).
	p.lean = []header{
		{"X-Content-Type-Options", []string{"nosniff"}},
		{"Cross-Origin-Resource-Policy", []string{"same-origin"}},
	}
	if p.https {
		hsts := header{"Strict-Transport-Security", []string{"max-age=63072000"}}
		p.static = append(p.static, hsts)
		p.lean = append(p.lean, hsts)
	}
	// A JSON answer (the API, React Router's route manifest) is data that a
	// script reads, never a page a browser lays out: a file's set, and a
	// policy that lets nothing load or run and no page frame it, in case
	// one is opened on its own (docs/decisions/0067-json-answers-carry-a-data-set.md).
	p.data = append([]header{{"X-Frame-Options", []string{"DENY"}}, {CSPHeader, []string{dataCSP}}}, p.lean...)
	return p, nil
}

// dataCSP is the policy of a JSON answer.
const dataCSP = "default-src 'none'; frame-ancestors 'none'"

// isJSON says whether contentType is JSON (application/json or a +json type).
func isJSON(contentType string) bool {
	media, _, _ := strings.Cut(contentType, ";")
	media = strings.ToLower(strings.TrimSpace(media))
	return media == "application/json" || strings.HasPrefix(media, "application/") && strings.HasSuffix(media, "+json")
}

// svgCSP is the policy of an SVG file opened on its own (a document that can
// carry script): nothing loads or runs, its inline styles apply, and it is
// sandboxed.
const svgCSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

// StaticHeaders gives the answer of a static file of the build the headers
// that apply to a file: nosniff, CORP and HSTS (on https); an SVG also a CSP
// of its own (svgCSP). An HTML file is a document and gets the page's set
// (Headers). Like Headers, a header the answer set itself is kept.
func (p *Policy) StaticHeaders(h http.Header, r *http.Request) {
	ct := first(h["Content-Type"])
	if strings.HasPrefix(ct, "text/html") {
		p.Headers(h, r)
		return
	}
	for _, kv := range p.lean {
		if _, ok := h[kv.name]; !ok {
			h[kv.name] = kv.value
		}
	}
	if strings.HasPrefix(ct, "image/svg+xml") {
		if _, ok := h[CSPHeader]; !ok {
			h[CSPHeader] = svgCSPValue
		}
	}
}

var svgCSPValue = []string{svgCSP}

func first(vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	return vs[0]
}

// permissionsPolicy turns off the powerful features the site does not use
// (only names Chromium knows, so no console warnings).
const permissionsPolicy = "accelerometer=(), autoplay=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), " +
	"magnetometer=(), microphone=(), midi=(), payment=(), usb=(), xr-spatial-tracking=(), browsing-topics=()"

// origin is scheme://host of an absolute http(s) URL, else "".
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// Header returns the value the policy gives header name ("" if none), for
// tests and the checks in docs/security.md.
func (p *Policy) Header(name string) string {
	name = http.CanonicalHeaderKey(name)
	for _, h := range p.static {
		if h.name == name {
			return h.value[0]
		}
	}
	return ""
}

// CSP is the policy for an answer whose scripts carry nonce, or "" in dev mode.
func (p *Policy) CSP(nonce string) string {
	if p.dev {
		return ""
	}
	return p.cspHead + " 'nonce-" + nonce + "'" + p.cspScript + "; style-src-elem 'self' 'nonce-" + nonce + "'" + p.cspStyle + p.cspTail
}

// HashCSP is the policy for a stored document whose inline scripts and
// inline styles have these hashes ('sha256-...' sources), or "" in dev mode.
func (p *Policy) HashCSP(hashes, styleHashes []string) string {
	if p.dev {
		return ""
	}
	var b strings.Builder
	b.WriteString(p.cspHead)
	for _, h := range hashes {
		b.WriteString(" '")
		b.WriteString(h)
		b.WriteString("'")
	}
	if len(hashes) == 0 {
		b.WriteString(" 'none'") // no script may run
	} else {
		b.WriteString(p.cspScript)
	}
	b.WriteString("; style-src-elem 'self'")
	for _, h := range styleHashes {
		b.WriteString(" '")
		b.WriteString(h)
		b.WriteString("'")
	}
	b.WriteString(p.cspStyle)
	b.WriteString(p.cspTail)
	return b.String()
}

// header is one response header, its name canonical.
type header struct {
	name  string
	value []string
}

// NewNonce is 128 random bits, base64.
func NewNonce() string {
	var b [16]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// Nonce is the answer's nonce, drawn the first time something asks: the
// proxy, before it hands the request (and so the nonce, in NonceHeader) to
// the renderer, and Middleware, when the answer goes out without a policy of
// its own. A cache hit carries its stored page's policy and never draws one.
// It lives in r's header, so a handler that copies the request (r.Clone)
// before the proxy draws it first, for the copy to carry it (forms.Refuse).
func Nonce(r *http.Request) string {
	if v := r.Header[NonceHeader]; len(v) == 1 {
		return v[0]
	}
	n := NewNonce()
	r.Header[NonceHeader] = []string{n}
	return n
}

// Headers gives an answer's head the header set where the answer did not
// set its own, and the policy with the answer's nonce (Nonce(r)) when it set
// none. The server calls it as the head of every answer goes out.
func (p *Policy) Headers(h http.Header, r *http.Request) {
	if isJSON(first(h["Content-Type"])) {
		for _, kv := range p.data {
			if _, ok := h[kv.name]; !ok {
				h[kv.name] = kv.value
			}
		}
		return
	}
	for _, kv := range p.static {
		if _, ok := h[kv.name]; !ok {
			h[kv.name] = kv.value
		}
	}
	if _, ok := h[CSPHeader]; !ok && !p.dev {
		h[CSPHeader] = []string{p.CSP(Nonce(r))}
	}
}

// Middleware drops a visitor's nonce header (only Nonce sets it), and with
// an https PUBLIC_URL redirects requests a trusted proxy reports as plain
// http to https (308, same path and query). Requests without
// X-Forwarded-Proto are not redirected: they did not come through the TLS
// proxy (a probe or a tool on the host). Health probes are not redirected
// either: load balancers ask over plain http.
func (p *Policy) Middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r, res := c.Request(), c.Response()
		delete(r.Header, NonceHeader)
		if p.https && ForwardedProto(r) == "http" && r.Header.Get("X-Forwarded-Proto") != "" && r.URL.Path != "/healthz" && r.URL.Path != "/readyz" {
			target := *p.publicURL
			target.Path, target.RawPath, target.RawQuery = r.URL.Path, r.URL.RawPath, r.URL.RawQuery
			res.Header().Set("Cache-Control", "no-store")
			return c.Redirect(http.StatusPermanentRedirect, target.String())
		}
		return next(c)
	}
}

// ForwardedProto is the scheme the visitor used: "https" on a TLS
// connection, else X-Forwarded-Proto when the peer is a trusted proxy
// (loopback or TRUSTED_PROXIES), else "http".
func ForwardedProto(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	if request.FromTrustedProxy(r) { // loopback or TRUSTED_PROXIES (server's requestContext)
		// The first value is the proxy nearest the visitor.
		v, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
		if v = strings.ToLower(strings.TrimSpace(v)); v == "https" || v == "http" {
			return v
		}
	}
	return "http"
}

// Seal prepares a document rendered with nonce for sharing: the nonce
// attributes are removed and the policy returned allows the inline scripts
// and styles that carried that nonce by their SHA-256 hash (and scripts they
// load, by 'strict-dynamic'). Scripts and styles without the nonce (none are
// expected; one in Markdown content, say) stay refused. Returns body
// unchanged and "" when it is not HTML.
func (p *Policy) Seal(body []byte, contentType, nonce string) ([]byte, string) {
	if !strings.HasPrefix(strings.ToLower(contentType), "text/html") || nonce == "" {
		return body, ""
	}
	attr := []byte(` nonce="` + nonce + `"`)
	lower := asciiLower(body)
	scripts, styles := inlineHashes(body, lower, "script", attr), inlineHashes(body, lower, "style", attr)
	return bytes.ReplaceAll(body, attr, nil), p.HashCSP(scripts, styles)
}

// inlineHashes are the distinct 'sha256-...' sources of the texts of the
// elements re matches (start tag, text) whose start tag carries attr and
// no src.
func inlineHashes(body, lower []byte, tag string, attr []byte) []string {
	var hashes []string
	seen := map[string]bool{}
	for _, m := range elements(lower, tag) {
		open, text := body[m[0]:m[1]], body[m[1]:m[2]]
		if !bytes.Contains(open, attr) || bytes.Contains(open, []byte(" src=")) {
			continue
		}
		sum := sha256.Sum256(text)
		h := "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
		if !seen[h] {
			seen[h] = true
			hashes = append(hashes, h)
		}
	}
	return hashes
}

// elements finds each element tag (a script, a style) in lower, a document
// lowercased in ASCII: its start tag and its text, as [start tag's start,
// text's start, text's end]. Script text cannot contain "</script" (React
// escapes it), so the first end tag ends it; likewise for a style element
// (CSS text cannot contain "</style" either: the HTML parser would end it
// there). The same matches as the regular expression
// (?is)(<tag\b[^>]*>)(.*?)</tag\s*> it replaces (TestElementsAsTheExpression),
// in a twentieth of the time: every miss of the page cache seals its
// document, and on an 84 KB page the expression took about as long as
// compressing it.
func elements(lower []byte, tag string) [][3]int {
	var out [][3]int
	open, end := []byte("<"+tag), []byte("</"+tag)
	for from := 0; ; {
		i := bytes.Index(lower[from:], open)
		if i < 0 {
			return out
		}
		i += from
		from = i + 1
		after := i + len(open)
		if after < len(lower) && isWordByte(lower[after]) { // \b: <scripts is not <script
			continue
		}
		gt := bytes.IndexByte(lower[after:], '>')
		if gt < 0 {
			return out
		}
		text := after + gt + 1
		// The first end tag </tag\s*> after the start tag ends the text.
		for at := text; ; {
			j := bytes.Index(lower[at:], end)
			if j < 0 {
				return out
			}
			j += at
			k := j + len(end)
			for k < len(lower) && isSpace(lower[k]) {
				k++
			}
			if k < len(lower) && lower[k] == '>' {
				out = append(out, [3]int{i, text, j})
				from = k + 1
				break
			}
			at = j + 1
		}
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// isSpace is RE2's \s: tab, newline, form feed, carriage return, space.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// asciiLower is b with A-Z lowercased, the same length (bytes.ToLower also
// folds other letters, some into a different number of bytes).
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// ScriptHashes are the 'sha256-...' sources a policy's script-src allows.
func ScriptHashes(csp string) []string { return directiveHashes(csp, "script-src") }

// StyleHashes are the 'sha256-...' sources a policy's style-src-elem allows.
func StyleHashes(csp string) []string { return directiveHashes(csp, "style-src-elem") }

func directiveHashes(csp, name string) []string {
	var out []string
	for _, d := range strings.Split(csp, ";") {
		fields := strings.Fields(d)
		if len(fields) == 0 || fields[0] != name {
			continue
		}
		for _, f := range fields[1:] {
			if f = strings.Trim(f, "'"); strings.HasPrefix(f, "sha256-") {
				out = append(out, f)
			}
		}
	}
	return out
}
