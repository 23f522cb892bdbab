package theme

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/exchange"
)

// The theme buttons without JavaScript: a form post sets the cookie (system
// clears it) and sends the browser back to the page it came from on this
// site, never elsewhere; another site cannot post it; only three values exist.
func TestThemePost(t *testing.T) {
	e := echo.New()
	Register(e.Group("/api/v1"), "http://shop.example", &exchange.Vocabulary{
		CrossSite: "crossSite", UnsupportedType: "unsupported", TooLarge: "tooLarge", Malformed: "malformed",
		Words: func(code string) string { return "words of " + code },
	})
	post := func(v url.Values, origin string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, "http://shop.example/api/v1/theme", strings.NewReader(v.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Header.Set("Origin", origin)
		r.Header.Set("Sec-Fetch-Site", map[bool]string{true: "same-origin", false: "cross-site"}[origin == "http://shop.example"])
		w := httptest.NewRecorder()
		e.ServeHTTP(w, r)
		return w
	}
	w := post(url.Values{"theme": {"dark"}, "back": {"/features?x=1#uptime"}}, "http://shop.example")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/features?x=1" {
		t.Fatalf("dark: %d to %q", w.Code, w.Header().Get("Location"))
	}
	if ck := w.Result().Cookies(); len(ck) != 1 || ck[0].Name != Cookie || ck[0].Value != "dark" || ck[0].Path != "/" || ck[0].MaxAge <= 0 {
		t.Errorf("dark: cookies %v", ck)
	}
	w = post(url.Values{"theme": {"system"}, "back": {"/"}}, "http://shop.example")
	if ck := w.Result().Cookies(); w.Code != http.StatusSeeOther || len(ck) != 1 || ck[0].MaxAge >= 0 {
		t.Errorf("system: %d, cookies %v (want the cookie cleared)", w.Code, ck)
	}
	if w = post(url.Values{"theme": {"purple"}}, "http://shop.example"); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), `"errorDetail"`) || len(w.Result().Cookies()) != 0 {
		t.Errorf("purple: %d %s", w.Code, w.Body.String())
	}
	if w = post(url.Values{"theme": {"dark"}}, "http://evil.example"); w.Code != http.StatusForbidden || len(w.Result().Cookies()) != 0 {
		t.Errorf("cross-site: %d, cookies %v", w.Code, w.Result().Cookies())
	}
}

func TestBackStaysOnThisSite(t *testing.T) {
	for in, want := range map[string]string{
		"/contact-us":                   "/contact-us",
		"/blog?page=2":                  "/blog?page=2",
		"":                              "/",
		"//evil.example/x":              "/",
		"/\\evil.example":               "/",
		"https://evil.example/":         "/",
		"javascript:alert(1)":           "/",
		"features":                      "/",
		"/a\r\nSet-Cookie: x=1":         "/",
		"/" + strings.Repeat("a", 3000): "/",
	} {
		if got := Back(in); got != want {
			t.Errorf("Back(%q) = %q, want %q", in, got, want)
		}
	}
}
