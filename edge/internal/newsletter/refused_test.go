package newsletter_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/mail/mailtest"
	"omnibus/edge/internal/newsletter"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// Cross-site posts are refused (403 with errorDetail) and a
// body type the endpoint does not take is 415; nothing is stored.
func TestCrossSiteAndBodyTypeRefused(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		for _, c := range []struct {
			name, ct string
			header   []string
			want     int
		}{
			{"evil origin, form", "application/x-www-form-urlencoded", []string{"Origin", "https://evil.example"}, http.StatusForbidden},
			{"evil origin, json", "application/json", []string{"Origin", "https://evil.example"}, http.StatusForbidden},
			{"cross-site fetch", "application/json", []string{"Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
			{"evil referer", "application/x-www-form-urlencoded", []string{"Referer", "https://evil.example/x"}, http.StatusForbidden},
			{"text/plain", "text/plain", nil, http.StatusUnsupportedMediaType},
			{"no type", "", nil, http.StatusUnsupportedMediaType},
			{"multipart", "multipart/form-data; boundary=x", nil, http.StatusUnsupportedMediaType},
		} {
			body := `{"emailaddress":"ada@example.com"}`
			if strings.Contains(c.ct, "form") || c.ct == "text/plain" {
				body = "emailaddress=ada%40example.com"
			}
			rec := post(e, c.ct, body, c.header...)
			if rec.Code != c.want {
				t.Errorf("%s: %d %s, want %d", c.name, rec.Code, rec.Body, c.want)
				continue
			}
			errorDetail(t, rec)
		}
		if got := stored(t, db); len(got) != 0 {
			t.Fatalf("stored %v", got)
		}
	})
}

var confirmRE = regexp.MustCompile(`https?://\S+/api/v1/news-letter/confirm\?token=[A-Za-z0-9_-]+`)

// Double opt-in. The subscription is pending until the link
// mailed to the address is opened; the answer is still 'subscribed'.
func TestDoubleOptIn(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		smtpd := mailtest.Start(t)
		sender, err := mail.New(smtpd.URL, "Omnibus <no-reply@omnibus.test>", db)
		if err != nil {
			t.Fatal(err)
		}
		e, s := newServer(db)
		s.Mail, s.PublicURL = sender, "https://omnibus.example"
		if rec := postJSON(e, `{"emailaddress":"ada@example.com"}`); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"subscribed":true`) {
			t.Fatalf("subscribe: %d %s", rec.Code, rec.Body)
		}
		var sub newsletter.Subscription
		db.First(&sub, "email = ?", "ada@example.com")
		if sub.ConfirmedAt != nil {
			t.Fatal("confirmed before the link was opened")
		}
		got := smtpd.Next(t)
		if len(got.To) != 1 || got.To[0] != "ada@example.com" {
			t.Fatalf("mail to %v", got.To)
		}
		_, body := got.Parse(t)
		link := confirmRE.FindString(body)
		if !strings.HasPrefix(link, "https://omnibus.example/api/v1/news-letter/confirm?token=") {
			t.Fatalf("no link in %q", body)
		}
		// Subscribing again at once mails nothing more (no mail bombing).
		postJSON(e, `{"emailaddress":"ada@example.com"}`)
		smtpd.None(t)

		u, _ := url.Parse(link)
		open := func() *httptest.ResponseRecorder {
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, u.RequestURI(), nil))
			return rec
		}
		if rec := open(); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/?newsletter=confirmed#newsletter" {
			t.Fatalf("confirm: %d %q", rec.Code, rec.Header().Get("Location"))
		}
		db.First(&sub, "email = ?", "ada@example.com")
		if sub.ConfirmedAt == nil {
			t.Fatal("not confirmed by the link")
		}
		if rec := open(); rec.Header().Get("Location") != "/?newsletter=error&reason=confirmInvalid#newsletter" {
			t.Fatalf("second use: %q", rec.Header().Get("Location"))
		}
		// A confirmed address subscribing again gets no mail.
		postJSON(e, `{"emailaddress":"ada@example.com"}`)
		smtpd.None(t)
	})
}
