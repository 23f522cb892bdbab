package redirects_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
	"omnibus/edge/internal/redirects"
	"omnibus/shared"
)

func TestPricingIsAPermanentRedirectToTheSpecRoute(t *testing.T) {
	e := echo.New()
	redirects.Register(e, shared.Routes)
	for _, tc := range []struct{ method, path, want string }{
		{http.MethodGet, "/pricing", "/old-pricing"},
		{http.MethodHead, "/pricing", "/old-pricing"},
		{http.MethodGet, "/pricing/", "/old-pricing"},
		{http.MethodGet, "/pricing?utm_source=x", "/old-pricing?utm_source=x"},
	} {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != tc.want {
			t.Errorf("%s %s: %d Location %q, want 301 %q", tc.method, tc.path, rec.Code, rec.Header().Get("Location"), tc.want)
		}
	}
}

func TestParseRefusesBadRules(t *testing.T) {
	for _, bad := range []string{
		`{"redirects": [{"from": "pricing", "to": "/old-pricing"}]}`,
		`{"redirects": [{"from": "/a", "to": "//evil.example"}]}`,
		`{"redirects": [{"from": "/a", "to": "/a"}]}`,
		`{"redirects": [{"from": "/a", "to": "https://evil.example"}]}`,
	} {
		if _, err := shared.ParseRouteTable([]byte(bad)); err == nil {
			t.Errorf("the route table %s was accepted", bad)
		}
	}
}
