package billing

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"omnibus/edge/internal/httpx/response"
	"omnibus/edge/internal/storage"
)

// Outcomes of a confirmation, stored with its event.
const (
	OutcomeApplied        = "applied"
	OutcomeAlreadyPaid    = "already_paid"
	OutcomeIgnored        = "ignored"
	OutcomeUnknownOrder   = "unknown_order"
	OutcomeAmountMismatch = "amount_mismatch"
	OutcomeDuplicate      = "duplicate"
)

// crash is a fault-injection point for tests (a real child process exits
// there): "received" after the event is verified and before anything is
// written, "committed" after the commit and before the answer. A no-op in
// the edge.
var crash = func(stage string) {}

// confirm records a provider event and applies it, in one transaction: the
// event row (unique per provider and event id: a replay is OutcomeDuplicate
// and changes nothing), then a paid event marks its pending order paid and,
// for a plan, moves the account to active. An event that arrives after the
// order is paid (a reordered or second event for it) is stored and changes
// nothing. Only a committed confirmation is acknowledged: an error here
// makes the provider retry.
func (s *Service) confirm(ctx context.Context, provider string, ev Event, payload []byte) (string, error) {
	outcome := ""
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		now := s.now()
		rec := PaymentEvent{Provider: provider, EventID: ev.ID, Type: ev.Type, OrderID: ev.OrderID, Payload: string(payload), ReceivedAt: now}
		if err := tx.Create(&rec).Error; err != nil {
			if storage.IsUniqueViolation(err) {
				outcome = OutcomeDuplicate
				return errDuplicate
			}
			return err
		}
		var err error
		if outcome, err = s.apply(ctx, tx, ev); err != nil {
			return err
		}
		return tx.Model(&PaymentEvent{}).Where("id = ?", rec.ID).Update("outcome", outcome).Error
	})
	if errors.Is(err, errDuplicate) {
		return OutcomeDuplicate, nil
	}
	return outcome, err
}

var errDuplicate = errors.New("billing: event already received")

func (s *Service) apply(ctx context.Context, tx *gorm.DB, ev Event) (string, error) {
	if !ev.Paid {
		return OutcomeIgnored, nil
	}
	var o Order
	err := tx.Where("id = ?", ev.OrderID).First(&o).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		slog.ErrorContext(ctx, "billing: payment for an unknown order", "order", ev.OrderID, "event", ev.ID)
		return OutcomeUnknownOrder, nil
	}
	if err != nil {
		return "", err
	}
	if ev.TotalPaise != o.TotalPaise || (ev.Currency != "" && !strings.EqualFold(ev.Currency, o.Currency)) {
		slog.ErrorContext(ctx, "billing: paid amount differs from the order; left pending for a person to look at",
			"order", o.ID, "event", ev.ID, "paid", ev.TotalPaise, "currency", ev.Currency, "due", o.TotalPaise)
		return OutcomeAmountMismatch, nil
	}
	now := s.now()
	upd := map[string]any{"status": OrderPaid, "paid_at": now, "updated_at": now}
	if ev.SessionID != "" {
		upd["provider_ref"] = ev.SessionID
	}
	res := tx.Model(&Order{}).Where("id = ? AND status = ?", o.ID, OrderPending).Updates(upd)
	if res.Error != nil {
		return "", res.Error
	}
	if res.RowsAffected == 0 {
		return OutcomeAlreadyPaid, nil
	}
	if o.Product == ProductPlan {
		if _, err := moveStatus(tx, o.AccountID, StatusActive, "payment confirmed", o.ID, now); err != nil {
			return "", err
		}
	}
	return OutcomeApplied, nil
}

// webhook: POST /payments/stripe/webhook, the provider's signed events. 400
// for a bad signature (never stored); 200 once the event is committed (or
// was already); 503 when storage fails, so the provider retries.
func (s *Service) webhook(c echo.Context) error {
	parser := s.opt.Provider.(EventParser)
	payload, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return response.Error(c, http.StatusBadRequest, Message(codeMalformed))
	}
	ev, err := parser.ParseEvent(payload, c.Request().Header.Get("Stripe-Signature"))
	if err != nil {
		slog.WarnContext(c.Request().Context(), "billing: webhook refused", "err", err)
		if errors.Is(err, ErrBadSignature) {
			return response.Error(c, http.StatusBadRequest, Message(codeBadSignature))
		}
		return response.Error(c, http.StatusBadRequest, Message(codeMalformed))
	}
	crash("received")
	outcome, err := s.confirm(c.Request().Context(), s.opt.Provider.Name(), ev, payload)
	if err != nil {
		slog.ErrorContext(c.Request().Context(), "billing: webhook not stored; the provider will retry", "event", ev.ID, "err", err)
		return response.Error(c, http.StatusServiceUnavailable, Message(codeUnavailable))
	}
	crash("committed")
	slog.InfoContext(c.Request().Context(), "billing: webhook", "event", ev.ID, "type", ev.Type, "order", ev.OrderID, "outcome", outcome)
	return response.OK(c, map[string]any{"received": true, "outcome": outcome})
}
