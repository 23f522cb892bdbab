package server_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"omnibus/edge/internal/security"
	"omnibus/edge/internal/server"
)

// Every answer's head carries the security headers and a policy, however it
// goes out: written, flushed before any byte (a stream's first flush), or
// after a 103 Early Hints head.
func TestSecurityHeadersOnEveryHead(t *testing.T) {
	heads := map[string]func(w http.ResponseWriter){
		"written": func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusOK)
			io.WriteString(w, "page")
		},
		"body only": func(w http.ResponseWriter) { io.WriteString(w, "page") },
		"flushed first": func(w http.ResponseWriter) {
			http.NewResponseController(w).Flush()
			io.WriteString(w, "page")
		},
		"after early hints": func(w http.ResponseWriter) {
			w.Header().Set("Link", "</assets/app.css>; rel=preload; as=style")
			w.WriteHeader(http.StatusEarlyHints)
			io.WriteString(w, "page")
		},
	}
	mux := http.NewServeMux()
	for name, head := range heads {
		mux.HandleFunc("/"+strings.ReplaceAll(name, " ", "-"), func(w http.ResponseWriter, r *http.Request) { head(w) })
	}
	url := serve(t, server.Options{Pages: mux})
	for name := range heads {
		res, err := http.Get(url + "/" + strings.ReplaceAll(name, " ", "-"))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || string(body) != "page" {
			t.Errorf("%s: %d %q", name, res.StatusCode, body)
		}
		for _, h := range []string{"X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy", security.CSPHeader} {
			if res.Header.Get(h) == "" {
				t.Errorf("%s: the answer went out without %s: %v", name, h, res.Header)
			}
		}
	}
}

// The CSP nonce is drawn only for an answer that uses one (the renderer's:
// the proxy asks for it with security.Nonce before forwarding) and any
// answer without a policy of its own. A cache hit carries its stored page's
// policy and draws none: on that path the random read was a tenth of the
// edge's own work. A visitor's own nonce header never survives.
func TestNonceOnlyWhereUsed(t *testing.T) {
	var handle http.HandlerFunc
	srv := server.New(server.Options{Pages: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handle(w, r) })})
	serve := func(h http.HandlerFunc) (*http.Request, *httptest.ResponseRecorder) {
		handle = h
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set(security.NonceHeader, "chosen-by-the-visitor-1234")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		return r, w
	}

	r, w := serve(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(security.CSPHeader, "script-src 'sha256-stored'")
		io.WriteString(w, "stored page")
	})
	if v, ok := r.Header[security.NonceHeader]; ok {
		t.Errorf("an answer with its own policy drew a nonce: %q", v)
	}
	if got := w.Header().Get(security.CSPHeader); got != "script-src 'sha256-stored'" {
		t.Errorf("its policy was replaced: %q", got)
	}

	var handed string
	_, w = serve(func(w http.ResponseWriter, r *http.Request) {
		handed = security.Nonce(r) // what the proxy hands the renderer
		io.WriteString(w, "streamed page")
	})
	if handed == "chosen-by-the-visitor-1234" || !strings.Contains(w.Header().Get(security.CSPHeader), "'nonce-"+handed+"'") {
		t.Errorf("renderer got %q, policy %q", handed, w.Header().Get(security.CSPHeader))
	}

	_, w = serve(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "the edge's own answer") })
	m := regexp.MustCompile(`'nonce-([A-Za-z0-9_-]{22})'`).FindStringSubmatch(w.Header().Get(security.CSPHeader))
	if m == nil || m[1] == handed {
		t.Errorf("an answer without a policy got none with a fresh nonce: %q", w.Header().Get(security.CSPHeader))
	}
}
