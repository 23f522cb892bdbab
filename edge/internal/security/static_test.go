package security_test

import (
	"bufio"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/security"
)

// headBytes sends a raw GET for path and returns the bytes of the answer's
// head as they went on the wire (status line, headers, blank line) and the
// parsed answer.
func headBytes(t *testing.T, edgeURL, path string, hdr map[string]string) (int, *http.Response) {
	t.Helper()
	u, _ := url.Parse(edgeURL)
	c, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	req := "GET " + path + " HTTP/1.1\r\nHost: " + u.Host + "\r\nUser-Agent: " + edgetest.ChromeUA + "\r\nConnection: close\r\n"
	for k, v := range hdr {
		req += k + ": " + v + "\r\n"
	}
	if _, err := c.Write([]byte(req + "\r\n")); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	n := 0
	var raw strings.Builder
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("%s: reading the head: %v", path, err)
		}
		n += len(line)
		raw.WriteString(line)
		if line == "\r\n" {
			break
		}
	}
	res, err := http.ReadResponse(bufio.NewReader(strings.NewReader(raw.String())), nil)
	if err != nil {
		t.Fatal(err)
	}
	return n, res
}

// staticBuild is a client build with a file of each kind the edge serves,
// named as the real build names them.
func staticBuild(t *testing.T) string {
	dir := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	js := strings.Repeat("export const a=1;", 20)
	write("assets/entry.client-CIMmHjHD.js", js)
	write("assets/entry.client-CIMmHjHD.js.br", js[:40])
	write("assets/entry.client-CIMmHjHD.js.gz", js[:50])
	write("assets/root-BMgX3n1q.css", "body{margin:0}")
	write("assets/root-BMgX3n1q.css.br", "x")
	write("images/logos/northwind-traders.webp", "RIFF....WEBP")
	write("images/placeholder.svg", `<svg xmlns="http://www.w3.org/2000/svg"/>`)
	write("og-image.jpg", "\xff\xd8\xff")
	write("manifest.webmanifest", `{"name":"Omnibus"}`)
	write("icons/icon-192.png", "\x89PNG")
	write("icons/apple-touch-icon.png", "\x89PNG")
	write("favicon.webp", "RIFF....WEBP")
	write("sw.js", "self.addEventListener('fetch',()=>{})")
	return dir
}

// documentOnly are the headers that only a document obeys: a static file's
// answer does not carry them (docs/decisions/0037-lean-static-answers.md).
var documentOnly = []string{"X-Frame-Options", "Referrer-Policy", "Permissions-Policy", "Cross-Origin-Opener-Policy", "X-Request-Id"}

// A static file's answer carries what applies to a file (type,
// length, caching, validators, nosniff, CORP, HSTS on https; an SVG its own
// script-less CSP) in at most 400 bytes of head, even behind https; pages
// keep the whole set.
func TestStaticAnswersAreLean(t *testing.T) {
	for _, public := range []string{"", "https://omnibus.example"} {
		e := edgetest.Start(t, edgetest.Options{RendererURL: nonceRenderer(t), AssetsDir: staticBuild(t), PublicURL: public})
		hdr := map[string]string{"Accept-Encoding": "gzip, deflate, br, zstd"}
		if public != "" {
			hdr["X-Forwarded-Proto"], hdr["X-Forwarded-Host"] = "https", "omnibus.example"
		}
		for _, path := range []string{
			"/assets/entry.client-CIMmHjHD.js", "/assets/root-BMgX3n1q.css", "/images/logos/northwind-traders.webp",
			"/images/placeholder.svg", "/og-image.jpg", "/manifest.webmanifest", "/icons/icon-192.png",
			"/icons/apple-touch-icon.png", "/favicon.webp",
		} {
			n, res := headBytes(t, e.URL, path, hdr)
			what := public + path
			if res.StatusCode != 200 {
				t.Fatalf("%s: %d", what, res.StatusCode)
			}
			t.Logf("%s: %d bytes of head", what, n)
			if n > 400 {
				t.Errorf("%s: %d bytes of head, want <= 400:\n%v", what, n, res.Header)
			}
			for _, h := range []string{"Content-Type", "Content-Length", "Cache-Control", "Etag"} {
				if res.Header.Get(h) == "" {
					t.Errorf("%s: no %s", what, h)
				}
			}
			if res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("Cross-Origin-Resource-Policy") != "same-origin" {
				t.Errorf("%s: nosniff/CORP missing: %v", what, res.Header)
			}
			if public != "" && res.Header.Get("Strict-Transport-Security") == "" {
				t.Errorf("%s: no HSTS over https", what)
			}
			for _, h := range documentOnly {
				if v := res.Header.Get(h); v != "" {
					t.Errorf("%s: %s: %s on a static file", what, h, v)
				}
			}
			csp := res.Header.Get("Content-Security-Policy")
			switch {
			case strings.HasSuffix(path, ".svg"):
				if !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "sandbox") {
					t.Errorf("%s: SVG without its own CSP: %q", what, csp)
				}
			case csp != "":
				t.Errorf("%s: CSP on a static file: %q", what, csp)
			}
		}
		// A conditional request is answered 304 with the same lean head.
		_, res := headBytes(t, e.URL, "/icons/icon-192.png", hdr)
		cond := map[string]string{"If-None-Match": res.Header.Get("Etag")}
		for k, v := range hdr {
			cond[k] = v
		}
		_, res = headBytes(t, e.URL, "/icons/icon-192.png", cond)
		if res.StatusCode != http.StatusNotModified || res.Header.Get("Permissions-Policy") != "" {
			t.Errorf("304: %d %v", res.StatusCode, res.Header)
		}

		// Pages, the service worker and a missing asset keep the whole set.
		p := policy(t, securityOptions(public))
		for _, path := range []string{"/features", "/features", "/login", "/sw.js", "/assets/missing.js"} {
			res, _ := do(t, "GET", e.URL+path, hdr)
			checkHeaders(t, public+path, res, p)
			if res.Header.Get("X-Request-Id") == "" {
				t.Errorf("%s: no request id", path)
			}
		}
	}
}

func securityOptions(public string) security.Options {
	if public == "" {
		public = "http://localhost:8080"
	}
	return security.Options{PublicURL: public}
}
