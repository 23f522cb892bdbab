package accounts

import (
	"net/http"
	"net/url"
	"testing"

	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// An account made by Google sign-in has no store; the step that
// names it is on /choose-plan, whose form (with or
// without JavaScript) creates the store with the name as typed, under the
// register form's rules; the name, once set, stays.
func TestGoogleSignUpNamesTheStore(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		m := provider(t)
		st := googleSite(t, db, m)
		b := st.browser()
		a := st.do(b, "POST", "/api/v1/oaccount/signin/google", map[string]string{"code": popupCode(t, m, user("g-1", "meera@example.com", true))})
		if a.status != http.StatusOK {
			t.Fatalf("google: %d %s", a.status, a.body)
		}

		// Without JavaScript: refused names come back as the page with what was typed.
		wantPage(t, st.do(b, "POST", "/choose-plan", url.Values{"storeName": {"www"}}), http.StatusBadRequest, "/choose-plan",
			forms.State{Form: formStoreName, Values: map[string]string{"storeName": "www"}, Errors: map[string]string{"storeName": codeStoreNameReserved}})
		st.register(st.browser(), "ana@example.com", "ana-shop")
		wantPage(t, st.do(b, "POST", "/choose-plan", url.Values{"storeName": {"Ana Shop"}}), http.StatusConflict, "/choose-plan",
			forms.State{Form: formStoreName, Values: map[string]string{"storeName": "Ana Shop"}, Errors: map[string]string{"storeName": codeStoreNameTaken}})

		wantRedirect(t, st.do(b, "POST", "/choose-plan", url.Values{"storeName": {"  Meera's   Saree House "}}), http.StatusSeeOther, "/choose-plan")
		var acct Account
		db.First(&acct, "email = ?", "meera@example.com")
		if acct.StoreName == nil || *acct.StoreName != "meera-s-saree-house" || acct.StoreTitle != "Meera's Saree House" {
			t.Fatalf("store %v %q", acct.StoreName, acct.StoreTitle)
		}
		// Named, the name stays.
		wantError(t, st.do(b, "POST", "/api/v1/oaccount/store-name", map[string]string{"storeName": "Other name"}), http.StatusConflict, codeStoreNameSet)
		wantRedirect(t, st.do(b, "POST", "/choose-plan", url.Values{"storeName": {"Other name"}}), http.StatusSeeOther, "/choose-plan")
		db.First(&acct, "email = ?", "meera@example.com")
		if *acct.StoreName != "meera-s-saree-house" {
			t.Fatalf("store renamed to %q", *acct.StoreName)
		}

		// Signed out: nothing to name; another site cannot post it.
		wantError(t, st.do(st.browser(), "POST", "/api/v1/oaccount/store-name", map[string]string{"storeName": "Lone Shop"}), http.StatusUnauthorized, "signedOut")
		wantRedirect(t, st.do(st.browser(), "POST", "/choose-plan", url.Values{"storeName": {"Lone Shop"}}), http.StatusSeeOther, "/login")
		a = st.do(b, "POST", "/api/v1/oaccount/store-name", map[string]string{"storeName": "Evil Shop"}, "Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site")
		if a.status != http.StatusForbidden {
			t.Fatalf("cross-site: %d", a.status)
		}
	})
}
