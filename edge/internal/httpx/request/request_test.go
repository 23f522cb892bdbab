package request_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/uuid"

	"omnibus/edge/internal/httpx/request"
)

func TestTrustedProxies(t *testing.T) {
	none, err := request.ParseProxies("")
	if err != nil || len(none) != 0 {
		t.Fatal(none, err)
	}
	some, err := request.ParseProxies(" 10.0.0.0/8, 192.0.2.7 ,fd00::/8")
	if err != nil || len(some) != 3 {
		t.Fatal(some, err)
	}
	for ip, want := range map[string][2]bool{ // by default, configured
		"127.0.0.1": {true, true}, "::1": {true, true}, "10.1.2.3": {false, true}, "::ffff:10.1.2.3": {false, true},
		"192.0.2.7": {false, true}, "192.0.2.8": {false, false}, "fd00::1": {false, true}, "192.168.1.1": {false, false},
		"203.0.113.7": {false, false}, "": {false, false}, "junk": {false, false},
	} {
		if got := none.Trusts(ip); got != want[0] {
			t.Errorf("default Trusts(%q) = %v", ip, got)
		}
		if got := some.Trusts(ip); got != want[1] {
			t.Errorf("configured Trusts(%q) = %v", ip, got)
		}
	}
	for _, bad := range []string{"10.0.0.0/33", "example.com", "10.0.0.0/8;"} {
		if _, err := request.ParseProxies(bad); err == nil {
			t.Errorf("ParseProxies(%q) accepted", bad)
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

// A new request id is a well-formed random UUID (what log tools and the
// renderer expect) and ids do not repeat: two requests never share one.
func TestNewID(t *testing.T) {
	seen := make(map[string]bool, 100_000)
	for range 100_000 {
		id := request.NewID()
		u, err := uuid.Parse(id)
		if err != nil || u.Version() != 4 || u.Variant() != uuid.RFC4122 || u.String() != id || !request.ValidID(id) {
			t.Fatalf("NewID() = %q: not a version 4 UUID in its canonical form (%v)", id, err)
		}
		if seen[id] {
			t.Fatalf("NewID() repeated %q", id)
		}
		seen[id] = true
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
	r = request.With(r, "set-by-server", "203.0.113.7", false)
	if request.ClientIP(r) != "203.0.113.7" || request.ID(r) != "set-by-server" {
		t.Fatalf("ClientIP %q ID %q", request.ClientIP(r), request.ID(r))
	}
}
