package staff_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"omnibus/edge/internal/audit"
	"omnibus/edge/internal/config"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/staff/stafftest"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// passkeyEdge is an edge whose PUBLIC_URL is http://localhost:<port> (a
// relying party needs a domain), and its base URL.
func passkeyEdge(t *testing.T, db *storage.DB) (*edgetest.Edge, string) {
	t.Helper()
	var base string
	e := edgetest.Start(t, edgetest.Options{DB: db, Config: func(c *config.Config) {
		c.PublicURL = strings.Replace(c.PublicURL, "127.0.0.1", "localhost", 1)
		base = c.PublicURL
	}})
	return e, base
}

// browser is one browser on the site: its cookies, its origin.
type browser struct {
	t    *testing.T
	base string
	c    *http.Client
}

func newBrowser(t *testing.T, base string) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t, base, &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (b *browser) do(method, path string, body []byte) (int, []byte) {
	b.t.Helper()
	req, err := http.NewRequest(method, b.base+path, bytes.NewReader(body))
	if err != nil {
		b.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", b.base)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res.StatusCode, out
}

func (b *browser) post(path string, body string) (int, []byte) {
	return b.do("POST", path, []byte(body))
}

// register signs up through the site: a merchant session, password only.
func (b *browser) register(email string) {
	b.t.Helper()
	body := `{"name":"Pat Staff","email":"` + email + `","password":"correct horse battery","storeName":"` + strings.Split(email, "@")[0] + `-shop"}`
	if code, out := b.post("/api/v1/oaccount/register", body); code != http.StatusCreated {
		b.t.Fatalf("register %s: %d %s", email, code, out)
	}
}

func (b *browser) addCookie(c *http.Cookie) {
	u, _ := url.Parse(b.base)
	b.c.Jar.SetCookies(u, []*http.Cookie{c})
}

func actions(t *testing.T, db *storage.DB, email string) string {
	t.Helper()
	es, err := audit.New(db).List(t.Context(), audit.Filter{Actor: email}, 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i := len(es) - 1; i >= 0; i-- {
		out = append(out, es[i].Action+" "+es[i].Detail)
	}
	return strings.Join(out, "\n")
}

// A password sign-in alone never opens the studio; a granted member enrols
// a passkey (mailed and recorded), signs in with it, and the refusals an
// attacker would try are refused and recorded: a replayed answer, a wrong
// origin, a wrong RP ID, a counter going backwards (a cloned
// authenticator), and a second passkey added with the password alone.
func TestPasskeyEnrolSignInAndRefusals(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, base := passkeyEdge(t, db)
		u, _ := url.Parse(base)
		pat := newBrowser(t, base)
		pat.register("pat@example.com")
		if code, out := pat.post("/api/v1/staff/sign-in/options", ""); code != http.StatusForbidden {
			t.Fatalf("a merchant who is not staff asks for passkey options: %d %s", code, out)
		}
		stafftest.Grant(t, db, "pat@example.com", staff.Publisher)
		if code, out := pat.do("GET", "/api/v1/staff/me", nil); code != http.StatusUnauthorized || !strings.Contains(string(out), "signIn") {
			t.Fatalf("password only: %d %s, want 401 asking for the studio sign-in", code, out)
		}
		if code, out := pat.post("/api/v1/staff/sign-in/options", ""); code != http.StatusConflict || !strings.Contains(string(out), `"enrol":true`) {
			t.Fatalf("sign-in without a passkey: %d %s", code, out)
		}
		key := newSoftKey(t, u.Hostname(), base)
		code, opts := pat.post("/api/v1/staff/enrol/passkey/options", "")
		if code != 200 {
			t.Fatalf("enrol options: %d %s", code, opts)
		}
		if code, out := pat.do("POST", "/api/v1/staff/enrol/passkey?name=Laptop", key.Create(opts)); code != 200 {
			t.Fatalf("enrol: %d %s", code, out)
		}
		if code, out := pat.do("GET", "/api/v1/staff/me", nil); code != 200 || !strings.Contains(string(out), `"role":"publisher"`) {
			t.Fatalf("after enrolling: %d %s", code, out)
		}
		var notices int64
		db.Table("mail_outbox").Where("recipient = ? AND subject LIKE ?", "pat@example.com", "A passkey was added%").Count(&notices)
		if notices != 1 {
			t.Errorf("%d enrolment notices mailed, want 1", notices)
		}

		signIn := func(k *softKey) (int, []byte, []byte) {
			t.Helper()
			code, opts := pat.post("/api/v1/staff/sign-in/options", "")
			if code != 200 {
				t.Fatalf("sign-in options: %d %s", code, opts)
			}
			answer := k.Get(opts)
			code, out := pat.do("POST", "/api/v1/staff/sign-in/passkey", answer)
			return code, out, answer
		}
		pat.post("/api/v1/staff/sign-out", "")
		code, out, answer := signIn(key)
		if code != 200 {
			t.Fatalf("passkey sign-in: %d %s", code, out)
		}
		if code, out := pat.do("POST", "/api/v1/staff/sign-in/passkey", answer); code != http.StatusUnauthorized {
			t.Errorf("replayed answer: %d %s", code, out)
		}
		wrongOrigin := *key
		wrongOrigin.Origin = "http://evil.localhost:1"
		if code, out, _ := signIn(&wrongOrigin); code != http.StatusUnauthorized {
			t.Errorf("wrong origin: %d %s", code, out)
		}
		wrongRP := *key
		wrongRP.RPID = "evil.example"
		if code, out, _ := signIn(&wrongRP); code != http.StatusUnauthorized {
			t.Errorf("wrong RP ID: %d %s", code, out)
		}
		// The real key signs in again (the counter moved on), then a clone
		// of it, its counter behind, is refused.
		key.Count += 5
		if code, out, _ := signIn(key); code != 200 {
			t.Fatalf("second sign-in: %d %s", code, out)
		}
		clone := *key
		clone.Count -= 3
		if code, out, _ := signIn(&clone); code != http.StatusUnauthorized {
			t.Errorf("cloned authenticator: %d %s", code, out)
		}
		log := actions(t, db, "pat@example.com")
		for _, want := range []string{"passkey.enrolled", "signin passkey", "signin.failed passkey: the challenge is unknown, used or expired",
			"signin.failed passkey: the passkey did not verify: Error validating origin", "signin.failed passkey: the passkey did not verify: Error validating the authenticator response", "signin.failed passkey: the passkey's signature counter went backwards"} {
			if !strings.Contains(log, want) {
				t.Errorf("audit log lacks %q:\n%s", want, log)
			}
		}
		// A second passkey with a fresh password sign-in but no studio
		// session: refused (a phished password cannot add the attacker's).
		thief := newBrowser(t, base)
		if code, out := thief.post("/api/v1/oaccount/login", `{"email":"pat@example.com","password":"correct horse battery"}`); code != 200 {
			t.Fatalf("login: %d %s", code, out)
		}
		if code, out := thief.post("/api/v1/staff/enrol/passkey/options", ""); code != http.StatusUnauthorized {
			t.Errorf("second passkey with the password alone: %d %s", code, out)
		}
		if code, _ := thief.do("GET", "/api/v1/staff/me", nil); code != http.StatusUnauthorized {
			t.Errorf("password alone opened the studio: %d", code)
		}
		// Enrolling needs a recent sign-in: an hour later it asks for one.
		ed := newBrowser(t, base)
		ed.register("ed@example.com")
		stafftest.Grant(t, db, "ed@example.com", staff.Editor)
		e.App.Staff.SetClock(func() time.Time { return time.Now().UTC().Add(time.Hour) })
		if code, out := ed.post("/api/v1/staff/enrol/passkey/options", ""); code != http.StatusUnauthorized || !strings.Contains(string(out), "signInAgain") {
			t.Errorf("enrol an hour after signing in: %d %s", code, out)
		}
	})
}

// TOTP, where an admin allows it: a code works once, recovery codes work
// once each, and wrong guesses lock out that member and nobody else.
func TestTOTPFallback(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		e, base := passkeyEdge(t, db)
		now := time.Now().UTC()
		e.App.Staff.SetClock(func() time.Time { return now })
		ann := newBrowser(t, base)
		ann.register("ann@example.com")
		stafftest.Grant(t, db, "ann@example.com", staff.Editor)
		if code, out := ann.post("/api/v1/staff/enrol/totp", ""); code != http.StatusForbidden {
			t.Fatalf("TOTP not allowed: %d %s", code, out)
		}
		admin := newBrowser(t, base)
		admin.addCookie(stafftest.SignIn(t, db, "admin@example.com", staff.Admin))
		if code, out := admin.post("/api/v1/staff/members/totp", `{"email":"ann@example.com","allowed":true,"reason":"no passkey device yet"}`); code != 200 {
			t.Fatalf("allow TOTP: %d %s", code, out)
		}
		code, out := ann.post("/api/v1/staff/enrol/totp", "")
		if code != 200 {
			t.Fatalf("enrol TOTP: %d %s", code, out)
		}
		secret := strings.Split(strings.Split(string(out), `"secret":"`)[1], `"`)[0]
		codeAt := func(at time.Time) string {
			c, err := totp.GenerateCode(secret, at)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
		code, out = ann.post("/api/v1/staff/enrol/totp/confirm", `{"code":"`+codeAt(now)+`"}`)
		if code != 200 || strings.Count(string(out), "-") < staff.RecoveryCodes {
			t.Fatalf("confirm: %d %s", code, out)
		}
		recovery := strings.Split(strings.Split(string(out), `"recoveryCodes":["`)[1], `"`)[0]
		var stored int64
		db.Table("staff_recovery_codes").Where("code_hash = ? OR code_hash = ?", recovery, strings.ReplaceAll(recovery, "-", "")).Count(&stored)
		if stored != 0 {
			t.Error("a recovery code is stored as itself")
		}
		ann.post("/api/v1/staff/sign-out", "")
		if code, out := ann.post("/api/v1/staff/sign-in/totp", `{"code":"`+codeAt(now)+`"}`); code != http.StatusUnauthorized {
			t.Errorf("the confirming code used again: %d %s", code, out)
		}
		now = now.Add(30 * time.Second)
		next := codeAt(now)
		if code, out := ann.post("/api/v1/staff/sign-in/totp", `{"code":"`+next+`"}`); code != 200 {
			t.Fatalf("next code: %d %s", code, out)
		}
		ann.post("/api/v1/staff/sign-out", "")
		if code, out := ann.post("/api/v1/staff/sign-in/totp", `{"code":"`+next+`"}`); code != http.StatusUnauthorized {
			t.Errorf("a code used twice: %d %s", code, out)
		}
		if code, out := ann.post("/api/v1/staff/sign-in/totp", `{"recoveryCode":"`+strings.ToUpper(recovery)+`"}`); code != 200 {
			t.Fatalf("recovery code: %d %s", code, out)
		}
		ann.post("/api/v1/staff/sign-out", "")
		if code, out := ann.post("/api/v1/staff/sign-in/totp", `{"recoveryCode":"`+recovery+`"}`); code != http.StatusUnauthorized {
			t.Errorf("a recovery code used twice: %d %s", code, out)
		}
		// Guessing: Ann's allowance runs out; Bob, from the same address,
		// still signs in.
		bob := newBrowser(t, base)
		bob.register("bob@example.com")
		stafftest.Grant(t, db, "bob@example.com", staff.Editor)
		admin.post("/api/v1/staff/members/totp", `{"email":"bob@example.com","allowed":true,"reason":"travels"}`)
		_, out = bob.post("/api/v1/staff/enrol/totp", "")
		bobSecret := strings.Split(strings.Split(string(out), `"secret":"`)[1], `"`)[0]
		bobCode, _ := totp.GenerateCode(bobSecret, now)
		bob.post("/api/v1/staff/enrol/totp/confirm", `{"code":"`+bobCode+`"}`)
		bob.post("/api/v1/staff/sign-out", "")
		limited := false
		for i := 0; i < 30 && !limited; i++ {
			code, _ := ann.post("/api/v1/staff/sign-in/totp", fmt.Sprintf(`{"code":"%06d"}`, i))
			limited = code == http.StatusTooManyRequests
		}
		if !limited {
			t.Fatal("30 wrong codes for one member and no 429")
		}
		now = now.Add(30 * time.Second)
		bobCode, _ = totp.GenerateCode(bobSecret, now)
		if code, out := bob.post("/api/v1/staff/sign-in/totp", `{"code":"`+bobCode+`"}`); code != 200 {
			t.Errorf("another member from the same address after Ann's guesses: %d %s", code, out)
		}
		// Each checked guess is recorded; the refused ones are not, so
		// guessing cannot grow the log without bound.
		log := actions(t, db, "ann@example.com")
		if n := strings.Count(log, "signin.failed totp"); n < 5 || n > 12 || !strings.Contains(log, "recovery.used") {
			t.Errorf("%d failed codes recorded:\n%s", n, log)
		}
	})
}
