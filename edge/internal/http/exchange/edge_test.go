package exchange_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"

	"omnibus/edge/internal/edgetest"
	"omnibus/shared"
)

// Every endpoint that takes a form or JSON reads its
// request through the one decoder and answers through the one helper, on the
// app's own wiring: an oversized body is 413, a body of another type 415, a
// cross-site form post 403, JSON that does not parse 400 — each as
// {"errorDetail"} in the endpoint's own words, never cached.
func TestEveryEndpointDecodesAndRefusesAlike(t *testing.T) {
	words := func(raw []byte, table string) map[string]string {
		var c map[string]json.RawMessage
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		if err := json.Unmarshal(c[table], &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	auth, news, journey := words(shared.AuthJSON, "messages"), words(shared.NewsletterJSON, "messages"), words(shared.JourneyJSON, "messages")
	contact := words(shared.ContactJSON, "outcomes")
	var generic struct {
		GenericError string `json:"genericError"`
	}
	json.Unmarshal(shared.ContactJSON, &generic)
	type want struct{ tooLarge, unsupported, crossSite, malformed string }
	fromTable := func(m map[string]string) want {
		return want{m["tooLarge"], m["unsupportedType"], m["crossSite"], m["malformed"]}
	}
	endpoints := []struct {
		path string
		want want
		back string // billing: a form post goes back to its page with ?error=<code>
	}{
		{"/api/v1/oaccount/register", fromTable(auth), ""},
		{"/api/v1/oaccount/login", fromTable(auth), ""},
		{"/api/v1/hq/account/seller/login", fromTable(auth), ""},
		{"/api/v1/hq/oaccount/forgotPassword", fromTable(auth), ""},
		{"/api/v1/hq/oaccount/resetPassword", fromTable(auth), ""},
		{"/api/v1/oaccount/store-name", fromTable(auth), ""},
		{"/api/v1/theme", fromTable(auth), ""},
		{"/api/v1/news-letter/subscribe", fromTable(news), ""},
		{"/api/v1/omnibus/contact-us", want{contact["too-large"], contact["unsupported-type"], contact["cross-site"], generic.GenericError}, ""},
		{"/api/v1/licenses/initialiseLicenses", fromTable(journey), "/choose-plan"},
		{"/api/v1/petpawlor/license/purchase", fromTable(journey), "/petpawlor"},
	}

	e := edgetest.Start(t, edgetest.Options{})
	jar, _ := cookiejar.New(nil)
	merchant := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	send := func(path, contentType string, body io.Reader, header ...string) (int, http.Header, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, e.URL+path, body)
		if err != nil {
			t.Fatal(err)
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		res, err := merchant.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		var got struct {
			ErrorDetail string `json:"errorDetail"`
		}
		json.Unmarshal(b, &got)
		return res.StatusCode, res.Header, got.ErrorDetail
	}
	// Signed in, so the billing endpoints read their bodies too.
	if status, _, detail := send("/api/v1/oaccount/register", "application/json",
		strings.NewReader(`{"name":"Mira","email":"mira@example.com","password":"correct horse battery","storeName":"mira"}`)); status != http.StatusCreated {
		t.Fatalf("register: %d %s", status, detail)
	}

	big := `{"x":"` + strings.Repeat("a", 20<<10) + `"}`
	for _, ep := range endpoints {
		for _, c := range []struct {
			name, contentType string
			body              func() io.Reader
			header            []string
			status            int
			detail            string
		}{
			{"oversized JSON", "application/json", func() io.Reader { return strings.NewReader(big) }, nil, http.StatusRequestEntityTooLarge, ep.want.tooLarge},
			// No Content-Length: the server's body limit notices it.
			{"oversized, streamed", "application/json", func() io.Reader { return io.MultiReader(bytes.NewReader([]byte(big))) }, nil, http.StatusRequestEntityTooLarge, ep.want.tooLarge},
			{"oversized form", "application/x-www-form-urlencoded", func() io.Reader { return strings.NewReader("x=" + strings.Repeat("a", 20<<10)) }, nil, http.StatusRequestEntityTooLarge, ep.want.tooLarge},
			{"text/plain", "text/plain", func() io.Reader { return strings.NewReader(`{"planId":"growth"}`) }, nil, http.StatusUnsupportedMediaType, ep.want.unsupported},
			{"no type", "", func() io.Reader { return strings.NewReader(`{}`) }, nil, http.StatusUnsupportedMediaType, ep.want.unsupported},
			{"cross-site form", "application/x-www-form-urlencoded", func() io.Reader { return strings.NewReader("email=a%40b.in") },
				[]string{"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"}, http.StatusForbidden, ep.want.crossSite},
			{"malformed JSON", "application/json", func() io.Reader { return strings.NewReader(`{"email":`) }, nil, http.StatusBadRequest, ep.want.malformed},
			{"JSON not an object", "application/json", func() io.Reader { return strings.NewReader(`["a"]`) }, nil, http.StatusBadRequest, ep.want.malformed},
		} {
			status, header, detail := send(ep.path, c.contentType, c.body(), c.header...)
			if ep.back != "" && c.contentType == "application/x-www-form-urlencoded" && c.status == http.StatusRequestEntityTooLarge {
				if to := header.Get("Location"); status != http.StatusSeeOther || to != ep.back+"?error=tooLarge" {
					t.Errorf("%s, %s: %d to %q, want 303 to %s?error=tooLarge", ep.path, c.name, status, to, ep.back)
				}
				continue
			}
			if status != c.status || detail != c.detail || detail == "" || header.Get("Cache-Control") != "no-store" {
				t.Errorf("%s, %s: %d %q (Cache-Control %q), want %d %q", ep.path, c.name, status, detail, header.Get("Cache-Control"), c.status, c.detail)
			}
		}
	}
}
