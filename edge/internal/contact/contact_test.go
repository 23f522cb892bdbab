package contact_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/contact"
	"omnibus/edge/internal/forms/formstest"
	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

const path = "/api/v1/omnibus/contact-us"

func newServer(db *storage.DB) (*echo.Echo, *contact.Service) {
	e := echo.New()
	s := contact.New(db, ratelimit.Keys{})
	s.Now = func() time.Time { return time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC) }
	s.Register(e.Group("/api/v1"))
	formstest.Wire(e, map[string]echo.HandlerFunc{"contact": s.Submit()}, nil)
	return e, s
}

func post(e *echo.Echo, contentType, body string) *httptest.ResponseRecorder {
	return postTo(e, path, contentType, body)
}

func postTo(e *echo.Echo, path, contentType, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	return rec
}

func postJSON(e *echo.Echo, v any) *httptest.ResponseRecorder {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return post(e, "application/json", string(b))
}

func postForm(e *echo.Echo, v url.Values) *httptest.ResponseRecorder {
	return post(e, "application/x-www-form-urlencoded", v.Encode())
}

// postPage posts the form to its page, as a browser without JavaScript
// does, and reads the page a refusal is answered with.
func postPage(t *testing.T, e *echo.Echo, page string, v url.Values) (*httptest.ResponseRecorder, formstest.Page) {
	t.Helper()
	rec := postTo(e, page, "application/x-www-form-urlencoded", v.Encode())
	var p formstest.Page
	if rec.Code != http.StatusSeeOther {
		var err error
		if p, err = formstest.Decode(rec.Body.Bytes()); err != nil {
			t.Fatalf("POST %s: %d %q is not the page", page, rec.Code, rec.Body)
		}
	}
	return rec, p
}

type errBody struct {
	ErrorDetail *string `json:"errorDetail"`
	Field       string  `json:"field"`
}

func decodeError(t *testing.T, rec *httptest.ResponseRecorder) errBody {
	t.Helper()
	var b errBody
	if err := json.Unmarshal(rec.Body.Bytes(), &b); err != nil || b.ErrorDetail == nil {
		t.Fatalf("body %q is not {\"errorDetail\": ...}", rec.Body.String())
	}
	return b
}

func stored(t *testing.T, db *storage.DB) []contact.Message {
	t.Helper()
	var ms []contact.Message
	if err := db.Order("id").Find(&ms).Error; err != nil {
		t.Fatal(err)
	}
	return ms
}

func valid() map[string]string {
	return map[string]string{
		"topic":   "contact-us",
		"name":    "  Lakshmi R. ",
		"email":   "lakshmi@kaverihandlooms.in",
		"company": "Kaveri Handlooms",
		"phone":   "+91 80 4567 8900",
		"message": "We run two stores in Mysuru and want one inventory.\r\nCan we talk on Monday?",
	}
}

func TestJSONSubmissionIsStored(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		rec := postJSON(e, valid())
		if rec.Code != http.StatusCreated {
			t.Fatalf("status %d, body %s", rec.Code, rec.Body)
		}
		if got := strings.TrimSpace(rec.Body.String()); got != `{"data":{"sent":true}}` {
			t.Fatalf("body %s", got)
		}
		ms := stored(t, db)
		if len(ms) != 1 {
			t.Fatalf("stored %d messages, want 1", len(ms))
		}
		m := ms[0]
		if m.Topic != "contact-us" || m.Name != "Lakshmi R." || m.Email != "lakshmi@kaverihandlooms.in" ||
			m.Company != "Kaveri Handlooms" || m.Phone != "+91 80 4567 8900" ||
			m.Message != "We run two stores in Mysuru and want one inventory.\nCan we talk on Monday?" {
			t.Fatalf("stored %+v", m)
		}
		if !m.CreatedAt.Equal(time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)) {
			t.Fatalf("created_at %v", m.CreatedAt)
		}
	})
}

func TestOptionalFieldsMayBeLeftOut(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		rec := postJSON(e, map[string]string{"topic": "career", "name": "Arjun", "email": "arjun@example.in", "message": "I would like to apply for the frontend role."})
		if rec.Code != http.StatusCreated {
			t.Fatalf("status %d, body %s", rec.Code, rec.Body)
		}
		if ms := stored(t, db); len(ms) != 1 || ms[0].Topic != "career" || ms[0].Company != "" || ms[0].Phone != "" {
			t.Fatalf("stored %+v", ms)
		}
	})
}

func TestEveryContactPageIsATopic(t *testing.T) {
	got := contact.Topics()
	sort.Strings(got)
	want := []string{"career", "contact-us", "custom-banners", "custom-logo", "custom-website", "data-entry", "general-enquiry"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("topics %v, want %v", got, want)
	}
}

func TestValidationNamesTheField(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		cases := []struct {
			field, value, want string
		}{
			{"topic", "", "topic"},
			{"topic", "pricing", "topic"},
			{"name", "   ", "name"},
			{"name", strings.Repeat("a", 101), "name"},
			{"name", "Ada\x00", "name"},
			{"email", "", "email"},
			{"email", "ada.example.com", "email"},
			{"email", "ada@example", "email"},
			{"email", "Ada <ada@example.com>", "email"},
			{"company", strings.Repeat("c", 121), "company"},
			{"phone", "12345", "phone"},
			{"phone", "call me maybe", "phone"},
			{"phone", "+91 80 4567 8900 1234 5", "phone"},
			{"message", "", "message"},
			{"message", "Hi there", "message"},
			{"message", strings.Repeat("m", 2001), "message"},
			{"cvUrl", "javascript:alert(1)", "cvUrl"},
			{"cvUrl", "cv.pdf", "cvUrl"},
			{"cvUrl", "https://user:pw@example.com/cv", "cvUrl"},
			{"cvUrl", "https://example.com/" + strings.Repeat("c", 500), "cvUrl"},
		}
		for _, tc := range cases {
			in := valid()
			in[tc.field] = tc.value
			rec := postJSON(e, in)
			if rec.Code != http.StatusBadRequest {
				t.Errorf("%s=%q: status %d, want 400", tc.field, tc.value, rec.Code)
				continue
			}
			b := decodeError(t, rec)
			if b.Field != tc.want || *b.ErrorDetail != contact.ErrorMessage(tc.want) || *b.ErrorDetail == "" {
				t.Errorf("%s=%q: got field %q detail %q", tc.field, tc.value, b.Field, *b.ErrorDetail)
			}
		}
		if ms := stored(t, db); len(ms) != 0 {
			t.Fatalf("refused requests stored %+v", ms)
		}
	})
}

func TestCareerMessageKeepsItsCVLink(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		in := valid()
		in["topic"], in["cvUrl"] = "career", " https://example.com/ada-cv.pdf "
		if rec := postJSON(e, in); rec.Code != http.StatusCreated && rec.Code != http.StatusOK {
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
		if ms := stored(t, db); len(ms) != 1 || ms[0].CVURL != "https://example.com/ada-cv.pdf" {
			t.Fatalf("stored %+v, want the trimmed CV link", ms)
		}
	})
}

func TestValidationMessagesAreTheSharedOnes(t *testing.T) {
	// Spot-check the words against shared/content/contact.json.
	if got := contact.ErrorMessage("name"); got != "Please enter your name." {
		t.Errorf("name error %q", got)
	}
	if got := contact.ErrorMessage("topic"); got != "Please choose what your enquiry is about." {
		t.Errorf("topic error %q", got)
	}
	if got := contact.ErrorMessage("nonsense"); got != "Please enter a valid value" {
		t.Errorf("generic error %q", got)
	}
}

func TestUnreadableJSONIsTheGenericError(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		for _, body := range []string{`{"name":`, `not json`, `["x"]`, `{"name": 42}`, `{"topic":"contact-us"} trailing`} {
			rec := post(e, "application/json", body)
			if rec.Code != http.StatusBadRequest {
				t.Errorf("%s: status %d, want 400", body, rec.Code)
				continue
			}
			if got := *decodeError(t, rec).ErrorDetail; got != "Please enter a valid value" {
				t.Errorf("%s: errorDetail %q", body, got)
			}
		}
	})
}

func TestBodyOver16KBIs413(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		in := valid()
		in["message"] = strings.Repeat("x", contact.MaxBody)
		rec := postJSON(e, in)
		if rec.Code != http.StatusRequestEntityTooLarge {
			t.Fatalf("status %d, want 413", rec.Code)
		}
		decodeError(t, rec)
		// Without a Content-Length the limit still holds while reading.
		b, _ := json.Marshal(in)
		req := httptest.NewRequest(http.MethodPost, path, struct{ *strings.Reader }{strings.NewReader(string(b))})
		req.ContentLength = -1
		req.Header.Set("Content-Type", "application/json")
		rec = httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code != http.StatusRequestEntityTooLarge {
			t.Fatalf("chunked: status %d, want 413", rec.Code)
		}
		if ms := stored(t, db); len(ms) != 0 {
			t.Fatalf("stored %d messages", len(ms))
		}
	})
}

func TestRateLimitedPerIPAfterTheBurst(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, s := newServer(db)
		s.Limit = ratelimit.New(2, time.Hour)
		// Invalid submissions do not use up the allowance.
		bad := valid()
		bad["email"] = "nope"
		for i := 0; i < 5; i++ {
			if rec := postJSON(e, bad); rec.Code != http.StatusBadRequest {
				t.Fatalf("invalid #%d: status %d", i, rec.Code)
			}
		}
		for i := 0; i < 2; i++ {
			if rec := postJSON(e, valid()); rec.Code != http.StatusCreated {
				t.Fatalf("message %d: status %d", i, rec.Code)
			}
		}
		rec := postJSON(e, valid())
		if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
			t.Fatalf("third message: status %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
		}
		decodeError(t, rec)
		rec, page := postPage(t, e, "/data-entry", url.Values{"topic": {"data-entry"}, "name": {"A"}, "email": {"a@b.in"}, "message": {"About 300 products."}})
		if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" || page.Path != "/data-entry" ||
			page.State.Error != contact.OutcomeRateLimited || page.State.Values["message"] != "About 300 products." {
			t.Fatalf("form: status %d, Retry-After %q, page %+v", rec.Code, rec.Header().Get("Retry-After"), page)
		}
		if ms := stored(t, db); len(ms) != 2 {
			t.Fatalf("stored %d messages, want 2", len(ms))
		}
	})
}

func TestStorageFailureIs503AndClaimsNothing(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		if err := db.Migrator().DropTable("contact_messages"); err != nil {
			t.Fatal(err)
		}
		rec := postJSON(e, valid())
		if rec.Code != http.StatusServiceUnavailable {
			t.Fatalf("status %d, want 503", rec.Code)
		}
		if got := *decodeError(t, rec).ErrorDetail; !strings.Contains(got, "has not been sent") {
			t.Fatalf("errorDetail %q does not say the message was not sent", got)
		}
		v := url.Values{}
		for k, x := range valid() {
			v.Set(k, x)
		}
		rec, page := postPage(t, e, "/contact-us", v)
		if rec.Code != http.StatusServiceUnavailable || page.State.Error != contact.OutcomeUnavailable || page.State.Values["name"] != "Lakshmi R." {
			t.Fatalf("form: status %d, page %+v", rec.Code, page)
		}
	})
}

func TestFormPostRedirectsBackToItsPage(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		v := url.Values{"topic": {"custom-logo"}, "name": {"Meera"}, "email": {"meera@example.in"}, "company": {""}, "phone": {""}, "message": {"A logo for my bakery, Crumbs."}}
		rec, _ := postPage(t, e, "/custom-logo", v)
		if rec.Code != http.StatusSeeOther {
			t.Fatalf("status %d, body %s", rec.Code, rec.Body)
		}
		if got := rec.Header().Get("Location"); got != "/custom-logo?outcome=sent#contact-form" {
			t.Fatalf("Location %q", got)
		}
		if ms := stored(t, db); len(ms) != 1 || ms[0].Topic != "custom-logo" || ms[0].Name != "Meera" {
			t.Fatalf("stored %+v", ms)
		}
	})
}

// A refused post without JavaScript comes back as its page with what was
// typed and every invalid field, not only the first.
func TestRefusedFormPostIsItsPageWithEveryError(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		v := url.Values{"topic": {"custom-logo"}, "name": {" "}, "email": {"meera"}, "company": {"Crumbs & Co"}, "phone": {"12"},
			"message": {"  A logo\r\nfor my bakery.  "}, "cvUrl": {"not a link"}, "form": {"contact"}}
		rec, page := postPage(t, e, "/custom-logo", v)
		if rec.Code != http.StatusBadRequest || page.Path != "/custom-logo" || page.State.Form != "contact" || page.State.Error != "" {
			t.Fatalf("status %d, page %+v", rec.Code, page)
		}
		wantErrors := map[string]string{"name": "invalid", "email": "invalid", "phone": "invalid", "cvUrl": "invalid"}
		if !reflect.DeepEqual(page.State.Errors, wantErrors) {
			t.Errorf("errors %v, want %v", page.State.Errors, wantErrors)
		}
		wantValues := map[string]string{"email": "meera", "company": "Crumbs & Co", "phone": "12", "message": "A logo\nfor my bakery.", "cvUrl": "not a link"}
		if !reflect.DeepEqual(page.State.Values, wantValues) {
			t.Errorf("values %q, want %q", page.State.Values, wantValues)
		}
		// A value past its field's limit comes back cut to it.
		v.Set("message", strings.Repeat("m", 2500))
		if _, page := postPage(t, e, "/custom-logo", v); len(page.State.Values["message"]) != 2000 {
			t.Errorf("message of 2500 characters came back with %d", len(page.State.Values["message"]))
		}
		// The same post to the API endpoint is answered with JSON: the first invalid field.
		if rec := postForm(e, v); rec.Code != http.StatusBadRequest || decodeError(t, rec).Field != "name" {
			t.Errorf("API: %d %s", rec.Code, rec.Body)
		}
		if ms := stored(t, db); len(ms) != 0 {
			t.Fatalf("stored %+v", ms)
		}
	})
}

// The topic names the page a stored message redirects to; one that is not a
// contact page is refused, so the redirect never leaves the site.
func TestFormRedirectNeverLeavesTheSite(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, _ := newServer(db)
		for _, topic := range []string{"//evil.example", "https://evil.example/", "/\\evil.example", "contact-us/../../x", ""} {
			v := url.Values{"topic": {topic}, "name": {"A"}, "email": {"a@b.in"}, "message": {"Hello from the test."}}
			rec, page := postPage(t, e, "/contact-us", v)
			if rec.Code != http.StatusBadRequest || rec.Header().Get("Location") != "" || page.State.Error != contact.OutcomeInvalid || len(page.State.Errors) != 0 {
				t.Errorf("topic %q: status %d, Location %q, page %+v", topic, rec.Code, rec.Header().Get("Location"), page)
			}
		}
		if ms := stored(t, db); len(ms) != 0 {
			t.Fatalf("stored %+v", ms)
		}
	})
}

type fakeSender struct {
	sent chan mail.Message
	err  error
}

func (f *fakeSender) Send(_ context.Context, m mail.Message) error {
	f.sent <- m
	return f.err
}

func TestStoredMessageIsMailedToTheTeam(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, s := newServer(db)
		f := &fakeSender{sent: make(chan mail.Message, 1)}
		s.Notify, s.NotifyTo = f, "sales@omnibus.example"
		if rec := postJSON(e, valid()); rec.Code != http.StatusCreated {
			t.Fatalf("status %d", rec.Code)
		}
		select {
		case m := <-f.sent:
			if m.To != "sales@omnibus.example" || !strings.Contains(m.Subject, "contact-us") || !strings.Contains(m.Subject, "Lakshmi R.") ||
				!strings.Contains(m.Text, "lakshmi@kaverihandlooms.in") || !strings.Contains(m.Text, "Can we talk on Monday?") {
				t.Fatalf("mail %+v", m)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no notification was sent")
		}
	})
}

func TestMailFailureStillKeepsTheMessage(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, s := newServer(db)
		f := &fakeSender{sent: make(chan mail.Message, 1), err: errors.New("smtp down")}
		s.Notify, s.NotifyTo = f, "sales@omnibus.example"
		if rec := postJSON(e, valid()); rec.Code != http.StatusCreated {
			t.Fatalf("status %d", rec.Code)
		}
		<-f.sent
		if ms := stored(t, db); len(ms) != 1 {
			t.Fatalf("stored %d messages, want 1", len(ms))
		}
	})
}

func TestInvalidMessageIsNotMailed(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, s := newServer(db)
		f := &fakeSender{sent: make(chan mail.Message, 1)}
		s.Notify, s.NotifyTo = f, "sales@omnibus.example"
		in := valid()
		in["email"] = "nope"
		if rec := postJSON(e, in); rec.Code != http.StatusBadRequest {
			t.Fatalf("status %d", rec.Code)
		}
		if err := db.Migrator().DropTable("contact_messages"); err != nil {
			t.Fatal(err)
		}
		if rec := postJSON(e, valid()); rec.Code != http.StatusServiceUnavailable {
			t.Fatalf("status %d", rec.Code)
		}
		select {
		case m := <-f.sent:
			t.Fatalf("mailed %+v for a message that was not stored", m)
		default:
		}
	})
}
