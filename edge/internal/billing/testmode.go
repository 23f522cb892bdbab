package billing

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"omnibus/edge/internal/accounts"
	"omnibus/edge/internal/exchange"
	"omnibus/edge/internal/httpx/response"
)

// TestMode stands in for the payment provider while the site runs in
// development (`make run`): its "hosted page" is the site's own /test-payment,
// clearly labelled, where one button confirms the payment through the same
// confirm() a provider's webhook uses. Never on in production unless
// PAYMENTS_TEST_MODE=1 asks for it (internal/config).
type TestMode struct {
	// PublicURL is the site's origin (the page's address).
	PublicURL string
}

// Name implements Provider.
func (t *TestMode) Name() string { return "testmode" }

// CreateCheckout implements Provider: a session id and the test-mode page.
func (t *TestMode) CreateCheckout(_ context.Context, co Checkout) (Session, error) {
	b := make([]byte, 18)
	rand.Read(b)
	id := "tm_" + base64.RawURLEncoding.EncodeToString(b)
	return Session{ID: id, URL: strings.TrimRight(t.PublicURL, "/") + "/test-payment?session=" + id}, nil
}

// testOrder is the signed-in owner's order behind a test-mode session.
func (s *Service) testOrder(c echo.Context) (*Order, error) {
	acct, err := s.sessions.Current(c.Response(), c.Request())
	if err != nil || acct == nil {
		return nil, err
	}
	return s.testOrderOf(c.Request().Context(), acct, c.Param("session"))
}

// testOrderOf is acct's order behind the test-mode session ref, or nil.
func (s *Service) testOrderOf(ctx context.Context, acct *accounts.Account, ref string) (*Order, error) {
	if !strings.HasPrefix(ref, "tm_") || len(ref) > 64 {
		return nil, nil
	}
	var o Order
	err := s.db.WithContext(ctx).Where("provider = ? AND provider_ref = ? AND account_id = ?", "testmode", ref, acct.ID).First(&o).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	return &o, err
}

// testModeSession: GET /payments/test-mode/{session} → the order to show on
// /test-payment, with where Pay and Cancel lead (owner only, else 404).
func (s *Service) testModeSession(tm *TestMode) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		o, err := s.testOrder(c)
		if err != nil {
			slog.ErrorContext(c.Request().Context(), "billing: test-mode order", "err", err)
			return response.Error(c, http.StatusServiceUnavailable, Message(codeUnavailable))
		}
		if o == nil {
			return response.Error(c, http.StatusNotFound, Message(codeNotFound))
		}
		ref := c.Param("session")
		return response.OK(c, map[string]any{"data": testPaymentJSON{Order: s.orderView(o), Session: ref, CancelURL: s.cancelPath(o), SuccessURL: s.successPath(o)}})
	}
}

// testModePay: POST /payments/test-mode/{session}/pay confirms the payment
// as the provider would (an event with its own id, so pressing Pay twice
// changes nothing twice) and answers 303 to the success page, or JSON.
func (s *Service) testModePay(tm *TestMode) echo.HandlerFunc {
	return func(c echo.Context) error {
		o, err := s.testOrder(c)
		if err != nil {
			slog.ErrorContext(c.Request().Context(), "billing: test-mode order", "err", err)
			return response.Error(c, http.StatusServiceUnavailable, Message(codeUnavailable))
		}
		if o == nil {
			return response.Error(c, http.StatusNotFound, Message(codeNotFound))
		}
		ref := c.Param("session")
		ev := Event{ID: "evt_" + ref, Type: "checkout.session.completed", OrderID: o.ID, SessionID: ref, Paid: true, TotalPaise: o.TotalPaise, Currency: o.Currency}
		outcome, err := s.confirm(c.Request().Context(), tm.Name(), ev, []byte(`{"testMode":true,"session":"`+ref+`"}`))
		if err != nil {
			slog.ErrorContext(c.Request().Context(), "billing: test-mode payment", "err", err)
			return response.Error(c, http.StatusServiceUnavailable, Message(codeUnavailable))
		}
		return exchange.Done(c, http.StatusOK, map[string]any{"data": map[string]any{"outcome": outcome, "redirectTo": s.successPath(o)}}, s.successPath(o))
	}
}
