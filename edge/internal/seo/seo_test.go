package seo_test

import (
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/seo"
)

func get(t *testing.T, e *echo.Echo, path string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: status %d", path, rec.Code)
	}
	return rec
}

// The sitemap lists the public pages with absolute URLs on PUBLIC_URL and
// leaves out parameterised, visitor-specific and template demo routes.
func TestSitemap(t *testing.T) {
	e := echo.New()
	if err := seo.Register(e, "https://omnibus.example/"); err != nil {
		t.Fatal(err)
	}
	rec := get(t, e, "/sitemap.xml")
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/xml") {
		t.Fatalf("Content-Type %q", ct)
	}
	var doc struct {
		URLs []struct {
			Loc string `xml:"loc"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var locs []string
	for _, u := range doc.URLs {
		locs = append(locs, u.Loc)
	}
	for _, want := range []string{"https://omnibus.example/", "https://omnibus.example/features", "https://omnibus.example/contact-us", "https://omnibus.example/privacy-policy", "https://omnibus.example/blog", "https://omnibus.example/help/category/article/success-story-kaveri-handlooms"} {
		if !slices.Contains(locs, want) {
			t.Errorf("sitemap lacks %s", want)
		}
	}
	for _, loc := range locs {
		for _, bad := range []string{":slug", "/login", "/register", "/sso-redirect", "/blocks", "/blog/posts-", "/blog/post"} {
			if strings.Contains(loc, bad) {
				t.Errorf("sitemap has %s", loc)
			}
		}
	}
}

// robots.txt keeps crawlers out of the API and points at the sitemap.
func TestRobots(t *testing.T) {
	e := echo.New()
	if err := seo.Register(e, "https://omnibus.example"); err != nil {
		t.Fatal(err)
	}
	body := get(t, e, "/robots.txt").Body.String()
	for _, want := range []string{"User-agent: *", "Disallow: /api/", "Sitemap: https://omnibus.example/sitemap.xml"} {
		if !strings.Contains(body, want) {
			t.Errorf("robots.txt lacks %q:\n%s", want, body)
		}
	}
}
