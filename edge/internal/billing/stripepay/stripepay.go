// Package stripepay is billing's Provider on Stripe Checkout, through Stripe's
// official Go SDK (github.com/stripe/stripe-go): a Checkout Session per
// payment attempt, and the signed checkout.session.* webhook events.
package stripepay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"

	"omnibus/edge/internal/billing"
)

// Provider is Stripe.
type Provider struct {
	client        *stripe.Client
	webhookSecret string
}

// New returns the provider. apiURL empty means Stripe's own API; tests
// point it at stripe-mock.
func New(secretKey, webhookSecret, apiURL string) *Provider {
	cfg := &stripe.BackendConfig{HTTPClient: &http.Client{Timeout: 20 * time.Second}, LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelError}}
	if apiURL != "" {
		cfg.URL = stripe.String(strings.TrimRight(apiURL, "/"))
	}
	backends := stripe.NewBackendsWithConfig(cfg)
	return &Provider{client: stripe.NewClient(secretKey, stripe.WithBackends(backends)), webhookSecret: webhookSecret}
}

// Name implements billing.Provider.
func (p *Provider) Name() string { return "stripe" }

// CreateCheckout implements billing.Provider: a one-off Checkout Session in
// INR for the order's total (GST included), tagged with the order id.
func (p *Provider) CreateCheckout(ctx context.Context, co billing.Checkout) (billing.Session, error) {
	params := &stripe.CheckoutSessionCreateParams{
		Mode:              stripe.String(string(stripe.CheckoutSessionModePayment)),
		ClientReferenceID: stripe.String(co.OrderID),
		SuccessURL:        stripe.String(co.SuccessURL),
		CancelURL:         stripe.String(co.CancelURL),
		LineItems: []*stripe.CheckoutSessionCreateLineItemParams{{
			Quantity: stripe.Int64(1),
			PriceData: &stripe.CheckoutSessionCreateLineItemPriceDataParams{
				Currency:    stripe.String(strings.ToLower(co.Currency)),
				UnitAmount:  stripe.Int64(co.TotalPaise),
				ProductData: &stripe.CheckoutSessionCreateLineItemPriceDataProductDataParams{Name: stripe.String(co.Description + " (incl. GST)")},
			},
		}},
		Metadata: map[string]string{"order_id": co.OrderID},
	}
	if co.Email != "" {
		params.CustomerEmail = stripe.String(co.Email)
	}
	// The order id as idempotency key would return the first session again
	// after it expired; a new session per attempt is what Stripe expects.
	s, err := p.client.V1CheckoutSessions.Create(ctx, params)
	if err != nil {
		return billing.Session{}, fmt.Errorf("stripe: create checkout session: %w", err)
	}
	if s.URL == "" {
		return billing.Session{}, errors.New("stripe: checkout session without a URL")
	}
	return billing.Session{ID: s.ID, URL: s.URL}, nil
}

// ParseEvent implements billing.EventParser: the Stripe-Signature header is
// checked with the endpoint's secret (5-minute tolerance). The event's API
// version may differ from the SDK's: only a few stable fields are read.
func (p *Provider) ParseEvent(payload []byte, signature string) (billing.Event, error) {
	e, err := webhook.ConstructEventWithOptions(payload, signature, p.webhookSecret, webhook.ConstructEventOptions{IgnoreAPIVersionMismatch: true})
	if err != nil {
		if errors.Is(err, webhook.ErrNotSigned) || errors.Is(err, webhook.ErrInvalidHeader) || errors.Is(err, webhook.ErrNoValidSignature) || errors.Is(err, webhook.ErrTooOld) {
			return billing.Event{}, fmt.Errorf("%w: %v", billing.ErrBadSignature, err)
		}
		return billing.Event{}, err
	}
	ev := billing.Event{ID: e.ID, Type: string(e.Type)}
	switch e.Type {
	case "checkout.session.completed", "checkout.session.async_payment_succeeded", "checkout.session.async_payment_failed", "checkout.session.expired":
		var s stripe.CheckoutSession
		if e.Data == nil || json.Unmarshal(e.Data.Raw, &s) != nil {
			return billing.Event{}, errors.New("stripe: event without a checkout session")
		}
		ev.SessionID = s.ID
		ev.OrderID = s.Metadata["order_id"]
		if ev.OrderID == "" {
			ev.OrderID = s.ClientReferenceID
		}
		ev.TotalPaise = s.AmountTotal
		ev.Currency = string(s.Currency)
		// completed with payment_status paid, or a delayed method that succeeded.
		ev.Paid = (e.Type == "checkout.session.completed" && s.PaymentStatus == stripe.CheckoutSessionPaymentStatusPaid) ||
			e.Type == "checkout.session.async_payment_succeeded"
	}
	return ev, nil
}
