package accounts

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

func googleSite(t *testing.T, db *storage.DB, m *oidcProvider) *site {
	return newSite(t, db, nil, func(o *Options) {
		o.GoogleClientID, o.GoogleClientSecret, o.GoogleIssuerURL = m.ClientID, m.ClientSecret, m.Issuer()
	})
}

// popupCode is what Google's popup hands the page: a code for redirect_uri
// "postmessage", for the user queued at the provider.
func popupCode(t *testing.T, m *oidcProvider, user *oidcUser) string {
	t.Helper()
	m.QueueUser(user)
	q := url.Values{"client_id": {m.ClientID}, "scope": {"openid email profile"}, "response_type": {"code"}, "redirect_uri": {popupRedirectURI}, "state": {"s"}}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(m.AuthorizationEndpoint() + "?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || loc.Query().Get("code") == "" {
		t.Fatalf("provider answered %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	return loc.Query().Get("code")
}

// idToken is a credential as the GoogleLogin button returns it, signed by the
// provider, for audience aud, issued at iat.
func idToken(t *testing.T, m *oidcProvider, user *oidcUser, aud string, iat time.Time) string {
	t.Helper()
	tok, err := m.idToken(user, aud, iat)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func user(sub, email string, verified bool) *oidcUser {
	return &oidcUser{Subject: sub, Email: email, EmailVerified: verified}
}

func TestGoogleCodeSignIn(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		m := provider(t)
		st := googleSite(t, db, m)
		b := st.browser()
		a := st.do(b, "POST", "/api/v1/oaccount/signin/google", map[string]string{"code": popupCode(t, m, user("g-1", "Jane@Example.com", true))})
		if a.status != http.StatusOK || a.data()["isLoggedIn"] != true || a.data()["omnicustomerStatus"] != StatusAccountCreated || a.cookie(CookieName) == nil {
			t.Fatalf("code sign-in: %d %s", a.status, a.body)
		}
		if in, _ := st.loggedIn(b); !in {
			t.Fatal("not signed in after Google")
		}
		var acct Account
		db.First(&acct, "email = ?", "jane@example.com")
		if acct.GoogleSubject == nil || *acct.GoogleSubject != "g-1" || acct.PasswordHash != "" || acct.Name != "jane" {
			t.Fatalf("account %+v", acct)
		}
		// Again: the same account, not a second one.
		st.do(st.browser(), "POST", "/api/v1/oaccount/signin/google", map[string]string{"code": popupCode(t, m, user("g-1", "jane@example.com", true))})
		var n int64
		db.Model(&Account{}).Count(&n)
		if n != 1 {
			t.Fatalf("%d accounts after two Google sign-ins", n)
		}
		// A Google-only account has no password to sign in with.
		wantError(t, st.do(st.browser(), "POST", "/api/v1/oaccount/login", map[string]string{"email": "jane@example.com", "password": ""}), http.StatusBadRequest, codePasswordRequired)

		// A code used twice, a made-up code, an unverified e-mail, nothing at all.
		code := popupCode(t, m, user("g-2", "bo@example.com", true))
		if a := st.do(st.browser(), "POST", "/api/v1/oaccount/signin/google", map[string]string{"code": code}); a.status != http.StatusOK {
			t.Fatalf("g-2: %d %s", a.status, a.body)
		}
		wantError(t, st.do(st.browser(), "POST", "/api/v1/oaccount/signin/google", map[string]string{"code": code}), http.StatusUnauthorized, codeGoogleFailed)
		wantError(t, st.do(st.browser(), "POST", "/api/v1/oaccount/signin/google", map[string]string{"code": "made-up"}), http.StatusUnauthorized, codeGoogleFailed)
		wantError(t, st.do(st.browser(), "POST", "/api/v1/oaccount/signin/google", map[string]string{"code": popupCode(t, m, user("g-3", "cy@example.com", false))}), http.StatusForbidden, codeGoogleEmailUnverified)
		wantError(t, st.do(st.browser(), "POST", "/api/v1/oaccount/signin/google", map[string]string{}), http.StatusBadRequest, codeGoogleMissing)
	})
}

func TestGoogleCredentialSignIn(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		m := provider(t)
		st := googleSite(t, db, m)
		// An existing password account with the same e-mail, whose address
		// was proved, is linked, and keeps its status and password.
		st.register(st.browser(), "ana@example.com", "ana-shop")
		st.verified("ana@example.com")
		st.setStatus("ana@example.com", "active")
		body := func(cred string) map[string]any {
			return map[string]any{"credential": cred, "clientId": m.ClientID, "select_by": "btn"}
		}
		b := st.browser()
		a := st.do(b, "POST", "/api/v1/oaccount/signin/google", body(idToken(t, m, user("g-ana", "ana@example.com", true), m.ClientID, time.Now())))
		if a.status != http.StatusOK || a.data()["omnicustomerStatus"] != "active" || a.data()["redirectTo"] != "/landing-page" {
			t.Fatalf("credential sign-in: %d %s", a.status, a.body)
		}
		var acct Account
		db.First(&acct, "email = ?", "ana@example.com")
		if acct.GoogleSubject == nil || *acct.GoogleSubject != "g-ana" || acct.PasswordHash == "" {
			t.Fatalf("linked account %+v", acct)
		}
		// Another Google identity with that e-mail is refused.
		wantError(t, st.do(st.browser(), "POST", "/api/v1/oaccount/signin/google", body(idToken(t, m, user("g-other", "ana@example.com", true), m.ClientID, time.Now()))), http.StatusConflict, codeGoogleLinkedElsewhere)

		// Wrong audience, expired, not signed by the provider, unverified.
		for _, c := range []struct {
			name, cred string
			status     int
			code       string
		}{
			{"wrong audience", idToken(t, m, user("g-x", "x@example.com", true), "someone-else", time.Now()), http.StatusUnauthorized, codeGoogleFailed},
			{"expired", idToken(t, m, user("g-x", "x@example.com", true), m.ClientID, time.Now().Add(-2*time.Hour)), http.StatusUnauthorized, codeGoogleFailed},
			{"forged", forge(idToken(t, m, user("g-x", "x@example.com", true), m.ClientID, time.Now())), http.StatusUnauthorized, codeGoogleFailed},
			{"unverified", idToken(t, m, user("g-x", "x@example.com", false), m.ClientID, time.Now()), http.StatusForbidden, codeGoogleEmailUnverified},
			{"garbage", "not.a.jwt", http.StatusUnauthorized, codeGoogleFailed},
		} {
			a := st.do(st.browser(), "POST", "/api/v1/oaccount/signin/google", body(c.cred))
			if a.status != c.status || a.errorDetail() != Message(c.code) || a.cookie(CookieName) != nil {
				t.Errorf("%s: %d %s", c.name, a.status, a.body)
			}
		}
		var n int64
		db.Model(&Account{}).Where("email = ?", "x@example.com").Count(&n)
		if n != 0 {
			t.Fatal("a refused credential made an account")
		}
	})
}

// forge alters the payload of a signed JWT, keeping the signature.
func forge(jwt string) string {
	parts := strings.Split(jwt, ".")
	p := []byte(parts[1])
	if p[5] == 'A' {
		p[5] = 'B'
	} else {
		p[5] = 'A'
	}
	return parts[0] + "." + string(p) + "." + parts[2]
}

// The flow for visitors without JavaScript: start → provider (state, PKCE
// S256) → /sso-redirect on the edge → session → redirect by the rules.
func TestGoogleRedirectFlow(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		m := provider(t)
		st := googleSite(t, db, m)
		b := st.browser()
		start := st.do(b, "GET", "/api/v1/oaccount/sso-redirect/google", nil)
		auth, err := url.Parse(start.header.Get("Location"))
		if start.status != http.StatusFound || err != nil || !strings.HasPrefix(auth.String(), m.AuthorizationEndpoint()) {
			t.Fatalf("start: %d %q", start.status, start.header.Get("Location"))
		}
		q := auth.Query()
		if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("state") == "" ||
			q.Get("redirect_uri") != st.srv.URL+"/sso-redirect" || q.Get("scope") != "openid email profile" {
			t.Fatalf("authorization request %v", q)
		}
		if ck := start.cookie(ssoCookie); ck == nil || !ck.HttpOnly || ck.Path != "/sso-redirect" || strings.Contains(ck.Value, q.Get("code_challenge")) {
			t.Fatalf("flow cookie %+v", ck)
		}

		// At the provider, then back to the edge with this browser's cookie.
		m.QueueUser(user("g-nojs", "nojs@example.com", true))
		resp, err := b.Get(auth.String())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		back, _ := url.Parse(resp.Header.Get("Location"))
		if !strings.HasPrefix(back.String(), st.srv.URL+"/sso-redirect?") {
			t.Fatalf("provider sent the browser to %q", back)
		}
		// Another browser (no flow cookie) bringing the same code is refused.
		wantRedirect(t, st.do(st.browser(), "GET", back.RequestURI(), nil), http.StatusSeeOther, "/sso-redirect?failed=expired")
		a := st.do(b, "GET", back.RequestURI(), nil)
		wantRedirect(t, a, http.StatusSeeOther, "/contact-us")
		if in, status := st.loggedIn(b); !in || status != StatusAccountCreated {
			t.Fatal("not signed in after the redirect flow")
		}
		if ck := a.cookie(ssoCookie); ck == nil || ck.MaxAge >= 0 {
			t.Fatal("flow cookie not cleared")
		}

		// A wrong state, a provider error, and the page without parameters.
		b2 := st.browser()
		start = st.do(b2, "GET", "/api/v1/oaccount/sso-redirect/google", nil)
		wantRedirect(t, st.do(b2, "GET", "/sso-redirect?code=x&state=wrong", nil), http.StatusSeeOther, "/login?error=googleFailed")
		wantRedirect(t, st.do(b2, "GET", "/sso-redirect?error=access_denied&state=x", nil), http.StatusSeeOther, "/sso-redirect?failed=denied")
		if a := st.do(b2, "GET", "/sso-redirect?failed=denied", nil); a.status != http.StatusOK || a.body != "page /sso-redirect" {
			t.Fatalf("/sso-redirect?failed=denied is the page that explains it: %d %q", a.status, a.body)
		}
		if a := st.do(b2, "GET", "/sso-redirect", nil); a.status != http.StatusOK || a.body != "page /sso-redirect" {
			t.Fatalf("plain /sso-redirect: %d %q", a.status, a.body)
		}
	})
}

// Without a client id, Google sign-in is off and says so.
func TestGoogleNotConfigured(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, nil, nil)
		wantError(t, st.do(st.browser(), "POST", "/api/v1/oaccount/signin/google", map[string]string{"code": "x"}), http.StatusServiceUnavailable, codeGoogleUnavailable)
		wantRedirect(t, st.do(st.browser(), "GET", "/api/v1/oaccount/sso-redirect/google", nil), http.StatusSeeOther, "/login?error=googleUnavailable")
	})
}

// An unreachable provider does not stop the edge; sign-in says it is unavailable.
func TestGoogleProviderUnreachable(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, nil, func(o *Options) {
			o.GoogleClientID, o.GoogleIssuerURL = "id", "http://127.0.0.1:1/oidc"
		})
		wantError(t, st.do(st.browser(), "POST", "/api/v1/oaccount/signin/google", map[string]string{"credential": "a.b.c"}), http.StatusServiceUnavailable, codeGoogleUnavailable)
	})
}

// A Google sign-in proves the browser's owner as well as a password does:
// it gets the device cookie too, in both flows, so a guess
// flood at the account does not lock that browser out of a later
// password sign-in.
func TestGoogleSignInSetsTheDeviceCookie(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		m := provider(t)
		st := googleSite(t, db, m)
		known := func(c *http.Cookie, email string) bool {
			if c == nil {
				return false
			}
			r, _ := http.NewRequest("POST", "/", nil)
			r.AddCookie(&http.Cookie{Name: DeviceCookieName, Value: c.Value})
			return st.svc.knownDevice(r, email) != ""
		}
		a := st.do(st.browser(), "POST", "/api/v1/oaccount/signin/google", map[string]string{"code": popupCode(t, m, user("g-dev", "Dev@Example.com", true))})
		if a.status != http.StatusOK || !known(a.cookie(DeviceCookieName), "dev@example.com") {
			t.Fatalf("popup sign-in: %d, device cookie %v", a.status, a.cookie(DeviceCookieName))
		}

		b := st.browser()
		start := st.do(b, "GET", "/api/v1/oaccount/sso-redirect/google", nil)
		m.QueueUser(user("g-dev2", "dev2@example.com", true))
		resp, err := b.Get(start.header.Get("Location"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		back, _ := url.Parse(resp.Header.Get("Location"))
		a = st.do(b, "GET", back.RequestURI(), nil)
		if a.status != http.StatusSeeOther || !known(a.cookie(DeviceCookieName), "dev2@example.com") {
			t.Fatalf("redirect flow: %d, device cookie %v", a.status, a.cookie(DeviceCookieName))
		}
	})
}
