package request_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"omnibus/edge/internal/http/request"
)

func TestTrustedProxy(t *testing.T) {
	for ip, want := range map[string]bool{
		"127.0.0.1": true, "::1": true, "10.1.2.3": true, "172.16.0.9": true, "192.168.1.1": true, "fd00::1": true,
		"203.0.113.7": false, "8.8.8.8": false, "172.32.0.1": false, "169.254.1.1": false, "": false, "junk": false,
	} {
		if got := request.TrustedProxy(ip); got != want {
			t.Errorf("TrustedProxy(%q) = %v", ip, got)
		}
	}
}

func TestValidID(t *testing.T) {
	for id, want := range map[string]bool{
		"trace-42": true, "0b6c6f1e-8a0e-4c2e-9b8e-1b2c3d4e5f60": true, "a.b:c_d": true,
		"": false, "has space": false, "x\r\nSet-Cookie: a=b": false, "<script>": false, strings.Repeat("a", 129): false,
	} {
		if got := request.ValidID(id); got != want {
			t.Errorf("ValidID(%q) = %v", id, got)
		}
	}
}

// Without the server middleware, handlers fall back to the connection.
func TestFallbacks(t *testing.T) {
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "198.51.100.9:4321"
	r.Header.Set("X-Request-ID", "abc")
	if request.ClientIP(r) != "198.51.100.9" || request.ID(r) != "abc" {
		t.Fatalf("ClientIP %q ID %q", request.ClientIP(r), request.ID(r))
	}
	r = request.With(r, "set-by-server", "203.0.113.7")
	if request.ClientIP(r) != "203.0.113.7" || request.ID(r) != "set-by-server" {
		t.Fatalf("ClientIP %q ID %q", request.ClientIP(r), request.ID(r))
	}
}
