package newsletter_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/forms/formstest"
	"omnibus/edge/internal/httpx/request"
	"omnibus/edge/internal/newsletter"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/server"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

const path = "/api/v1/news-letter/subscribe"

// newServer mounts the service as the edge does: on /api/v1 with the
// server's API body limit.
func newServer(db *storage.DB) (*echo.Echo, *newsletter.Service) {
	e := echo.New()
	// The server middleware's client IP (request.ClientIP), stood in for
	// by X-Real-IP as a trusted proxy would send it.
	e.Use(func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if ip := c.Request().Header.Get("X-Real-IP"); ip != "" {
				c.SetRequest(request.With(c.Request(), "", ip, true))
			}
			return next(c)
		}
	})
	s := newsletter.New(db, ratelimit.Keys{})
	s.Background = func(f func()) { f() }
	s.Register(e.Group("/api/v1", server.BodyLimit(server.DefaultAPIBodyLimit)))
	formstest.Wire(e, map[string]echo.HandlerFunc{forms.Newsletter: s.Submit()}, nil)
	return e, s
}

func post(e *echo.Echo, contentType, body string, header ...string) *httptest.ResponseRecorder {
	return postTo(e, path, contentType, body, header...)
}

func postTo(e *echo.Echo, path, contentType, body string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	return rec
}

func postJSON(e *echo.Echo, body string) *httptest.ResponseRecorder {
	return post(e, "application/json", body)
}

func errorDetail(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	var b struct {
		ErrorDetail *string `json:"errorDetail"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &b); err != nil || b.ErrorDetail == nil {
		t.Fatalf("body %q is not {\"errorDetail\": ...}", rec.Body.String())
	}
	return *b.ErrorDetail
}

func stored(t *testing.T, db *storage.DB) []string {
	t.Helper()
	var emails []string
	if err := db.Model(&newsletter.Subscription{}).Order("email").Pluck("email", &emails).Error; err != nil {
		t.Fatal(err)
	}
	return emails
}

func TestSubscribeStoresNormalisedAddressOnce(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		rec := postJSON(e, `{"emailaddress":"  Ada@Example.COM "}`)
		if rec.Code != http.StatusOK {
			t.Fatalf("status %d, body %s", rec.Code, rec.Body)
		}
		if got := strings.TrimSpace(rec.Body.String()); got != `{"data":{"subscribed":true}}` {
			t.Fatalf("body %s", got)
		}
		// The same address again, spelled differently: success, no second row.
		rec = postJSON(e, `{"emailaddress":"ada@example.com"}`)
		if rec.Code != http.StatusOK {
			t.Fatalf("second subscribe: status %d, body %s", rec.Code, rec.Body)
		}
		if got := stored(t, db); len(got) != 1 || got[0] != "ada@example.com" {
			t.Fatalf("stored %q, want exactly [ada@example.com]", got)
		}
	})
}

func TestSubscribeValidation(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		cases := []struct {
			name, body, detail string
		}{
			{"empty", `{"emailaddress":""}`, "Please provide an email address"},
			{"blank", `{"emailaddress":"   \t "}`, "Please provide an email address"},
			{"missing", `{}`, "Please provide an email address"},
			{"null", `{"emailaddress":null}`, "Please provide an email address"},
			{"no at", `{"emailaddress":"ada.example.com"}`, "Please enter a valid email address, like you@yourstore.com."},
			{"no domain dot", `{"emailaddress":"ada@example"}`, "Please enter a valid email address, like you@yourstore.com."},
			{"display name", `{"emailaddress":"Ada <ada@example.com>"}`, "Please enter a valid email address, like you@yourstore.com."},
			{"two addresses", `{"emailaddress":"a@example.com, b@example.com"}`, "Please enter a valid email address, like you@yourstore.com."},
			{"not a string", `{"emailaddress":42}`, "Please enter a valid email address, like you@yourstore.com."},
		}
		for _, tc := range cases {
			rec := postJSON(e, tc.body)
			if rec.Code != http.StatusBadRequest {
				t.Errorf("%s: status %d, want 400", tc.name, rec.Code)
				continue
			}
			if got := errorDetail(t, rec); got != tc.detail {
				t.Errorf("%s: errorDetail %q, want %q", tc.name, got, tc.detail)
			}
		}
		if got := stored(t, db); len(got) != 0 {
			t.Fatalf("refused requests stored %q", got)
		}
	})
}

func TestSubscribeBrokenJSON(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		for _, body := range []string{`{"emailaddress":`, `not json`, `["ada@example.com"]`, `{"emailaddress":"ada@example.com"} trailing`} {
			rec := postJSON(e, body)
			if rec.Code != http.StatusBadRequest {
				t.Errorf("%q: status %d, want 400", body, rec.Code)
				continue
			}
			if d := errorDetail(t, rec); d == "" {
				t.Errorf("%q: empty errorDetail", body)
			}
		}
		if got := stored(t, db); len(got) != 0 {
			t.Fatalf("broken requests stored %q", got)
		}
	})
}

func TestSubscribeBodyOver16KB(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		big := `{"emailaddress":"ada@example.com","pad":"` + strings.Repeat("x", 16<<10) + `"}`
		rec := postJSON(e, big)
		if rec.Code != http.StatusRequestEntityTooLarge {
			t.Fatalf("status %d, want 413", rec.Code)
		}
		errorDetail(t, rec)

		// Without a Content-Length (chunked upload) the body is cut while reading.
		req := httptest.NewRequest(http.MethodPost, path, struct{ *strings.Reader }{strings.NewReader(big)})
		req.ContentLength = -1
		req.Header.Set("Content-Type", "application/json")
		rec = httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code != http.StatusRequestEntityTooLarge {
			t.Fatalf("chunked: status %d, want 413", rec.Code)
		}
		if got := stored(t, db); len(got) != 0 {
			t.Fatalf("oversized requests stored %q", got)
		}

		// Exactly 16 KB is still read.
		ok := `{"emailaddress":"ada@example.com","pad":"` + strings.Repeat("x", 16<<10-len(`{"emailaddress":"ada@example.com","pad":""}`)) + `"}`
		if len(ok) != 16<<10 {
			t.Fatalf("test body is %d bytes", len(ok))
		}
		if rec := postJSON(e, ok); rec.Code != http.StatusOK {
			t.Fatalf("16 KB body: status %d, body %s", rec.Code, rec.Body)
		}
	})
}

func TestSubscribeRateLimitedPerIP(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, s := newServer(db)
		s.Limit = ratelimit.New(2, time.Hour)
		from := func(ip string) *httptest.ResponseRecorder {
			return post(e, "application/json", `{"emailaddress":"ada@example.com"}`, "X-Real-IP", ip)
		}
		for i := 0; i < 2; i++ {
			if rec := from("192.0.2.1"); rec.Code != http.StatusOK {
				t.Fatalf("request %d: status %d", i+1, rec.Code)
			}
		}
		rec := from("192.0.2.1")
		if rec.Code != http.StatusTooManyRequests {
			t.Fatalf("third request: status %d, want 429", rec.Code)
		}
		if ra := rec.Header().Get("Retry-After"); ra == "" || ra == "0" {
			t.Fatalf("Retry-After %q", ra)
		}
		errorDetail(t, rec)
		// Another client is not affected.
		if rec := from("192.0.2.2"); rec.Code != http.StatusOK {
			t.Fatalf("other IP: status %d", rec.Code)
		}
	})
}

func TestSubscribeStorageFailureIs503(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		if err := db.Exec("DROP TABLE newsletter_subscriptions").Error; err != nil {
			t.Fatal(err)
		}
		rec := postJSON(e, `{"emailaddress":"ada@example.com"}`)
		if rec.Code != http.StatusServiceUnavailable {
			t.Fatalf("status %d, want 503; body %s", rec.Code, rec.Body)
		}
		if strings.Contains(rec.Body.String(), "subscribed") {
			t.Fatalf("a failed write claims success: %s", rec.Body)
		}
		errorDetail(t, rec)
	})
}

// Without JavaScript the footer form posts form-encoded and is sent back to
// the page it came from, at the footer anchor, with the outcome in the query.
func TestSubscribeFormPostRedirectsBack(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		form := func(v url.Values, header ...string) *httptest.ResponseRecorder {
			return post(e, "application/x-www-form-urlencoded", v.Encode(), header...)
		}
		cases := []struct {
			name     string
			values   url.Values
			referer  string
			location string
		}{
			{"subscribed", url.Values{"emailaddress": {"Grace@Example.com"}, "returnTo": {"/features?x=1"}}, "",
				"/features?newsletter=subscribed&x=1#newsletter"},
			{"old outcome replaced", url.Values{"emailaddress": {"grace@example.com"}, "returnTo": {"/?newsletter=error&reason=empty"}}, "",
				"/?newsletter=subscribed#newsletter"},
			{"referer of this host", url.Values{"emailaddress": {"grace@example.com"}}, "http://example.com/partner-with-us",
				"/partner-with-us?newsletter=subscribed#newsletter"},
			{"protocol-relative returnTo", url.Values{"emailaddress": {"grace@example.com"}, "returnTo": {"//evil.example/x"}}, "",
				"/?newsletter=subscribed#newsletter"},
			{"backslash returnTo", url.Values{"emailaddress": {"grace@example.com"}, "returnTo": {"/\\evil.example"}}, "",
				"/?newsletter=subscribed#newsletter"},
			{"absolute returnTo", url.Values{"emailaddress": {"grace@example.com"}, "returnTo": {"https://evil.example/"}}, "",
				"/?newsletter=subscribed#newsletter"},
		}
		for _, tc := range cases {
			var rec *httptest.ResponseRecorder
			if tc.referer != "" {
				rec = form(tc.values, "Referer", tc.referer)
			} else {
				rec = form(tc.values)
			}
			if rec.Code != http.StatusSeeOther {
				t.Errorf("%s: status %d, want 303", tc.name, rec.Code)
				continue
			}
			if got := rec.Header().Get("Location"); got != tc.location {
				t.Errorf("%s: Location %q, want %q", tc.name, got, tc.location)
			}
		}
		if got := stored(t, db); len(got) != 1 || got[0] != "grace@example.com" {
			t.Fatalf("stored %q, want [grace@example.com]", got)
		}
	})
}

func TestSubscribeFormPostStorageFailure(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		db.Exec("DROP TABLE newsletter_subscriptions")
		rec := postTo(e, "/features", "application/x-www-form-urlencoded", "emailaddress=grace%40example.com")
		page, err := formstest.Decode(rec.Body.Bytes())
		if err != nil || rec.Code != http.StatusServiceUnavailable || page.Path != "/features" ||
			page.State.Error != "unavailable" || page.State.Values["emailaddress"] != "grace@example.com" {
			t.Fatalf("status %d, page %+v (%v)", rec.Code, page, err)
		}
		// Posted to the endpoint itself: JSON, as for any API caller.
		if rec := post(e, "application/x-www-form-urlencoded", "emailaddress=grace%40example.com&returnTo=%2F"); rec.Code != http.StatusServiceUnavailable || errorDetail(t, rec) == "" {
			t.Fatalf("API: status %d %s", rec.Code, rec.Body)
		}
	})
}

// The footer's form posted without JavaScript goes to the page it is on: a
// subscription is a redirect back there, a refusal the page again with the
// address. On a page with a form of its own it names itself.
func TestSubscribeFormPostedToItsPage(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		form := func(page string, v url.Values) (*httptest.ResponseRecorder, formstest.Page) {
			rec := postTo(e, page, "application/x-www-form-urlencoded", v.Encode())
			p, _ := formstest.Decode(rec.Body.Bytes())
			return rec, p
		}
		rec, _ := form("/blog/article/some-post?newsletter=error&reason=empty", url.Values{"emailaddress": {"Grace@Example.com"}})
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/blog/article/some-post?newsletter=subscribed#newsletter" {
			t.Fatalf("subscribed: %d %q", rec.Code, rec.Header().Get("Location"))
		}
		rec, page := form("/features", url.Values{"emailaddress": {"  "}})
		if rec.Code != http.StatusBadRequest || page.Path != "/features" || page.State.Form != "newsletter" ||
			page.State.Errors["emailaddress"] != "empty" || len(page.State.Values) != 0 || page.State.Error != "" {
			t.Fatalf("blank: %d %+v", rec.Code, page)
		}
		rec, page = form("/contact-us", url.Values{"form": {"newsletter"}, "emailaddress": {" grace@ "}})
		if rec.Code != http.StatusBadRequest || page.Path != "/contact-us" || page.State.Errors["emailaddress"] != "invalid" || page.State.Values["emailaddress"] != "grace@" {
			t.Fatalf("invalid, on a contact page: %d %+v", rec.Code, page)
		}
		// Not marked, a post to a contact page is the contact form's (not wired here: 405).
		if rec, _ := form("/contact-us", url.Values{"emailaddress": {"grace@example.com"}}); rec.Code != http.StatusMethodNotAllowed {
			t.Fatalf("unmarked post to /contact-us: %d", rec.Code)
		}
		// Pages without the footer take no newsletter post.
		if rec, _ := form("/login", url.Values{"form": {"newsletter"}, "emailaddress": {"grace@example.com"}}); rec.Code != http.StatusMethodNotAllowed {
			t.Fatalf("post to /login: %d", rec.Code)
		}
		if got := stored(t, db); len(got) != 1 || got[0] != "grace@example.com" {
			t.Fatalf("stored %q", got)
		}
	})
}

func TestNormalise(t *testing.T) {
	for in, want := range map[string]string{
		" Ada.Lovelace+news@Example.co.IN ": "ada.lovelace+news@example.co.in",
		"x@y.io":                            "x@y.io",
	} {
		if got, reason := newsletter.Normalise(in); got != want || reason != "" {
			t.Errorf("Normalise(%q) = %q, %q; want %q", in, got, reason, want)
		}
	}
	for _, in := range []string{"a@b.", "a@.b", "@b.com", "a b@c.com", strings.Repeat("a", 250) + "@b.com"} {
		if _, reason := newsletter.Normalise(in); reason != "invalid" {
			t.Errorf("Normalise(%q) reason %q, want invalid", in, reason)
		}
	}
}
