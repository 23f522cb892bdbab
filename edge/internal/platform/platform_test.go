package platform_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/platform"
)

// The endpoint answers every claimed feature with all fields filled in, and
// each link points into the /features page.
func TestPlatformFeatures(t *testing.T) {
	e := echo.New()
	if err := platform.Register(e.Group("/api/v1")); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/platform-features", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d", rec.Code)
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type %q", ct)
	}
	var body struct {
		Data []platform.Feature `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	want := []string{"shipping", "admin console", "fulfilment", "coupon", "content", "dashboards", "AI-written", "advertising", "99.99%"}
	all := strings.ToLower(rec.Body.String())
	for _, w := range want {
		if !strings.Contains(all, strings.ToLower(w)) {
			t.Errorf("no feature mentions %q", w)
		}
	}
	for _, f := range body.Data {
		if f.Icon == "" || f.Title == "" || f.Text == "" || f.Color == "" || !strings.HasPrefix(f.Link, "/features#") {
			t.Errorf("incomplete feature %+v", f)
		}
	}
}
