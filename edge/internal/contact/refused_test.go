package contact_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

func validForm() url.Values {
	return url.Values{"topic": {"contact-us"}, "name": {"Ana Lima"}, "email": {"ana@example.com"}, "message": {"We would like a demo of the platform."}}
}

// Cross-site posts are refused (403 with errorDetail), a
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
			{"evil origin, text/plain", "text/plain", []string{"Origin", "https://evil.example"}, http.StatusForbidden},
			{"cross-site fetch", "application/x-www-form-urlencoded", []string{"Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
			{"text/plain", "text/plain", nil, http.StatusUnsupportedMediaType},
			{"no type", "", nil, http.StatusUnsupportedMediaType},
		} {
			req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(validForm().Encode()))
			if c.ct != "" {
				req.Header.Set("Content-Type", c.ct)
			}
			for i := 0; i+1 < len(c.header); i += 2 {
				req.Header.Set(c.header[i], c.header[i+1])
			}
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			if rec.Code != c.want {
				t.Errorf("%s: %d %s, want %d", c.name, rec.Code, rec.Body, c.want)
				continue
			}
			decodeError(t, rec)
		}
		if got := stored(t, db); len(got) != 0 {
			t.Fatalf("stored %v", got)
		}
	})
}

// Control and bidi characters are refused in every
// field (line breaks only in the message), on both databases.
func TestContactControlCharacters(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		for field, v := range map[string]string{"name": "Ana\r\nLima", "company": "Lima\x00Co", "message": "Hello there \u202e sdneirf olleh", "email": "a,b@x.in"} {
			in := map[string]string{"topic": "contact-us", "name": "Ana Lima", "email": "ana@example.com", "message": "We would like a demo of the platform."}
			in[field] = v
			rec := postJSON(e, in)
			if b := decodeError(t, rec); rec.Code != http.StatusBadRequest || b.Field != field {
				t.Errorf("%s %q: %d %s", field, v, rec.Code, rec.Body)
			}
		}
		if rec := postJSON(e, map[string]string{"topic": "contact-us", "name": "Ana Lima", "email": "ana@example.com", "message": "Line one,\r\n\tline two."}); rec.Code != http.StatusCreated {
			t.Fatalf("multi-line message: %d %s", rec.Code, rec.Body)
		}
	})
}
