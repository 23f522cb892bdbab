package billing

import (
	"context"
	"errors"
)

// Provider takes payments on its own hosted page.
type Provider interface {
	// Name is stored with each order and event ("stripe", "testmode").
	Name() string
	// CreateCheckout opens a hosted payment page for one order.
	CreateCheckout(ctx context.Context, co Checkout) (Session, error)
}

// EventParser is a provider whose confirmations arrive as signed webhooks.
type EventParser interface {
	// ParseEvent verifies the signature header and reads the event.
	ParseEvent(payload []byte, signature string) (Event, error)
}

// Checkout is what the provider is asked to collect.
type Checkout struct {
	OrderID     string
	Description string
	TotalPaise  int64
	Currency    string // "INR"
	Email       string
	SuccessURL  string
	CancelURL   string
}

// Session is an open hosted payment page.
type Session struct {
	ID  string
	URL string
}

// Event is a provider's word about a payment.
type Event struct {
	ID         string
	Type       string
	OrderID    string
	SessionID  string
	Paid       bool
	TotalPaise int64
	Currency   string
}

// ErrBadSignature is returned by ParseEvent for an unsigned or forged event.
var ErrBadSignature = errors.New("billing: bad event signature")

func (s *Service) providerName() string {
	if s.opt.Provider == nil {
		return ""
	}
	return s.opt.Provider.Name()
}
