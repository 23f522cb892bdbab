package billing_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"omnibus/edge/internal/billing"
	"omnibus/edge/internal/billing/stripepay/stripemock"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

const whsec = "whsec_test_journey"

// checkoutEvent is a Stripe event about a Checkout Session, as Stripe sends it.
func checkoutEvent(eventID, typ, orderID string, amount int64, paymentStatus string) []byte {
	ev := map[string]any{
		"id": eventID, "object": "event", "type": typ, "api_version": "2020-08-27", "created": time.Now().Unix(),
		"data": map[string]any{"object": map[string]any{
			"id": "cs_test_" + eventID, "object": "checkout.session", "client_reference_id": orderID,
			"metadata": map[string]string{"order_id": orderID}, "amount_total": amount, "currency": "inr",
			"payment_status": paymentStatus, "status": "complete",
		}},
	}
	b, _ := json.Marshal(ev)
	return b
}

// signed posts payload to the webhook with a signature the SDK made.
func (st *site) signed(payload []byte, secret string) answer {
	st.t.Helper()
	sp := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret})
	return st.do(browser(), http.MethodPost, "/api/v1"+billing.WebhookPath, payload, "Stripe-Signature", sp.Header)
}

// Stripe end to end against stripe-mock: the payment page is a Checkout
// Session made through the SDK; signed webhooks confirm, idempotently.
func TestStripeCheckoutAndWebhooks(t *testing.T) {
	apiURL := stripemock.Start(t)
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		st := newSiteWith(t, db, nil, stripeSettings(apiURL))
		c, _ := st.merchant()
		o := st.do(c, http.MethodPost, "/api/v1/licenses/initialiseLicenses", map[string]string{"planId": "growth"}).order()
		id, total := o["id"].(string), int64(o["totalPaise"].(float64))

		pay := st.do(c, http.MethodGet, "/api/v1/license/payment/show-payment-page/"+id, nil)
		if pay.status != http.StatusSeeOther || !strings.HasPrefix(pay.header.Get("Location"), "https://") {
			t.Fatalf("show-payment-page: %d %s %s", pay.status, pay.header.Get("Location"), pay.body)
		}
		var ref string
		db.Table("license_orders").Select("provider_ref").Where("id = ?", id).Scan(&ref)
		if !strings.HasPrefix(ref, "cs_") {
			t.Fatalf("the checkout session was not recorded: %q", ref)
		}

		// A forged or unsigned event is refused and stores nothing.
		forged := checkoutEvent("evt_forged", "checkout.session.completed", id, total, "paid")
		if a := st.signed(forged, "whsec_someone_else"); a.status != 400 || a.errorDetail() == "" {
			t.Fatalf("bad signature: %d %s", a.status, a.body)
		}
		if a := st.do(browser(), http.MethodPost, "/api/v1"+billing.WebhookPath, forged); a.status != 400 {
			t.Fatalf("unsigned: %d", a.status)
		}
		// A payment of the wrong amount does not open the store.
		if a := st.signed(checkoutEvent("evt_short", "checkout.session.completed", id, total-1, "paid"), whsec); a.status != 200 || a.json["outcome"] != billing.OutcomeAmountMismatch {
			t.Fatalf("short payment: %d %s", a.status, a.body)
		}
		// Completed but not yet paid (a delayed method): nothing moves.
		if a := st.signed(checkoutEvent("evt_unpaid", "checkout.session.completed", id, total, "unpaid"), whsec); a.json["outcome"] != billing.OutcomeIgnored {
			t.Fatalf("unpaid: %s", a.body)
		}
		if s := st.status(c); s != billing.StatusPendingPayment || orderStatus(t, db, id) != billing.OrderPending {
			t.Fatalf("moved before a payment: %q %q", s, orderStatus(t, db, id))
		}

		paid := checkoutEvent("evt_paid", "checkout.session.async_payment_succeeded", id, total, "paid")
		if a := st.signed(paid, whsec); a.status != 200 || a.json["outcome"] != billing.OutcomeApplied {
			t.Fatalf("paid: %d %s", a.status, a.body)
		}
		if s := st.status(c); s != billing.StatusActive || orderStatus(t, db, id) != billing.OrderPaid {
			t.Fatalf("after payment: %q %q", s, orderStatus(t, db, id))
		}
		// Replayed: acknowledged, nothing twice. Reordered: the session's
		// 'completed' after the success, and an 'expired' after it, change nothing.
		if a := st.signed(paid, whsec); a.status != 200 || a.json["outcome"] != billing.OutcomeDuplicate {
			t.Fatalf("replay: %d %s", a.status, a.body)
		}
		if a := st.signed(checkoutEvent("evt_late", "checkout.session.completed", id, total, "paid"), whsec); a.json["outcome"] != billing.OutcomeAlreadyPaid {
			t.Fatalf("late completed: %s", a.body)
		}
		if a := st.signed(checkoutEvent("evt_expired", "checkout.session.expired", id, total, "unpaid"), whsec); a.json["outcome"] != billing.OutcomeIgnored {
			t.Fatalf("expired after paid: %s", a.body)
		}
		if s := st.status(c); s != billing.StatusActive || orderStatus(t, db, id) != billing.OrderPaid {
			t.Fatalf("reordered events moved it: %q %q", s, orderStatus(t, db, id))
		}
		if n := count(t, db, "account_status_changes", "to_status = ?", billing.StatusActive); n != 1 {
			t.Fatalf("%d moves to active", n)
		}
		if n := count(t, db, "payment_events", "1 = 1"); n != 5 {
			t.Fatalf("%d events stored, want 5 (short, unpaid, paid, late, expired)", n)
		}
		if a := st.do(c, http.MethodGet, "/api/v1/license/payment/show-payment-page/"+id, nil); a.status != 409 {
			t.Fatalf("paying twice: %d", a.status)
		}
		// A payment for an order nobody has is stored and acknowledged (not retried forever).
		if a := st.signed(checkoutEvent("evt_ghost", "checkout.session.completed", "00000000-0000-4000-8000-000000000000", 100, "paid"), whsec); a.status != 200 || a.json["outcome"] != billing.OutcomeUnknownOrder {
			t.Fatalf("unknown order: %s", a.body)
		}
	})
}

// A body over the webhook's bound is refused before anything is parsed.
func TestWebhookBodyIsBounded(t *testing.T) {
	st := newSiteWith(t, storagetest.SQLite(t), nil, stripeSettings("http://127.0.0.1:1"))
	big := []byte(fmt.Sprintf(`{"id":"evt_big","pad":"%s"}`, strings.Repeat("x", 70<<10)))
	if a := st.signed(big, whsec); a.status != http.StatusRequestEntityTooLarge && a.status != http.StatusBadRequest {
		t.Fatalf("oversized event: %d", a.status)
	}
}
