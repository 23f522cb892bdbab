package accounts

import (
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
	"omnibus/edge/internal/token"
)

func TestRegister(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, nil, nil)
		b := st.browser()
		a := st.register(b, "Ana@Example.com", "Ana's Shop")
		d := a.data()
		if d["isLoggedIn"] != true || d["omnicustomerStatus"] != StatusAccountCreated || d["redirectTo"] != "/contact-us" {
			t.Fatalf("register answer %s", a.body)
		}
		ck := a.cookie(CookieName)
		if ck == nil || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Secure || ck.Path != "/" || ck.MaxAge != 86400 {
			t.Fatalf("session cookie %+v", ck)
		}
		if in, status := st.loggedIn(b); !in || status != StatusAccountCreated {
			t.Fatalf("after register: isLoggedIn %v %q", in, status)
		}
		var acct Account
		db.First(&acct, "email = ?", "ana@example.com")
		if acct.StoreName == nil || *acct.StoreName != "ana-s-shop" || !strings.HasPrefix(acct.PasswordHash, "$argon2id$v=19$") {
			t.Fatalf("stored account %+v", acct)
		}

		// The same e-mail again, in other case: 409. The same store name: 409.
		a = st.do(st.browser(), "POST", "/api/v1/oaccount/register", map[string]string{"name": "X", "email": "ANA@example.com", "password": "another good one", "storeName": "other"})
		wantError(t, a, http.StatusConflict, codeEmailTaken)
		a = st.do(st.browser(), "POST", "/api/v1/oaccount/register", map[string]string{"name": "X", "email": "bo@example.com", "password": "another good one", "storeName": "ANA'S shop"})
		wantError(t, a, http.StatusConflict, codeStoreNameTaken)
	})
}

func TestRegisterValidation(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, nil, nil)
		ok := map[string]string{"name": "Ana", "email": "ana@example.com", "password": "correct horse battery", "storeName": "ana"}
		with := func(k, v string) map[string]string {
			m := map[string]string{}
			for a, b := range ok {
				m[a] = b
			}
			m[k] = v
			return m
		}
		for _, c := range []struct {
			body map[string]string
			code string
		}{
			{with("name", "  "), codeNameRequired},
			{with("name", strings.Repeat("n", 101)), codeNameTooLong},
			{with("email", ""), codeEmailRequired},
			{with("email", "ana@localhost"), codeEmailInvalid},
			{with("email", "Ana <ana@example.com>"), codeEmailInvalid},
			{with("password", ""), codePasswordRequired},
			{with("password", "short7!"), codePasswordTooShort},
			{with("password", strings.Repeat("long ", 26)), codePasswordTooLong},
			{with("password", "Password123"), codePasswordCommon},
			{with("password", "aaaaaaaaaaaa"), codePasswordCommon},
			{with("password", "ANA@example.com"), codePasswordIsEmail},
			{with("storeName", ""), codeStoreNameRequired},
			{with("storeName", "a!"), codeStoreNameTooShort},
			{with("storeName", strings.Repeat("s", 64)), codeStoreNameTooLong},
			{with("storeName", "WWW"), codeStoreNameReserved},
		} {
			a := st.do(st.browser(), "POST", "/api/v1/oaccount/register", c.body)
			wantError(t, a, http.StatusBadRequest, c.code)
			if a.cookie(CookieName) != nil {
				t.Fatalf("%s: a refused registration set a session", c.code)
			}
		}
		wantError(t, st.do(st.browser(), "POST", "/api/v1/oaccount/register", "{not json"), http.StatusBadRequest, codeMalformed)
		wantError(t, st.do(st.browser(), "POST", "/api/v1/oaccount/register", `{"name": 5, "email": "a@b.co"}`), http.StatusBadRequest, codeMalformed)
		big := `{"name": "` + strings.Repeat("x", MaxBody) + `"}`
		wantError(t, st.do(st.browser(), "POST", "/api/v1/oaccount/register", big), http.StatusRequestEntityTooLarge, codeTooLarge)
		var n int64
		db.Model(&Account{}).Count(&n)
		if n != 0 {
			t.Fatalf("%d accounts stored by refused registrations", n)
		}
	})
}

// Without JavaScript the register form posts form-encoded to /register and
// gets a 303 to /contact-us when created; when not, the page again with what
// was typed and every field's error. The password comes back exactly as
// typed, as the page with JavaScript keeps it (decision 0061), unless the
// field could not hold it as typed: then it is empty, never altered.
func TestRegisterFormPost(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, nil, nil)
		b := st.browser()
		form := url.Values{"name": {"Ana"}, "email": {"ana@example.com"}, "password": {" short "}, "storeName": {"ana"}}
		typed := map[string]string{"name": "Ana", "email": "ana@example.com", "storeName": "ana", "password": " short "} // as typed, spaces too
		wantPage(t, st.do(b, "POST", "/register", form), http.StatusBadRequest, "/register",
			forms.State{Form: "register", Values: typed, Errors: map[string]string{"password": codePasswordTooShort}})
		wantPage(t, st.do(b, "POST", "/register", url.Values{"name": {""}, "email": {"ana@"}, "password": {"password"}, "storeName": {"www"}}), http.StatusBadRequest, "/register",
			forms.State{Form: "register", Values: map[string]string{"email": "ana@", "storeName": "www", "password": "password"}, Errors: map[string]string{
				"name": codeNameRequired, "email": codeEmailInvalid, "password": codePasswordCommon, "storeName": codeStoreNameReserved}})
		// Longer than the field takes: empty again, not cut to a password the visitor did not type.
		wantPage(t, st.do(b, "POST", "/register", url.Values{"name": {"Ana"}, "email": {"ana@example.com"}, "password": {strings.Repeat("x", 129)}, "storeName": {"ana"}}), http.StatusBadRequest, "/register",
			forms.State{Form: "register", Values: map[string]string{"name": "Ana", "email": "ana@example.com", "storeName": "ana"}, Errors: map[string]string{"password": codePasswordTooLong}})
		// The API answers the first of them, in the page's order.
		wantError(t, st.do(b, "POST", "/api/v1/oaccount/register", url.Values{"name": {""}, "email": {"ana@"}, "password": {"password"}, "storeName": {"www"}}), http.StatusBadRequest, codeNameRequired)
		form.Set("password", "correct horse battery")
		a := st.do(b, "POST", "/register", form)
		wantRedirect(t, a, http.StatusSeeOther, "/contact-us")
		if a.cookie(CookieName) == nil {
			t.Fatal("no session cookie after a form registration")
		}
		if in, _ := st.loggedIn(b); !in {
			t.Fatal("not signed in after a form registration")
		}
		// Taken: the e-mail and the store name, each next to its field.
		typed["password"] = "correct horse battery"
		wantPage(t, st.do(st.browser(), "POST", "/register", form), http.StatusConflict, "/register",
			forms.State{Form: "register", Values: typed, Errors: map[string]string{"email": codeEmailTaken, "storeName": codeStoreNameTaken}})
	})
}

// A short password, a taken e-mail and a taken store name are all
// told in one answer — JSON: errorDetail the first (in the form's order)
// and fieldErrors every one; without JavaScript: the page with each next to
// its field, what was typed (the password too). Nothing is created.
func TestRegisterTellsEveryRefusalAtOnce(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, nil, nil)
		st.register(st.browser(), "ana@example.com", "Ana's Saris")
		want := map[string]string{"email": Message(codeEmailTaken), "password": Message(codePasswordTooShort), "storeName": Message(codeStoreNameTaken)}
		in := map[string]string{"name": "Bea", "email": "ANA@example.com", "password": "short", "storeName": "ana's saris"}
		a := st.do(st.browser(), "POST", "/api/v1/oaccount/register", in)
		var got struct {
			ErrorDetail string            `json:"errorDetail"`
			Field       string            `json:"field"`
			FieldErrors map[string]string `json:"fieldErrors"`
		}
		if err := json.Unmarshal([]byte(a.body), &got); err != nil || a.status != http.StatusBadRequest ||
			got.ErrorDetail != want["email"] || got.Field != "email" || !reflect.DeepEqual(got.FieldErrors, want) {
			t.Fatalf("JSON: %d %s, want 400 with every refusal %v", a.status, a.body, want)
		}
		form := url.Values{}
		for k, v := range in {
			form.Set(k, v)
		}
		wantPage(t, st.do(st.browser(), "POST", "/register", form), http.StatusBadRequest, "/register", forms.State{Form: "register",
			Values: map[string]string{"name": "Bea", "email": "ANA@example.com", "storeName": "ana's saris", "password": "short"},
			Errors: map[string]string{"email": codeEmailTaken, "password": codePasswordTooShort, "storeName": codeStoreNameTaken}})
		var n int64
		db.Model(&Account{}).Count(&n)
		if n != 1 {
			t.Fatalf("%d accounts: a refused registration stored one", n)
		}
	})
}

func TestLogin(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, nil, nil)
		st.register(st.browser(), "ana@example.com", "ana")
		for _, path := range []string{"/api/v1/oaccount/login", "/api/v1/hq/account/seller/login"} {
			b := st.browser()
			wantError(t, st.do(b, "POST", path, map[string]string{"email": "ana@example.com", "password": "wrong horse battery"}), http.StatusUnauthorized, codeInvalidCredentials)
			wantError(t, st.do(b, "POST", path, map[string]string{"email": "nobody@example.com", "password": "correct horse battery"}), http.StatusUnauthorized, codeInvalidCredentials)
			wantError(t, st.do(b, "POST", path, map[string]string{"email": "ana@example.com"}), http.StatusBadRequest, codePasswordRequired)
			wantError(t, st.do(b, "POST", path, map[string]string{"password": "x"}), http.StatusBadRequest, codeEmailRequired)
			if in, _ := st.loggedIn(b); in {
				t.Fatal("signed in after failed logins")
			}
			a := st.do(b, "POST", path, map[string]string{"email": " ANA@example.com ", "password": "correct horse battery"})
			if a.status != http.StatusOK || a.data()["isLoggedIn"] != true || a.data()["omnicustomerStatus"] != StatusAccountCreated || a.cookie(CookieName) == nil {
				t.Fatalf("%s: %d %s", path, a.status, a.body)
			}
			for _, p := range []string{"/api/v1/oaccount/isloggedin", "/api/v1/hq/account/seller/isloggedin"} {
				a := st.do(b, "GET", p, nil)
				if a.data()["isLoggedIn"] != true || a.header.Get("Cache-Control") != "no-store" {
					t.Fatalf("%s after %s: %s %v", p, path, a.body, a.header)
				}
			}
		}
		// Anonymous status.
		a := st.do(st.browser(), "GET", "/api/v1/oaccount/isloggedin", nil)
		if a.body != `{"data":{"isLoggedIn":false,"omnicustomerStatus":""}}`+"\n" {
			t.Fatalf("anonymous isloggedin %q", a.body)
		}
		// Form posts to /login: 303 by the rules, or the page again with the e-mail and why.
		b := st.browser()
		wantPage(t, st.do(b, "POST", "/login", url.Values{"email": {"ana@example.com"}, "password": {"nope nope nope"}}), http.StatusUnauthorized, "/login",
			forms.State{Form: "login", Values: map[string]string{"email": "ana@example.com"}, Error: codeInvalidCredentials})
		wantPage(t, st.do(b, "POST", "/login", url.Values{"email": {" nope "}, "password": {""}}), http.StatusBadRequest, "/login",
			forms.State{Form: "login", Values: map[string]string{"email": "nope"}, Errors: map[string]string{"email": codeEmailInvalid, "password": codePasswordRequired}})
		wantRedirect(t, st.do(b, "POST", "/login", url.Values{"email": {"ana@example.com"}, "password": {"correct horse battery"}}), http.StatusSeeOther, "/contact-us")
		if in, _ := st.loggedIn(b); !in {
			t.Fatal("form login did not sign in")
		}
	})
}

func TestLogout(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, nil, nil)
		for _, path := range []string{"/api/v1/oaccount/logout", "/api/v1/hq/account/seller/logout"} {
			b := st.browser()
			st.register(b, "ana"+strconv.Itoa(len(path))+"@example.com", "ana"+strconv.Itoa(len(path)))
			u, _ := url.Parse(st.srv.URL)
			secret := b.Jar.Cookies(u)[0].Value
			a := st.do(b, "POST", path, nil)
			if a.status != http.StatusOK || a.data()["isLoggedIn"] != false {
				t.Fatalf("%s: %d %s", path, a.status, a.body)
			}
			if ck := a.cookie(CookieName); ck == nil || ck.MaxAge >= 0 {
				t.Fatalf("%s did not clear the cookie: %+v", path, ck)
			}
			// The old token is dead server-side too.
			old := st.browser()
			old.Jar.SetCookies(u, []*http.Cookie{{Name: CookieName, Value: secret}})
			if in, _ := st.loggedIn(old); in {
				t.Fatalf("%s: the session still works after logout", path)
			}
		}
		var n int64
		db.Model(&Session{}).Count(&n)
		if n != 0 {
			t.Fatalf("%d sessions left after logouts", n)
		}
		// Signed out already: same answer. Form post: 303 to /login.
		if a := st.do(st.browser(), "POST", "/api/v1/oaccount/logout", nil); a.status != http.StatusOK {
			t.Fatalf("anonymous logout %d", a.status)
		}
		wantRedirect(t, st.do(st.browser(), "POST", "/api/v1/oaccount/logout", url.Values{}), http.StatusSeeOther, "/login?signedOut=1")
	})
}

// Sign-in gives a new session id even to a browser that already had one
// (fixation), and the old id stops working.
func TestSessionRotatesAtLogin(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, nil, nil)
		b := st.browser()
		first := st.register(b, "ana@example.com", "ana").cookie(CookieName).Value
		second := st.do(b, "POST", "/api/v1/oaccount/login", map[string]string{"email": "ana@example.com", "password": "correct horse battery"}).cookie(CookieName)
		if second == nil || second.Value == first {
			t.Fatalf("login kept the session id")
		}
		u, _ := url.Parse(st.srv.URL)
		old := st.browser()
		old.Jar.SetCookies(u, []*http.Cookie{{Name: CookieName, Value: first}})
		if in, _ := st.loggedIn(old); in {
			t.Fatal("the pre-login session id still signs in")
		}
		if in, _ := st.loggedIn(b); !in {
			t.Fatal("the new session id does not sign in")
		}
		// A planted, well-formed id is replaced, not adopted.
		planted := token.New()
		victim := st.browser()
		victim.Jar.SetCookies(u, []*http.Cookie{{Name: CookieName, Value: planted}})
		got := st.do(victim, "POST", "/api/v1/oaccount/login", map[string]string{"email": "ana@example.com", "password": "correct horse battery"}).cookie(CookieName)
		if got == nil || got.Value == planted {
			t.Fatal("login adopted a planted session id")
		}
		// Only the hash of a token is stored.
		var n int64
		db.Model(&Session{}).Where("id = ?", got.Value).Count(&n)
		if n != 0 {
			t.Fatal("the cookie value is stored in clear")
		}
	})
}

func TestSessionIdleExpiry(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, nil, nil) // SessionTTL 24h
		active, idle := st.browser(), st.browser()
		st.register(active, "ana@example.com", "ana")
		st.register(idle, "bo@example.com", "bobs")
		// Activity keeps a session alive past its first day...
		for i := 0; i < 3; i++ {
			st.advance(20 * time.Hour)
			if in, _ := st.loggedIn(active); !in {
				t.Fatalf("active session ended after %d×20h", i+1)
			}
		}
		// ...while one idle for longer than the TTL ends, and its row goes.
		if in, _ := st.loggedIn(idle); in {
			t.Fatal("a session idle for 60h still signs in")
		}
		var n int64
		db.Model(&Session{}).Count(&n)
		if n != 1 {
			t.Fatalf("%d session rows, want only the active one", n)
		}
		st.advance(24*time.Hour + time.Second)
		a := st.do(active, "GET", "/api/v1/oaccount/isloggedin", nil)
		if a.data()["isLoggedIn"] != false {
			t.Fatal("a session idle for 24h+1s still signs in")
		}
		if ck := a.cookie(CookieName); ck == nil || ck.MaxAge >= 0 {
			t.Fatalf("the dead session's cookie was not cleared: %+v", ck)
		}
	})
}

// A cross-site POST is refused before it does anything.
func TestCrossSiteRefused(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, nil, func(o *Options) { o.PublicURL = "https://www.omnibus.example" })
		b := st.browser()
		creds := map[string]string{"email": "ana@example.com", "password": "correct horse battery"}
		// Registering over plain HTTP behind an https PUBLIC_URL: the cookie is Secure.
		a := st.do(b, "POST", "/api/v1/oaccount/register", map[string]string{"name": "Ana", "email": "ana@example.com", "password": "correct horse battery", "storeName": "ana"}, "Origin", "https://www.omnibus.example", "Sec-Fetch-Site", "")
		if a.status != http.StatusCreated || !a.cookie(CookieName).Secure {
			t.Fatalf("register via PUBLIC_URL origin: %d %s", a.status, a.body)
		}
		secret := a.cookie(CookieName).Value
		for _, h := range [][]string{
			{"Origin", "https://evil.example", "Sec-Fetch-Site", ""},
			{"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"},
			{"Sec-Fetch-Site", "same-site", "Origin", "https://shop.omnibus.example"},
			{"Origin", "null", "Sec-Fetch-Site", ""},
			{"Origin", "", "Sec-Fetch-Site", "", "Referer", "https://evil.example/form"},
		} {
			for _, path := range []string{"/api/v1/oaccount/login", "/api/v1/oaccount/register", "/api/v1/oaccount/logout", "/api/v1/hq/oaccount/forgotPassword", "/api/v1/hq/oaccount/resetPassword", "/api/v1/oaccount/signin/google"} {
				if a := st.do(st.browser(), "POST", path, creds, h...); a.status != http.StatusForbidden || a.errorDetail() != Message(codeCrossSite) {
					t.Fatalf("POST %s with %v: %d %s", path, h, a.status, a.body)
				}
			}
		}
		// A cross-site logout of a real session leaves it alive.
		u, _ := url.Parse(st.srv.URL)
		victim := st.browser()
		victim.Jar.SetCookies(u, []*http.Cookie{{Name: CookieName, Value: secret}})
		wantError(t, st.do(victim, "POST", "/api/v1/oaccount/logout", nil, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"), http.StatusForbidden, codeCrossSite)
		if in, _ := st.loggedIn(victim); !in {
			t.Fatal("a cross-site logout ended the session")
		}
		// Same origin (the Host itself), a same-site Referer alone, and no
		// browser headers at all (curl) pass.
		for _, h := range [][]string{
			{"Origin", st.srv.URL, "Sec-Fetch-Site", ""},
			{"Origin", "", "Sec-Fetch-Site", "", "Referer", st.srv.URL + "/login"},
			{"Origin", "", "Sec-Fetch-Site", ""},
		} {
			if a := st.do(st.browser(), "POST", "/api/v1/oaccount/login", creds, h...); a.status != http.StatusOK {
				t.Fatalf("same-origin login %v: %d %s", h, a.status, a.body)
			}
		}
	})
}

func TestLoginRateLimited(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, nil, nil)
		st.register(st.browser(), "ana@example.com", "ana")
		st.svc.LoginByAccount = ratelimit.New(3, time.Hour)
		st.svc.LoginByIP = ratelimit.New(5, time.Hour)
		wrong := map[string]string{"email": "ana@example.com", "password": "guess guess guess"}
		for i := 0; i < 3; i++ {
			wantError(t, st.do(st.browser(), "POST", "/api/v1/oaccount/login", wrong), http.StatusUnauthorized, codeInvalidCredentials)
		}
		// Per account: even the right password waits now.
		a := st.do(st.browser(), "POST", "/api/v1/oaccount/login", map[string]string{"email": "ana@example.com", "password": "correct horse battery"})
		if a.status != http.StatusTooManyRequests || a.errorDetail() == "" || a.cookie(CookieName) != nil {
			t.Fatalf("4th attempt on one account: %d %s", a.status, a.body)
		}
		if s, _ := strconv.Atoi(a.header.Get("Retry-After")); s < 1 {
			t.Fatalf("Retry-After %q", a.header.Get("Retry-After"))
		}
		// Per IP: other accounts from the same address, then refused.
		wantError(t, st.do(st.browser(), "POST", "/api/v1/oaccount/login", map[string]string{"email": "bo@example.com", "password": "guess guess guess"}), http.StatusUnauthorized, codeInvalidCredentials)
		a = st.do(st.browser(), "POST", "/api/v1/oaccount/login", map[string]string{"email": "cy@example.com", "password": "guess guess guess"})
		if a.status != http.StatusTooManyRequests {
			t.Fatalf("6th attempt from one IP: %d %s", a.status, a.body)
		}
		a = st.do(st.browser(), "POST", "/login", url.Values{"email": {"dy@example.com"}, "password": {"x"}})
		wantPage(t, a, http.StatusTooManyRequests, "/login", forms.State{Form: "login", Values: map[string]string{"email": "dy@example.com"}, Error: codeRateLimited})
		if s, _ := strconv.Atoi(a.header.Get("Retry-After")); s < 1 {
			t.Fatalf("page: Retry-After %q", a.header.Get("Retry-After"))
		}
	})
}

// The redirect rules of SPEC §4, over real HTTP: anonymous visitors get the
// page; signed-in ones are sent away before anything renders.
func TestRedirectMatrix(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		for _, merchant := range []string{"", "https://app.omnibus.example/landing-page"} {
			st := newSite(t, db, nil, func(o *Options) { o.MerchantAppURL = merchant })
			want := merchant
			if want == "" {
				want = "/landing-page"
			}
			for _, path := range []string{"/login", "/register", "/login/", "/register?x=1"} {
				if a := st.do(st.browser(), "GET", path, nil); a.status != http.StatusOK || !strings.HasPrefix(a.body, "page /") {
					t.Fatalf("anonymous GET %s: %d %q", path, a.status, a.body)
				}
			}
			email := "m" + strconv.Itoa(len(merchant)) + "@example.com"
			b := st.browser()
			st.register(b, email, "shop"+strconv.Itoa(len(merchant)))
			for _, c := range []struct{ status, to string }{
				{StatusAccountCreated, "/contact-us"},
				{StatusPendingPayment, "/contact-us"},
				{"active", want},
				{"license_active", want},
				{"", want},
			} {
				st.setStatus(email, c.status)
				for _, path := range []string{"/login", "/register"} {
					for _, method := range []string{"GET", "HEAD"} {
						a := st.do(b, method, path, nil)
						wantRedirect(t, a, http.StatusFound, c.to)
						if a.header.Get("Cache-Control") != "no-store" {
							t.Fatalf("redirect cacheable: %v", a.header)
						}
					}
				}
				if a := st.do(b, "GET", "/api/v1/oaccount/isloggedin", nil); a.data()["omnicustomerStatus"] != c.status || a.data()["redirectTo"] != c.to {
					t.Fatalf("isloggedin for %q: %s", c.status, a.body)
				}
			}
			// Other pages are not redirected.
			if a := st.do(b, "GET", "/", nil); a.status != http.StatusOK || !strings.HasPrefix(a.body, "page / as ") {
				t.Fatalf("GET / signed in: %d %q", a.status, a.body)
			}
		}
	})
}

func TestStoreNameAvailability(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, nil, nil)
		st.register(st.browser(), "ana@example.com", "Taken Store")
		check := func(name string) map[string]any {
			a := st.do(st.browser(), "GET", "/api/v1/onboarding/check-omnidomain-availability?name="+url.QueryEscape(name), nil)
			if a.status != http.StatusOK {
				t.Fatalf("%q: %d %s", name, a.status, a.body)
			}
			return a.data()
		}
		for _, c := range []struct {
			name, slug string
			available  bool
			code       string
		}{
			{"  My Store!! 2 ", "my-store-2", true, codeStoreNameAvailable},
			{"taken-store", "taken-store", false, codeStoreNameTaken},
			{"TAKEN  store", "taken-store", false, codeStoreNameTaken},
			{"Admin", "admin", false, codeStoreNameReserved},
			{"w-w-w", "w-w-w", true, codeStoreNameAvailable},
			{"ab", "ab", false, codeStoreNameTooShort},
			{"ü!", "", false, codeStoreNameTooShort},
			{strings.Repeat("x", 64), strings.Repeat("x", 64), false, codeStoreNameTooLong},
		} {
			d := check(c.name)
			if d["name"] != c.slug || d["available"] != c.available || d["message"] != Message(c.code) {
				t.Errorf("%q: %v, want %s %v %q", c.name, d, c.slug, c.available, Message(c.code))
			}
		}
		wantError(t, st.do(st.browser(), "GET", "/api/v1/onboarding/check-omnidomain-availability?name=+", nil), http.StatusBadRequest, codeStoreNameRequired)
		wantError(t, st.do(st.browser(), "GET", "/api/v1/onboarding/check-omnidomain-availability", nil), http.StatusBadRequest, codeStoreNameRequired)
	})
}

func TestPasswordHash(t *testing.T) {
	productionCost(t)
	h := hashPassword("correct horse battery")
	// OWASP's minimum for argon2id, as password.go says: 19 MiB, 2 passes, 1 lane.
	if want := "$argon2id$v=19$m=19456,t=2,p=1$"; !strings.HasPrefix(h, want) {
		t.Fatalf("hash %q, want the production cost %q", h, want)
	}
	if !checkPassword(h, "correct horse battery") || checkPassword(h, "correct horse batterY") {
		t.Fatal("argon2id hash does not tell passwords apart")
	}
	if h == hashPassword("correct horse battery") {
		t.Fatal("two hashes of one password are equal (no salt)")
	}
	for _, bad := range []string{"", "$argon2i$v=19$m=1,t=1,p=1$c2FsdA$aGFzaA", "$argon2id$v=19$m=0,t=1,p=1$c2FsdA$aGFzaA", strings.Replace(h, "$v=19$", "$v=16$", 1)} {
		if checkPassword(bad, "correct horse battery") {
			t.Fatalf("malformed hash %q matched", bad)
		}
	}
}

// With the database gone, the endpoints say so (503 errorDetail, or the
// form's page saying it) and pages are still served, as to a visitor signed
// out.
func TestDatabaseDown(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, nil, nil)
		b := st.browser()
		st.register(b, "ana@example.com", "ana-shop")
		sqlDB, _ := db.DB.DB()
		sqlDB.Close()
		wantError(t, st.do(b, "GET", "/api/v1/oaccount/isloggedin", nil), http.StatusServiceUnavailable, codeUnavailable)
		wantError(t, st.do(b, "POST", "/api/v1/oaccount/login", map[string]string{"email": "ana@example.com", "password": "correct horse battery"}), http.StatusServiceUnavailable, codeUnavailable)
		wantError(t, st.do(b, "POST", "/api/v1/oaccount/register", map[string]string{"name": "Bo", "email": "bo@example.com", "password": "correct horse battery", "storeName": "bo-shop"}), http.StatusServiceUnavailable, codeUnavailable)
		wantError(t, st.do(b, "GET", "/api/v1/onboarding/check-omnidomain-availability?name=bo-shop", nil), http.StatusServiceUnavailable, codeUnavailable)
		wantError(t, st.do(b, "POST", "/api/v1/oaccount/logout", nil), http.StatusServiceUnavailable, codeUnavailable)
		wantPage(t, st.do(b, "POST", "/login", url.Values{"email": {"ana@example.com"}, "password": {"correct horse battery"}}), http.StatusServiceUnavailable, "/login",
			forms.State{Form: "login", Values: map[string]string{"email": "ana@example.com"}, Error: codeUnavailable})
		if a := st.do(b, "GET", "/login", nil); a.status != http.StatusOK || a.body != "page /login" {
			t.Fatalf("/login with the database down: %d %q", a.status, a.body)
		}
	})
}
