package accounts

import (
	"net/http"
	"net/url"
	"testing"

	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// The welcome's "send the link again" mails a new confirmation
// link to the signed-in account's address (a form post without JavaScript
// comes back to /contact-us?verify=sent), at most three per ten minutes;
// the store name is kept as typed beside its subdomain.
func TestResendConfirmationLink(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		sender, _ := mail.New("", "no-reply@omnibus.test", db)
		st := newSite(t, db, sender, nil)
		b := st.browser()
		st.do(b, "POST", "/api/v1/oaccount/register", map[string]string{"name": "Ana Lima", "email": "ana@example.com", "password": "correct horse battery", "storeName": "  Ana's   Pet Shop "})
		var acct Account
		if err := db.First(&acct, "email = ?", "ana@example.com").Error; err != nil {
			t.Fatal(err)
		}
		if acct.StoreTitle != "Ana's Pet Shop" || *acct.StoreName != "ana-s-pet-shop" {
			t.Errorf("store title %q, name %q", acct.StoreTitle, *acct.StoreName)
		}
		count := func() int64 {
			var n int64
			db.Model(&mail.OutboxMessage{}).Where("recipient = ?", "ana@example.com").Count(&n)
			return n
		}
		if n := count(); n != 1 {
			t.Fatalf("%d messages after registering, want the confirmation", n)
		}
		wantRedirect(t, st.do(b, "POST", "/api/v1/oaccount/verify-email/resend", url.Values{}), http.StatusSeeOther, "/contact-us?verify=sent")
		if n := count(); n != 2 {
			t.Fatalf("%d messages after resending, want 2", n)
		}
		if a := st.do(b, "POST", "/api/v1/oaccount/verify-email/resend", "{}"); a.status != http.StatusOK {
			t.Fatalf("JSON resend: %d %s", a.status, a.body)
		}
		st.do(b, "POST", "/api/v1/oaccount/verify-email/resend", url.Values{})
		wantRedirect(t, st.do(b, "POST", "/api/v1/oaccount/verify-email/resend", url.Values{}), http.StatusSeeOther, "/contact-us?verify=wait")
		if n := count(); n != 4 {
			t.Errorf("%d messages, want the first and three more", n)
		}
		// A cross-site post from a signed-in victim's browser is refused and sends nothing.
		wantError(t, st.do(b, "POST", "/api/v1/oaccount/verify-email/resend", url.Values{}, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"), http.StatusForbidden, codeCrossSite)
		if n := count(); n != 4 {
			t.Errorf("%d messages after a cross-site post, want 4", n)
		}
		// Signed out: nothing is sent.
		wantRedirect(t, st.do(st.browser(), "POST", "/api/v1/oaccount/verify-email/resend", url.Values{}), http.StatusSeeOther, "/login")
	})
}
