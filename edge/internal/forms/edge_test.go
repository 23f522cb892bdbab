package forms_test

import (
	"encoding/base64"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
	"omnibus/shared"
)

// Forms work without JavaScript, through the whole edge with the real renderer, on both
// databases: forms posted without JavaScript to their own page come back,
// when refused, as that page with what was typed (a password only on the
// registration's page) and every field's error; the page is nobody else's
// and never cached.
func TestFormsPostedToTheirPage(t *testing.T) {
	var contact struct {
		Fields map[string]struct {
			Error string `json:"error"`
		} `json:"fields"`
	}
	if err := json.Unmarshal(shared.ContactJSON, &contact); err != nil {
		t.Fatal(err)
	}
	var auth struct {
		Messages map[string]string `json:"messages"`
	}
	if err := json.Unmarshal(shared.AuthJSON, &auth); err != nil {
		t.Fatal(err)
	}

	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e := edgetest.Start(t, edgetest.Options{DB: db, RealRenderer: true})
		post := func(path string, v url.Values, header ...string) (*http.Response, string) {
			t.Helper()
			req, _ := http.NewRequest(http.MethodPost, e.URL+path, strings.NewReader(v.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("User-Agent", edgetest.ChromeUA)
			req.Header.Set("Origin", e.URL)
			req.Header.Set("Sec-Fetch-Site", "same-origin")
			for i := 0; i+1 < len(header); i += 2 {
				req.Header.Set(header[i], header[i+1])
			}
			res, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return res, string(b)
		}

		t.Run("contact", func(t *testing.T) {
			e.Get(t, "/contact-us") // in the page cache now
			message := "We sell hand-woven saris in Mysuru & want one inventory."
			res, body := post("/contact-us", url.Values{"topic": {"contact-us"}, "name": {""}, "email": {"lakshmi@"},
				"company": {"Kaveri Handlooms"}, "message": {message}})
			if res.StatusCode != http.StatusBadRequest || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
				t.Fatalf("status %d %s", res.StatusCode, res.Header.Get("Content-Type"))
			}
			if cc, xc := res.Header.Get("Cache-Control"), res.Header.Get("X-Cache"); cc != "no-store" || xc != "BYPASS" {
				t.Errorf("Cache-Control %q, X-Cache %q", cc, xc)
			}
			// The page is rendered from a copy of the post (forms.Refuse): its
			// scripts must carry the nonce its policy allows, or it never hydrates.
			csp := res.Header.Get("Content-Security-Policy")
			nonce := regexp.MustCompile(`'nonce-([A-Za-z0-9_-]+)'`).FindStringSubmatch(csp)
			tags := regexp.MustCompile(`<script\b[^>]*>`).FindAllString(body, -1)
			if nonce == nil || len(tags) == 0 {
				t.Fatalf("CSP %q, %d scripts: the page's scripts need the answer's nonce", csp, len(tags))
			}
			for _, tag := range tags {
				if !strings.Contains(tag, `nonce="`+nonce[1]+`"`) && !strings.Contains(tag, `type="application/ld+json"`) { // JSON-LD is data, never run
					t.Errorf("a script without the policy's nonce %s: %s", nonce[1], tag)
				}
			}
			for _, want := range []string{html.EscapeString(message), `value="Kaveri Handlooms"`, `value="lakshmi@"`,
				contact.Fields["name"].Error, contact.Fields["email"].Error, `aria-invalid="true"`, `action="/contact-us"`} {
				if !strings.Contains(body, want) {
					t.Errorf("the page does not contain %q", want)
				}
			}
			// The cached page was not served, nor replaced: a visit is the normal page.
			// (The rules' words are in every contact page's data; shown, a field is aria-invalid.)
			res, body = e.Get(t, "/contact-us")
			if res.StatusCode != http.StatusOK || res.Header.Get("X-Cache") != "HIT" || strings.Contains(body, "Kaveri Handlooms") ||
				strings.Contains(body, `aria-invalid`) {
				t.Errorf("GET after the refusal: %d %s, with the refused post's values or errors", res.StatusCode, res.Header.Get("X-Cache"))
			}
			// Long values in 3- and 4-byte characters (as many as the 16 KB body takes) fit the renderer's request head.
			res, body = post("/career", url.Values{"topic": {"career"}, "name": {strings.Repeat("𝄞", 100)}, "email": {"x"},
				"message": {strings.Repeat("☕", 1600)}})
			if res.StatusCode != http.StatusBadRequest || !strings.Contains(body, strings.Repeat("☕", 1600)+"</textarea>") || !strings.Contains(body, strings.Repeat("𝄞", 100)) {
				t.Errorf("long values: %d", res.StatusCode)
			}
		})

		// The password comes back as typed, as it stays with JavaScript
		// (decision 0061), in an answer no cache keeps: the next visitor's
		// page, and the next visit's, does not carry it.
		t.Run("register keeps what was typed, the password only in its own no-store page", func(t *testing.T) {
			const password = "Kaveri-Secret-Weave-42"
			form := url.Values{"name": {"Lakshmi"}, "email": {"lakshmi@example.com"}, "password": {password}, "storeName": {"Kaveri Looms"}}
			if res, _ := post("/register", form); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/contact-us" {
				t.Fatalf("register: %d %q", res.StatusCode, res.Header.Get("Location"))
			}
			res, body := post("/register", form) // the e-mail is taken now
			if res.StatusCode != http.StatusConflict || res.Header.Get("Cache-Control") != "no-store" || res.Header.Get("X-Cache") != "BYPASS" {
				t.Fatalf("taken: %d %q %q", res.StatusCode, res.Header.Get("Cache-Control"), res.Header.Get("X-Cache"))
			}
			for _, want := range []string{`value="Kaveri Looms"`, `value="lakshmi@example.com"`, `value="` + password + `"`, html.EscapeString(auth.Messages["emailTaken"])} {
				if !strings.Contains(body, want) {
					t.Errorf("taken: the page does not contain %q", want)
				}
			}
			form.Set("email", "lakshmi@example")
			res, body = post("/register", form)
			if res.StatusCode != http.StatusBadRequest || !strings.Contains(body, `value="Kaveri Looms"`) || !strings.Contains(body, auth.Messages["emailInvalid"]) {
				t.Errorf("invalid e-mail: %d", res.StatusCode)
			}
			if !strings.Contains(body, `value="`+password+`"`) {
				t.Error("invalid e-mail: the password typed is gone")
			}
			for _, p := range []string{"/register", "/login"} {
				if _, b := e.Get(t, p); strings.Contains(b, password) {
					t.Errorf("GET %s after the refusals shows the password", p)
				}
			}
		})

		t.Run("a visitor cannot send the form state", func(t *testing.T) {
			forged := base64.RawURLEncoding.EncodeToString([]byte(`{"form":"contact","values":{"name":"Forged Name"},"errors":{"email":"invalid"}}`))
			for _, p := range []string{"/general-enquiry", "/login"} {
				req, _ := http.NewRequest(http.MethodGet, e.URL+p, nil)
				req.Header.Set(shared.HTTP.FormStateHeader, forged)
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK || strings.Contains(string(b), "Forged Name") || strings.Contains(string(b), "aria-invalid") {
					t.Errorf("%s with a forged state: %d, shown", p, res.StatusCode)
				}
			}
			if _, body := e.Get(t, "/general-enquiry"); strings.Contains(body, "Forged Name") {
				t.Error("the forged state reached the cache")
			}
		})

		t.Run("POST to a page without a form is 405", func(t *testing.T) {
			for _, p := range []string{"/sso-redirect", "/test-payment", "/no-such-page"} {
				if res, _ := post(p, url.Values{"form": {"newsletter"}, "emailaddress": {"ana@example.com"}}); res.StatusCode != http.StatusMethodNotAllowed {
					t.Errorf("POST %s: %d", p, res.StatusCode)
				}
			}
		})

		t.Run("cross-site posts to a page are 403", func(t *testing.T) {
			for _, p := range []string{"/contact-us", "/login", "/features"} {
				res, body := post(p, url.Values{"email": {"ana@example.com"}, "emailaddress": {"ana@example.com"}}, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")
				if res.StatusCode != http.StatusForbidden || strings.Contains(body, "ana@example.com") {
					t.Errorf("cross-site POST %s: %d", p, res.StatusCode)
				}
			}
		})
	})
}
