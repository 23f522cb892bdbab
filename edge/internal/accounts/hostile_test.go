package accounts

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"omnibus/edge/internal/forms/formstest"
	"omnibus/edge/internal/hashqueue"
	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/mail/mailtest"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
	"omnibus/edge/internal/token"
)

// What a hostile visitor could do to accounts, one test per finding of
// docs/decisions/0009-account-verification.md.

var verifyRE = regexp.MustCompile(`https?://\S+/api/v1/oaccount/verify-email\?token=[A-Za-z0-9_-]+`)

// Finding 1 of decision 0009: registration e-mails a single-use link that proves the address.
func TestRegisterSendsVerificationLink(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		smtpd := mailtest.Start(t)
		sender, err := mail.New(smtpd.URL, "Omnibus <no-reply@omnibus.test>", db)
		if err != nil {
			t.Fatal(err)
		}
		st := newSite(t, db, sender, nil)
		st.register(st.browser(), "ana@example.com", "ana-shop")
		var acct Account
		db.First(&acct, "email = ?", "ana@example.com")
		if acct.EmailVerifiedAt != nil {
			t.Fatal("a registered address counts as proved before anyone opened the link")
		}
		msg, body := smtpd.Next(t).Parse(t)
		if msg.Header.Get("Subject") != content.VerifyEmail.Subject || !strings.Contains(body, "Hello Ana Lima,") {
			t.Fatalf("mail %v %q", msg.Header, body)
		}
		link := verifyRE.FindString(body)
		if link == "" {
			t.Fatalf("no link in %q", body)
		}
		lu, _ := url.Parse(link)
		wantRedirect(t, st.do(st.browser(), "GET", lu.RequestURI(), nil), http.StatusSeeOther, "/login?verified=1")
		db.First(&acct, "email = ?", "ana@example.com")
		if acct.EmailVerifiedAt == nil {
			t.Fatal("the link did not mark the address as proved")
		}
		// Single use; a made-up token is refused alike.
		wantRedirect(t, st.do(st.browser(), "GET", lu.RequestURI(), nil), http.StatusSeeOther, "/login?error="+codeVerifyInvalid)
		wantRedirect(t, st.do(st.browser(), "GET", "/api/v1/oaccount/verify-email?token="+token.New(), nil), http.StatusSeeOther, "/login?error="+codeVerifyInvalid)
	})
}

// Finding 1 of decision 0009: someone registers Jane's address with their own password; when
// Jane signs in with Google (a verified e-mail), the unproved password and
// every session it made are revoked.
func TestPreAccountTakeover(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		m := provider(t)
		st := googleSite(t, db, m)
		attacker := st.browser()
		st.register(attacker, "jane@example.com", "jane-shop")
		if in, _ := st.loggedIn(attacker); !in {
			t.Fatal("attacker not signed in after register")
		}
		jane := st.browser()
		a := st.do(jane, "POST", "/api/v1/oaccount/signin/google", map[string]string{"code": popupCode(t, m, user("g-jane", "jane@example.com", true))})
		if a.status != http.StatusOK || a.data()["isLoggedIn"] != true {
			t.Fatalf("Jane's Google sign-in: %d %s", a.status, a.body)
		}
		if in, _ := st.loggedIn(attacker); in {
			t.Fatal("the attacker's session survived the owner's Google sign-in")
		}
		login := map[string]string{"email": "jane@example.com", "password": "correct horse battery"}
		wantError(t, st.do(st.browser(), "POST", "/api/v1/oaccount/login", login), http.StatusUnauthorized, codeInvalidCredentials)
		if in, _ := st.loggedIn(jane); !in {
			t.Fatal("Jane is not signed in")
		}
		var acct Account
		db.First(&acct, "email = ?", "jane@example.com")
		if acct.PasswordHash != "" || acct.EmailVerifiedAt == nil || acct.GoogleSubject == nil {
			t.Fatalf("account after takeover defence: %+v", acct)
		}
	})
}

// Finding 2 of decision 0009: password hashing runs under a bound; past the queue deadline the
// answer is 503 with Retry-After and an errorDetail, and no account is made.
func TestHashingBound(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, nil, nil)
		st.register(st.browser(), "ana@example.com", "ana-shop")
		st.svc.Hashing = hashqueue.New(1, 20*time.Millisecond, 1)
		hold, held := make(chan struct{}), make(chan struct{})
		go st.svc.Hashing.Do(context.Background(), func() { close(held); <-hold })
		<-held
		defer close(hold)
		for _, c := range []struct {
			path string
			body map[string]string
		}{
			{"/api/v1/oaccount/login", map[string]string{"email": "ana@example.com", "password": "correct horse battery"}},
			{"/api/v1/oaccount/register", map[string]string{"name": "Bo", "email": "bo@example.com", "password": "correct horse battery", "storeName": "bo-shop"}},
		} {
			a := st.do(st.browser(), "POST", c.path, c.body)
			wantError(t, a, http.StatusServiceUnavailable, codeBusy)
			if s, _ := strconv.Atoi(a.header.Get("Retry-After")); s < 1 || a.cookie(CookieName) != nil {
				t.Fatalf("%s: Retry-After %q, cookie %v", c.path, a.header.Get("Retry-After"), a.cookie(CookieName))
			}
		}
		var n int64
		db.Model(&Account{}).Where("email = ?", "bo@example.com").Count(&n)
		if n != 0 {
			t.Fatal("a refused registration was stored")
		}
	})
}

// The production bound is sized from the machine.
func TestHashingBoundFromMachine(t *testing.T) {
	s := New(nil, nil, Options{})
	if c := s.Hashing.Cap(); c < 1 || c != hashqueue.Slots(argonMemory*1024) {
		t.Fatalf("hashing slots %d", c)
	}
}

// Finding 3 of decision 0009: wrong passwords from one network slow that network down for the
// account; the owner's right password from another network still works.
func TestOwnerNotLockedOut(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, nil, nil)
		st.register(st.browser(), "ana@example.com", "ana-shop")
		st.svc.LoginByAccount = ratelimit.New(5, time.Minute)
		wrong := map[string]string{"email": "ana@example.com", "password": "guess guess guess"}
		for i := 0; i < 5; i++ {
			wantError(t, st.do(st.browser(), "POST", "/api/v1/oaccount/login", wrong, "X-Forwarded-For", "203.0.113.9"), http.StatusUnauthorized, codeInvalidCredentials)
		}
		if a := st.do(st.browser(), "POST", "/api/v1/oaccount/login", wrong, "X-Forwarded-For", "203.0.113.9"); a.status != http.StatusTooManyRequests {
			t.Fatalf("6th guess from the attacker's IP: %d %s", a.status, a.body)
		}
		right := map[string]string{"email": "ana@example.com", "password": "correct horse battery"}
		if a := st.do(st.browser(), "POST", "/api/v1/oaccount/login", right, "X-Forwarded-For", "198.51.100.7"); a.status != http.StatusOK {
			t.Fatalf("owner from another network: %d %s", a.status, a.body)
		}
	})
}

// Finding 4 of decision 0009: text fields refuse control and bidi characters with 400 and an
// errorDetail, on both databases (NUL used to be a 503 on PostgreSQL).
func TestControlCharactersRefused(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, nil, nil)
		for i, c := range []struct{ name, store, code string }{
			{"Ana\r\n\r\nYour account is locked: visit https://evil.example", "ana-shop", codeNameInvalid},
			{"Ana\x00Lima", "ana-shop", codeNameInvalid},
			{"Ana \u202emiL", "ana-shop", codeNameInvalid},
			{"Ana Lima", "ana\nshop", codeStoreNameInvalid},
			{"Ana Lima", "ana\u2066shop", codeStoreNameInvalid},
		} {
			for _, form := range []bool{false, true} {
				email := fmt.Sprintf("ana%d@example.com", i)
				if form {
					a := st.do(st.browser(), "POST", "/register", url.Values{"name": {c.name}, "email": {email}, "password": {"correct horse battery"}, "storeName": {c.store}})
					field := map[string]string{codeNameInvalid: "name", codeStoreNameInvalid: "storeName"}[c.code]
					if p, _ := formstest.Decode([]byte(a.body)); a.status != http.StatusBadRequest || p.State.Errors[field] != c.code || len(p.State.Errors) != 1 {
						t.Fatalf("%q / %q posted to /register: %d %s", c.name, c.store, a.status, a.body)
					}
					continue
				}
				a := st.do(st.browser(), "POST", "/api/v1/oaccount/register", map[string]string{"name": c.name, "email": email, "password": "correct horse battery", "storeName": c.store})
				wantError(t, a, http.StatusBadRequest, c.code)
			}
		}
		var n int64
		db.Model(&Account{}).Count(&n)
		if n != 0 {
			t.Fatalf("%d accounts stored", n)
		}
	})
}

// Finding 6 of decision 0009: 50 concurrent registrations, logins and resets all succeed on
// SQLite (one writer at a time, each transaction taking the lock first) and
// on PostgreSQL.
func TestConcurrentWrites(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, nil, nil)
		st.svc.Hashing = hashqueue.New(2, time.Minute, 1000) // this test is about the database
		const n = 50
		run := func(what string, f func(i int) answer, want int) {
			t.Helper()
			var wg sync.WaitGroup
			errs := make(chan string, n)
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if a := f(i); a.status != want {
						errs <- fmt.Sprintf("%s %d: %d %s", what, i, a.status, a.body)
					}
				}()
			}
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Error(e)
			}
		}
		pw := "correct horse battery"
		run("register", func(i int) answer {
			return st.do(st.browser(), "POST", "/api/v1/oaccount/register", map[string]string{"name": "Ana", "email": fmt.Sprintf("u%d@example.com", i), "password": pw, "storeName": fmt.Sprintf("shop-%d", i)})
		}, http.StatusCreated)
		run("login", func(i int) answer {
			return st.do(st.browser(), "POST", "/api/v1/oaccount/login", map[string]string{"email": fmt.Sprintf("u%d@example.com", i), "password": pw})
		}, http.StatusOK)
		tokens := make([]string, n)
		for i := range tokens {
			tokens[i] = token.New()
			var acct Account
			db.First(&acct, "email = ?", fmt.Sprintf("u%d@example.com", i))
			now := st.now()
			if err := db.Create(&PasswordReset{TokenHash: token.Hash(tokens[i]), AccountID: acct.ID, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}).Error; err != nil {
				t.Fatal(err)
			}
		}
		run("reset", func(i int) answer {
			return st.do(st.browser(), "POST", "/api/v1/hq/oaccount/resetPassword", map[string]string{"token": tokens[i], "password": "another fine password"})
		}, http.StatusOK)
	})
}
