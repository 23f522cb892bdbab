package billing_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"omnibus/edge/internal/billing"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

func TestGSTRoundsHalfUpInPaise(t *testing.T) {
	for _, c := range []struct{ amount, bps, want int64 }{
		{0, 1800, 0}, {1, 1800, 0}, {2, 1800, 0}, {3, 1800, 1}, // 0.54 → 1
		{25, 1800, 5},                   // 4.5 → 5 (half up)
		{1798800, 1800, 323784},         // Growth: ₹17,988 → ₹3,237.84
		{99999, 1800, 18000},            // 17999.82 → 18000
		{1<<40 + 1, 1800, 197912093000}, // 197912092999.86: large amounts stay exact (int64)
	} {
		if got := billing.GST(c.amount, c.bps); got != c.want {
			t.Errorf("GST(%d, %d) = %d, want %d", c.amount, c.bps, got, c.want)
		}
	}
}

func TestCatalogueIsTheSharedPlans(t *testing.T) {
	cat := billing.DefaultCatalogue()
	g, ok := cat.Plan("growth")
	if !ok || *g.MonthlyPaise != 149900 {
		t.Fatalf("growth = %+v", g)
	}
	if ch := cat.Price(g, 1); ch != (billing.Charge{SubtotalPaise: 1798800, GSTPaise: 323784, TotalPaise: 2122584}) {
		t.Fatalf("growth charge = %+v", ch)
	}
	if _, err := billing.LoadCatalogue([]byte(`{"currency":"INR","gstBasisPoints":1800,"plans":[{"id":"x","name":"X","monthlyPaise":1.5,"billingMonths":1}]}`)); err == nil {
		t.Fatal("a fractional paise price was accepted")
	}
}

// The whole journey on the test-mode provider: account_created →
// (initialiseLicenses) → pending_initial_license_payment → (payment) → active,
// every order, event and status change stored.
func TestJourneyTestMode(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, testMode, "")
		c, _ := st.merchant()
		if s := st.status(c); s != billing.StatusAccountCreated {
			t.Fatalf("new account status %q", s)
		}
		a := st.do(c, http.MethodPost, "/api/v1/licenses/initialiseLicenses", map[string]string{"planId": "growth"})
		if a.status != http.StatusCreated || a.data()["omnicustomerStatus"] != billing.StatusPendingPayment {
			t.Fatalf("initialise: %d %s", a.status, a.body)
		}
		o := a.order()
		if o["totalPaise"] != float64(2122584) || o["gstPaise"] != float64(323784) || o["currency"] != "INR" || o["status"] != "pending" {
			t.Fatalf("order %v", o)
		}
		id := o["id"].(string)
		if s := st.status(c); s != billing.StatusPendingPayment {
			t.Fatalf("status after initialise %q", s)
		}
		// /login now sends the merchant to /contact-us (SPEC §4, unchanged).
		if a := st.do(c, http.MethodGet, "/login", nil); a.status != http.StatusFound || a.header.Get("Location") != "/contact-us" {
			t.Fatalf("/login while pending: %d %s", a.status, a.header.Get("Location"))
		}

		pay := st.do(c, http.MethodGet, "/api/v1/license/payment/show-payment-page/"+id, nil)
		loc, _ := url.Parse(pay.header.Get("Location"))
		if pay.status != http.StatusSeeOther || loc.Path != "/test-payment" || !strings.HasPrefix(loc.Query().Get("session"), "tm_") {
			t.Fatalf("show-payment-page: %d %s", pay.status, pay.header.Get("Location"))
		}
		session := loc.Query().Get("session")
		view := st.do(c, http.MethodGet, "/api/v1/payments/test-mode/"+session, nil)
		if view.status != 200 || view.order()["id"] != id {
			t.Fatalf("test-mode session: %d %s", view.status, view.body)
		}
		// Someone else cannot see or pay it.
		other, _ := st.merchant()
		if a := st.do(other, http.MethodGet, "/api/v1/payments/test-mode/"+session, nil); a.status != 404 {
			t.Fatalf("another merchant saw the test-mode session: %d", a.status)
		}
		if a := st.do(other, http.MethodPost, "/api/v1/payments/test-mode/"+session+"/pay", url.Values{}); a.status != 404 {
			t.Fatalf("another merchant paid: %d", a.status)
		}

		done := st.do(c, http.MethodPost, "/api/v1/payments/test-mode/"+session+"/pay", url.Values{})
		if done.status != http.StatusSeeOther || done.header.Get("Location") != "/landing-page?order="+id {
			t.Fatalf("pay: %d %s", done.status, done.header.Get("Location"))
		}
		if s := st.status(c); s != billing.StatusActive {
			t.Fatalf("status after payment %q", s)
		}
		if a := st.do(c, http.MethodGet, "/login", nil); a.status != http.StatusFound || a.header.Get("Location") != "/landing-page" {
			t.Fatalf("/login when active: %d %s", a.status, a.header.Get("Location"))
		}
		// Pressing Pay again changes nothing twice.
		again := st.do(c, http.MethodPost, "/api/v1/payments/test-mode/"+session+"/pay", map[string]string{})
		if again.status != 200 || again.data()["outcome"] != billing.OutcomeDuplicate {
			t.Fatalf("second pay: %d %s", again.status, again.body)
		}
		if n := count(t, db, "account_status_changes", "to_status = ?", billing.StatusActive); n != 1 {
			t.Fatalf("%d moves to active", n)
		}
		if n := count(t, db, "account_status_changes", "1 = 1"); n != 2 {
			t.Fatalf("%d status changes, want 2", n)
		}
		if n := count(t, db, "payment_events", "order_id = ? AND outcome = ?", id, billing.OutcomeApplied); n != 1 {
			t.Fatalf("%d applied events", n)
		}
		// The merchant home's data.
		cur := st.do(c, http.MethodGet, "/api/v1/licenses/current", nil)
		if cur.data()["plan"] != "Growth" || cur.data()["omnicustomerStatus"] != billing.StatusActive || cur.data()["adminConsoleUrl"] != "https://admin.test" {
			t.Fatalf("current: %s", cur.body)
		}
	})
}

// Refusals: unknown plan, a plan priced on request, signed out, an active
// account choosing again, another merchant's order, paying twice, bad ids.
func TestRefusals(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, testMode, "")
		anon := browser()
		if a := st.do(anon, http.MethodPost, "/api/v1/licenses/initialiseLicenses", map[string]string{"planId": "growth"}); a.status != 401 || a.errorDetail() == "" {
			t.Fatalf("signed out: %d %s", a.status, a.body)
		}
		// Without JavaScript a signed-out visitor is sent to the page with the reason.
		if a := st.do(anon, http.MethodPost, "/api/v1/petpawlor/license/purchase", url.Values{"quantity": {"1"}}); a.status != 303 || a.header.Get("Location") != "/petpawlor?error=signInRequired" {
			t.Fatalf("signed-out form: %d %s", a.status, a.header.Get("Location"))
		}
		c, _ := st.merchant()
		for _, plan := range []string{"", "platinum", "GROWTH", "enterprise"} {
			a := st.do(c, http.MethodPost, "/api/v1/licenses/initialiseLicenses", map[string]string{"planId": plan})
			if a.status != 400 || a.errorDetail() == "" {
				t.Fatalf("plan %q: %d %s", plan, a.status, a.body)
			}
		}
		if a := st.do(c, http.MethodPost, "/api/v1/licenses/initialiseLicenses", url.Values{"planId": {"nope"}}); a.status != 303 || a.header.Get("Location") != "/choose-plan?error=unknownPlan" {
			t.Fatalf("form unknown plan: %d %s", a.status, a.header.Get("Location"))
		}
		for _, q := range []string{"0", "11", "-1", "abc", "1.5"} {
			if a := st.do(c, http.MethodPost, "/api/v1/petpawlor/license/purchase", map[string]string{"quantity": q}); a.status != 400 {
				t.Fatalf("quantity %q: %d", q, a.status)
			}
		}
		if n := count(t, db, "license_orders", "1 = 1"); n != 0 {
			t.Fatalf("refused requests made %d orders", n)
		}
		if s := st.status(c); s != billing.StatusAccountCreated {
			t.Fatalf("refusals moved the status to %q", s)
		}

		a := st.do(c, http.MethodPost, "/api/v1/licenses/initialiseLicenses", map[string]string{"planId": "pro"})
		id := a.order()["id"].(string)
		pet := st.do(c, http.MethodPost, "/api/v1/petpawlor/license/purchase", map[string]any{"quantity": 2})
		if pet.status != 201 || pet.order()["totalPaise"] != float64(2*99900*12+billing.GST(2*99900*12, 1800)) {
			t.Fatalf("petpawlor: %d %s", pet.status, pet.body)
		}
		petID := pet.order()["id"].(string)

		// Another merchant's order is a 404, never theirs to pay or see.
		other, _ := st.merchant()
		for _, p := range []string{"/api/v1/license/payment/show-payment-page/" + id, "/api/v1/licenses/orders/" + id,
			"/api/v1/petpawlor/license/payment/show-payment-page/" + petID} {
			if a := st.do(other, http.MethodGet, p, nil); a.status != 404 || a.errorDetail() == "" {
				t.Fatalf("other merchant %s: %d %s", p, a.status, a.body)
			}
			if a := st.do(anon, http.MethodGet, p, nil); a.status != 404 {
				t.Fatalf("signed out %s: %d", p, a.status)
			}
		}
		// Wrong kind of order, unknown and malformed ids.
		for _, p := range []string{"/api/v1/license/payment/show-payment-page/" + petID, "/api/v1/petpawlor/license/payment/show-payment-page/" + id,
			"/api/v1/license/payment/show-payment-page/00000000-0000-4000-8000-000000000000", "/api/v1/license/payment/show-payment-page/1%27%20OR%201=1"} {
			if a := st.do(c, http.MethodGet, p, nil); a.status != 404 {
				t.Fatalf("%s: %d", p, a.status)
			}
		}

		// Paid once; the second attempt is refused, a browser is shown its order instead.
		pay := st.do(c, http.MethodGet, "/api/v1/license/payment/show-payment-page/"+id, nil)
		session, _ := url.Parse(pay.header.Get("Location"))
		st.do(c, http.MethodPost, "/api/v1/payments/test-mode/"+session.Query().Get("session")+"/pay", url.Values{})
		if a := st.do(c, http.MethodGet, "/api/v1/license/payment/show-payment-page/"+id, nil); a.status != 409 || a.errorDetail() == "" {
			t.Fatalf("paying twice: %d %s", a.status, a.body)
		}
		if a := st.do(c, http.MethodGet, "/api/v1/license/payment/show-payment-page/"+id, nil, "Accept", "text/html"); a.status != 303 || a.header.Get("Location") != "/landing-page?order="+id {
			t.Fatalf("paying twice from a browser: %d %s", a.status, a.header.Get("Location"))
		}
		if a := st.do(c, http.MethodPost, "/api/v1/licenses/initialiseLicenses", map[string]string{"planId": "growth"}); a.status != 409 {
			t.Fatalf("active account chose again: %d", a.status)
		}
		// PetPawlor does not move the onboarding status; its order page is its own.
		pp := st.do(c, http.MethodGet, "/api/v1/petpawlor/license/payment/show-payment-page/"+petID, nil)
		s2, _ := url.Parse(pp.header.Get("Location"))
		done := st.do(c, http.MethodPost, "/api/v1/payments/test-mode/"+s2.Query().Get("session")+"/pay", url.Values{})
		if done.header.Get("Location") != "/petpawlor-order-complete?order="+petID {
			t.Fatalf("petpawlor paid: %d %s", done.status, done.header.Get("Location"))
		}
		if o := st.do(c, http.MethodGet, "/api/v1/licenses/orders/"+petID, nil); o.data()["status"] != "paid" || o.data()["quantity"] != float64(2) || o.data()["name"] != "PetPawlor licence" {
			t.Fatalf("petpawlor order: %s", o.body)
		}
	})
}

func TestFreePlanActivatesAtOnce(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSite(t, db, testMode, "")
		c, _ := st.merchant()
		a := st.do(c, http.MethodPost, "/api/v1/licenses/initialiseLicenses", url.Values{"planId": {"starter"}})
		if a.status != 303 || a.header.Get("Location") != "/landing-page" {
			t.Fatalf("starter: %d %s", a.status, a.header.Get("Location"))
		}
		if s := st.status(c); s != billing.StatusActive {
			t.Fatalf("status %q", s)
		}
	})
}

func TestPaymentsOff(t *testing.T) {
	st := newSite(t, storagetest.SQLite(t), offProvider, "")
	c, _ := st.merchant()
	id := st.do(c, http.MethodPost, "/api/v1/licenses/initialiseLicenses", map[string]string{"planId": "growth"}).order()["id"].(string)
	if a := st.do(c, http.MethodGet, "/api/v1/license/payment/show-payment-page/"+id, nil); a.status != 503 || a.errorDetail() == "" {
		t.Fatalf("payments off: %d %s", a.status, a.body)
	}
}

// /landing-page: the site's merchant home, or MERCHANT_APP_URL when that is
// another origin.
func TestLandingPage(t *testing.T) {
	st := newSite(t, storagetest.SQLite(t), testMode, "https://app.omnibus.example/home")
	if a := st.do(browser(), http.MethodGet, "/landing-page", nil); a.status != 302 || a.header.Get("Location") != "https://app.omnibus.example/home" {
		t.Fatalf("/landing-page: %d %s", a.status, a.header.Get("Location"))
	}
	local := newSite(t, storagetest.SQLite(t), testMode, "")
	if a := local.do(browser(), http.MethodGet, "/landing-page", nil); a.status != 200 || !strings.Contains(a.body, "Page /landing-page") {
		t.Fatalf("local /landing-page: %d %s", a.status, a.body)
	}
}
