package accounts

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// When Google proves the real owner of an address someone had
// registered without proving it, the account kept the attacker's name,
// store name, pending order and pending_initial_license_payment status.
// Now nothing of theirs is left, and the owner's pages say what happened.
func TestReclaimLeavesNothingBehind(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		m := provider(t)
		st := googleSite(t, db, m)
		attacker := st.browser()
		st.do(attacker, "POST", "/api/v1/oaccount/register", map[string]string{"name": "Mallory Evil", "email": "jane@example.com", "password": "correct horse battery", "storeName": "jane-shop"})
		st.setStatus("jane@example.com", StatusPendingPayment)
		var acct Account
		db.First(&acct, "email = ?", "jane@example.com")
		now := time.Now().UTC()
		if err := db.Exec(`INSERT INTO license_orders (id, account_id, product, item_id, quantity, subtotal_paise, gst_paise, total_paise, currency, status, provider, created_at, updated_at)
			VALUES ('00000000-0000-4000-8000-000000000001', ?, 'plan', 'growth', 1, 100, 18, 118, 'INR', 'pending', 'test', ?, ?)`, acct.ID, now, now).Error; err != nil {
			t.Fatal(err)
		}

		jane := st.browser()
		a := st.do(jane, "POST", "/api/v1/oaccount/signin/google", map[string]string{"code": popupCode(t, m, user("g-jane", "jane@example.com", true))})
		if a.status != http.StatusOK {
			t.Fatalf("Jane's Google sign-in: %d %s", a.status, a.body)
		}
		db.First(&acct, "email = ?", "jane@example.com")
		if acct.Name == "Mallory Evil" || acct.StoreName != nil || acct.Status != StatusAccountCreated || acct.ReclaimedAt == nil {
			t.Errorf("after the owner reclaimed it: name %q, store %v, status %q, reclaimed %v", acct.Name, acct.StoreName, acct.Status, acct.ReclaimedAt)
		}
		var status string
		db.Raw("SELECT status FROM license_orders WHERE account_id = ?", acct.ID).Scan(&status)
		if status != orderCancelled {
			t.Errorf("the unproved party's pending order is %q", status)
		}
		var changes int64
		db.Raw("SELECT count(*) FROM account_status_changes WHERE account_id = ? AND reason = 'reclaimed'", acct.ID).Scan(&changes)
		if changes != 1 {
			t.Errorf("%d status changes recorded for the reclaim", changes)
		}
		// The store name is free for whoever proves they want it.
		st.register(st.browser(), "bo@example.com", "jane-shop")
		// The page Jane lands on says what happened; a day later it no longer does.
		page := st.do(jane, "GET", st.svc.Destination(acct.Status), nil)
		if !strings.Contains(page.body, `"notice":"reclaimed"`) || Message(codeReclaimed) == "" {
			t.Errorf("Jane's page: %q", page.body)
		}
		st.svc.opt.SessionTTL = 3 * reclaimedNotice // Jane stays signed in
		st.advance(reclaimedNotice + time.Minute)
		if page := st.do(jane, "GET", "/contact-us", nil); !strings.Contains(page.body, "isLoggedIn") || strings.Contains(page.body, "notice") {
			t.Errorf("the notice outlived its day: %q", page.body)
		}
	})
}
