package server_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"omnibus/edge/internal/edgetest"
)

// Echo v4 has two advisories with no fixed version (deploy/vuln-exceptions.txt,
// read by make vuln): its proxy middleware forwards an attacker's X-Real-IP
// upstream (GO-2026-6875), and its rate limiter, keyed by default on
// c.RealIP(), trusts a spoofed X-Forwarded-For (GO-2026-6872). The edge uses
// neither: pages go to the renderer through its own reverse proxy, and every
// limit is keyed on request.ClientIP, which believes forwarding headers only
// from loopback and TRUSTED_PROXIES. This test is what an attacker would try:
// from an untrusted peer (a public address, and a private-network one, which
// is not trusted either), X-Real-IP and X-Forwarded-For naming someone else.
// The client address the edge resolves, which the renderer receives as
// X-Real-IP and the rate limits count by, is the peer's own, and neither
// header reaches the renderer as the attacker wrote it.
func TestUntrustedPeerCannotChooseItsAddress(t *testing.T) {
	var rr recordingRenderer
	e := edgetest.Start(t, edgetest.Options{RendererURL: rr.start(t), PublicURL: "http://shop.example"})
	for _, peer := range []string{"198.51.100.9", "10.1.2.3"} {
		for _, spoof := range []map[string]string{
			{"X-Real-IP": "203.0.113.50"},
			{"X-Forwarded-For": "203.0.113.51"},
			{"X-Real-IP": "203.0.113.52", "X-Forwarded-For": "203.0.113.53, 127.0.0.1"},
		} {
			req := httptest.NewRequest(http.MethodGet, "/contact-us", nil)
			req.RemoteAddr = peer + ":5555"
			req.Host = "shop.example"
			for k, v := range spoof {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			e.Server.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d", rec.Code)
			}
			if got := rr.header("X-Real-IP"); got != peer {
				t.Errorf("peer %s sending %v: the renderer was told the client is %q", peer, spoof, got)
			}
			if got := rr.header("X-Forwarded-For"); got != peer {
				t.Errorf("peer %s sending %v: the renderer got X-Forwarded-For %q", peer, spoof, got)
			}
		}
	}
}
