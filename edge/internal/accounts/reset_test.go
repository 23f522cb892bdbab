package accounts

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/mail/mailtest"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
	"omnibus/edge/internal/token"
)

var linkRE = regexp.MustCompile(`https?://\S+/reset-password\?token=[A-Za-z0-9_-]+`)

// The whole forgotten-password path: the answer never tells whether an
// account exists; the e-mail arrives over SMTP; its link sets the password
// once, signs out every other browser and signs this one in.
func TestPasswordResetOverSMTP(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		smtpd := mailtest.Start(t)
		sender, err := mail.New(smtpd.URL, "Omnibus <no-reply@omnibus.test>", db)
		if err != nil {
			t.Fatal(err)
		}
		st := newSite(t, db, sender, nil)
		other := st.browser()
		st.register(other, "ana@example.com", "ana-shop")
		if _, body := smtpd.Next(t).Parse(t); !strings.Contains(body, "verify-email") {
			t.Fatalf("the first mail is not the address confirmation: %q", body)
		}

		known := st.do(st.browser(), "POST", "/api/v1/hq/oaccount/forgotPassword", map[string]string{"email": " Ana@Example.com"})
		unknown := st.do(st.browser(), "POST", "/api/v1/hq/oaccount/forgotPassword", map[string]string{"email": "nobody@example.com"})
		if known.status != http.StatusOK || known.status != unknown.status || known.body != unknown.body || known.data()["message"] != Message(codeResetSent) {
			t.Fatalf("forgotPassword answers differ or are wrong:\n%d %s\n%d %s", known.status, known.body, unknown.status, unknown.body)
		}
		got := smtpd.Next(t)
		smtpd.None(t) // nothing for the unknown address
		if len(got.To) != 1 || got.To[0] != "ana@example.com" {
			t.Fatalf("mail to %v", got.To)
		}
		msg, body := got.Parse(t)
		if msg.Header.Get("Subject") != content.ResetEmail.Subject || !strings.Contains(body, "Hello Ana Lima,") {
			t.Fatalf("mail %v %q", msg.Header, body)
		}
		link := linkRE.FindString(body)
		if !strings.HasPrefix(link, st.srv.URL+"/reset-password?token=") {
			t.Fatalf("no reset link in %q", body)
		}
		lu, _ := url.Parse(link)
		secret := lu.Query().Get("token")

		// The reset page itself never leaks the token in a Referer.
		if a := st.do(st.browser(), "GET", lu.RequestURI(), nil); a.header.Get("Referrer-Policy") != "no-referrer" {
			t.Fatalf("reset page headers %v", a.header)
		}

		// A weak password is refused and the link still works afterwards.
		b := st.browser()
		wantError(t, st.do(b, "POST", "/api/v1/hq/oaccount/resetPassword", map[string]string{"token": secret, "password": "short"}), http.StatusBadRequest, codePasswordTooShort)
		a := st.do(b, "POST", "/api/v1/hq/oaccount/resetPassword", map[string]string{"token": secret, "password": "a brand new secret"})
		if a.status != http.StatusOK || a.data()["isLoggedIn"] != true || a.cookie(CookieName) == nil {
			t.Fatalf("reset: %d %s", a.status, a.body)
		}
		// The page it leads to tells the visitor their password was changed.
		if to := a.data()["redirectTo"]; to != "/contact-us?notice="+codePasswordChanged {
			t.Fatalf("reset leads to %v, want the next page with the password-changed notice", to)
		}
		if in, _ := st.loggedIn(b); !in {
			t.Fatal("not signed in after the reset")
		}
		if in, _ := st.loggedIn(other); in {
			t.Fatal("the account's other session survived the reset")
		}
		// Used once: the same link is refused.
		wantError(t, st.do(st.browser(), "POST", "/api/v1/hq/oaccount/resetPassword", map[string]string{"token": secret, "password": "yet another secret"}), http.StatusBadRequest, codeResetInvalid)
		// The new password signs in, the old one does not.
		wantError(t, st.do(st.browser(), "POST", "/api/v1/oaccount/login", map[string]string{"email": "ana@example.com", "password": "correct horse battery"}), http.StatusUnauthorized, codeInvalidCredentials)
		if a := st.do(st.browser(), "POST", "/api/v1/oaccount/login", map[string]string{"email": "ana@example.com", "password": "a brand new secret"}); a.status != http.StatusOK {
			t.Fatalf("login with the new password: %d %s", a.status, a.body)
		}

		// A link older than an hour is refused.
		st.do(st.browser(), "POST", "/api/v1/hq/oaccount/forgotPassword", map[string]string{"email": "ana@example.com"})
		_, body = smtpd.Next(t).Parse(t)
		lu, _ = url.Parse(linkRE.FindString(body))
		st.advance(time.Hour + time.Second)
		wantError(t, st.do(st.browser(), "POST", "/api/v1/hq/oaccount/resetPassword", map[string]string{"token": lu.Query().Get("token"), "password": "a fine new secret"}), http.StatusBadRequest, codeResetInvalid)

		// A day later, asking again prunes the dead links.
		st.advance(24 * time.Hour)
		st.do(st.browser(), "POST", "/api/v1/hq/oaccount/forgotPassword", map[string]string{"email": "ana@example.com"})
		smtpd.Next(t)
		var n int64
		db.Model(&PasswordReset{}).Count(&n)
		if n != 1 {
			t.Fatalf("%d reset rows, want only the new one", n)
		}

		// Junk tokens and bad input.
		wantError(t, st.do(st.browser(), "POST", "/api/v1/hq/oaccount/resetPassword", map[string]string{"token": "nope", "password": "a fine new secret"}), http.StatusBadRequest, codeResetInvalid)
		wantError(t, st.do(st.browser(), "POST", "/api/v1/hq/oaccount/resetPassword", map[string]string{"token": token.New(), "password": "a fine new secret"}), http.StatusBadRequest, codeResetInvalid)
		wantError(t, st.do(st.browser(), "POST", "/api/v1/hq/oaccount/forgotPassword", map[string]string{"email": "not-an-address"}), http.StatusBadRequest, codeEmailInvalid)
		wantError(t, st.do(st.browser(), "POST", "/api/v1/hq/oaccount/forgotPassword", "[]"), http.StatusBadRequest, codeMalformed)
	})
}

// Without JavaScript (posted to their pages): the forgot form answers 303
// ?sent=1 whatever the address; the reset form 303s by the rules; a refusal
// is the page again (the reset page at its address with the token).
func TestPasswordResetFormPosts(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		sender, _ := mail.New("", "no-reply@omnibus.test", db)
		st := newSite(t, db, sender, nil)
		st.register(st.browser(), "ana@example.com", "ana-shop")
		db.Where("1 = 1").Delete(&mail.OutboxMessage{}) // the address confirmation
		for _, email := range []string{"ana@example.com", "nobody@example.com"} {
			wantRedirect(t, st.do(st.browser(), "POST", "/forgot-password", url.Values{"email": {email}}), http.StatusSeeOther, "/forgot-password?sent=1")
		}
		wantPage(t, st.do(st.browser(), "POST", "/forgot-password", url.Values{"email": {""}}), http.StatusBadRequest, "/forgot-password",
			forms.State{Form: "forgot-password", Errors: map[string]string{"email": codeEmailRequired}})
		var out []mail.OutboxMessage
		db.Find(&out)
		if len(out) != 1 || out[0].Recipient != "ana@example.com" {
			t.Fatalf("outbox %+v", out)
		}
		secret, _ := url.ParseQuery(strings.SplitN(linkRE.FindString(out[0].Body), "?", 2)[1])
		tok := secret.Get("token")
		b := st.browser()
		page := "/reset-password?token=" + tok
		// A working link opens the form; an unknown one is said before any form.
		if a := st.do(b, "GET", page, nil); a.status != http.StatusOK || a.header.Get("Referrer-Policy") != "no-referrer" {
			t.Fatalf("GET %s: %d %v", page, a.status, a.header)
		}
		wantRedirect(t, st.do(b, "GET", "/reset-password?token="+strings.Repeat("A", 43), nil), http.StatusSeeOther, "/forgot-password?error=resetInvalid")
		wantRedirect(t, st.do(b, "GET", "/reset-password", nil), http.StatusSeeOther, "/forgot-password?error=resetInvalid")
		wantPage(t, st.do(b, "POST", page, url.Values{"token": {tok}, "password": {"short"}}), http.StatusBadRequest, "/reset-password",
			forms.State{Form: "reset-password", Errors: map[string]string{"password": codePasswordTooShort}})
		wantRedirect(t, st.do(b, "POST", page, url.Values{"token": {tok}, "password": {"a brand new secret"}}), http.StatusSeeOther, "/contact-us?notice="+codePasswordChanged)
		wantPage(t, st.do(b, "POST", page, url.Values{"token": {tok}, "password": {"a brand new secret"}}), http.StatusBadRequest, "/reset-password",
			forms.State{Form: "reset-password", Error: codeResetInvalid})
		// The used link, opened again: said before the form, with the way to a new one.
		wantRedirect(t, st.do(st.browser(), "GET", page, nil), http.StatusSeeOther, "/forgot-password?error=resetInvalid")
	})
}
