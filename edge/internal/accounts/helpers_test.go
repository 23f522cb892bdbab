package accounts

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/forms/formstest"
	"omnibus/edge/internal/httpx/request"
	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/storage"
)

// site is the accounts API and the page middleware served over real HTTP
// by an echo server on loopback, in front of a stand-in page handler that
// answers "page <path>", plus " as <AccountHeader>" for a signed-in visitor.
type site struct {
	t   *testing.T
	db  *storage.DB
	svc *Service
	srv *httptest.Server

	mu    sync.Mutex
	clock time.Time
}

func newSite(t *testing.T, db *storage.DB, sender mail.Sender, edit func(*Options)) *site {
	t.Helper()
	st := &site{t: t, db: db, clock: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	e := echo.New()
	e.HideBanner = true
	st.srv = httptest.NewUnstartedServer(e)
	st.srv.Start()
	t.Cleanup(st.srv.Close)
	opt := Options{PublicURL: st.srv.URL, SessionTTL: 24 * time.Hour}
	if edit != nil {
		edit(&opt)
	}
	st.svc = New(db, sender, opt)
	st.svc.now = st.now
	st.svc.background = func(f func()) { f() } // mail is sent before the answer, so tests can look for it
	// Generous limits; TestLoginRateLimited sets tight ones.
	for _, l := range []**ratelimit.Limiter{&st.svc.LoginByIP, &st.svc.LoginByAccount, &st.svc.LoginAnyAddress, &st.svc.LoginByDevice, &st.svc.ResetByIP, &st.svc.ResetByAccount, &st.svc.RegisterByIP, &st.svc.GoogleByIP} {
		*l = ratelimit.New(1000, time.Millisecond)
	}
	// The server middleware's client IP (request.ClientIP), stood in for by
	// X-Forwarded-For as a trusted proxy would send it.
	e.Use(func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if ip := c.Request().Header.Get("X-Forwarded-For"); ip != "" {
				c.SetRequest(request.With(c.Request(), "", ip, true))
			}
			return next(c)
		}
	})
	st.svc.Register(e.Group("/api/v1"))
	pages := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := "page " + r.URL.Path
		if a := r.Header.Get(AccountHeader); a != "" {
			body += " as " + a
		}
		io.WriteString(w, body)
	})
	// Pages, and the sign-in forms posted to theirs (internal/forms, with a
	// stand-in page for refusals: formstest).
	formstest.Wire(e, st.svc.Forms(), st.svc.Pages(pages))
	return st
}

func (st *site) now() time.Time {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.clock
}

func (st *site) advance(d time.Duration) {
	st.mu.Lock()
	st.clock = st.clock.Add(d)
	st.mu.Unlock()
}

// browser is a client with its own cookie jar that does not follow redirects.
func (st *site) browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

type answer struct {
	status int
	header http.Header
	body   string
	json   map[string]any
}

func (a answer) errorDetail() string {
	s, _ := a.json["errorDetail"].(string)
	return s
}

func (a answer) data() map[string]any {
	d, _ := a.json["data"].(map[string]any)
	return d
}

func (a answer) cookie(name string) *http.Cookie {
	for _, c := range (&http.Response{Header: a.header}).Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// do sends one request. body: a map (JSON), url.Values (form) or nil.
// Same-origin browser headers are added unless headers say otherwise.
func (st *site) do(c *http.Client, method, path string, body any, headers ...string) answer {
	st.t.Helper()
	var r io.Reader
	ct := ""
	switch b := body.(type) {
	case url.Values:
		r, ct = strings.NewReader(b.Encode()), "application/x-www-form-urlencoded"
	case string:
		r, ct = strings.NewReader(b), "application/json"
	case nil:
	default:
		j, _ := json.Marshal(b)
		r, ct = strings.NewReader(string(j)), "application/json"
	}
	req, err := http.NewRequest(method, st.srv.URL+path, r)
	if err != nil {
		st.t.Fatal(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if method != http.MethodGet {
		req.Header.Set("Origin", st.srv.URL)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	resp, err := c.Do(req)
	if err != nil {
		st.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	a := answer{status: resp.StatusCode, header: resp.Header, body: string(b)}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(b, &a.json); err != nil {
			st.t.Fatalf("%s %s: bad JSON %q", method, path, b)
		}
	}
	return a
}

func (st *site) register(c *http.Client, email, store string) answer {
	st.t.Helper()
	a := st.do(c, "POST", "/api/v1/oaccount/register", map[string]string{"name": "Ana Lima", "email": email, "password": "correct horse battery", "storeName": store})
	if a.status != http.StatusCreated {
		st.t.Fatalf("register %s: %d %s", email, a.status, a.body)
	}
	return a
}

func (st *site) loggedIn(c *http.Client) (bool, string) {
	st.t.Helper()
	a := st.do(c, "GET", "/api/v1/oaccount/isloggedin", nil)
	if a.status != http.StatusOK {
		st.t.Fatalf("isloggedin: %d %s", a.status, a.body)
	}
	d := a.data()
	in, _ := d["isLoggedIn"].(bool)
	s, _ := d["omnicustomerStatus"].(string)
	return in, s
}

// verified marks an account's address as proved, as its confirmation link does.
func (st *site) verified(email string) {
	st.t.Helper()
	if err := st.db.Model(&Account{}).Where("email = ?", email).Update("email_verified_at", st.now()).Error; err != nil {
		st.t.Fatal(err)
	}
}

func (st *site) setStatus(email, status string) {
	st.t.Helper()
	if err := st.db.Model(&Account{}).Where("email = ?", email).Update("status", status).Error; err != nil {
		st.t.Fatal(err)
	}
}

func wantError(t *testing.T, a answer, status int, code string) {
	t.Helper()
	if a.status != status || a.errorDetail() != Message(code) {
		t.Fatalf("got %d %s, want %d {errorDetail: %q}", a.status, a.body, status, Message(code))
	}
}

// wantPage checks a refused form post made to its page (no JavaScript): the
// status, and the page answered in its place with the form's state.
func wantPage(t *testing.T, a answer, status int, path string, want forms.State) {
	t.Helper()
	p, err := formstest.Decode([]byte(a.body))
	if err != nil || a.status != status || p.Path != path || !reflect.DeepEqual(p.State, want) {
		t.Fatalf("got %d %s, want %d page %s with %+v", a.status, a.body, status, path, want)
	}
}

func wantRedirect(t *testing.T, a answer, status int, location string) {
	t.Helper()
	if a.status != status || a.header.Get("Location") != location {
		t.Fatalf("got %d Location %q (%s), want %d %q", a.status, a.header.Get("Location"), a.body, status, location)
	}
}
