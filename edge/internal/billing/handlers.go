package billing

import (
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/accounts"
	"omnibus/edge/internal/exchange"
	"omnibus/edge/internal/httpx/response"
)

// The merchant's requests: each reads its request and answers through
// internal/exchange; what an order is and costs is orders.go's.

// signedIn is the request's account, or an answer already written.
func (s *Service) signedIn(c echo.Context, page string) (*accounts.Account, error) {
	acct, err := s.sessions.Current(c.Response(), c.Request())
	if err != nil {
		slog.ErrorContext(c.Request().Context(), "billing: session lookup", "err", err)
		return nil, refuse(c, page, http.StatusServiceUnavailable, codeUnavailable)
	}
	if acct == nil {
		return nil, refuse(c, page, http.StatusUnauthorized, codeSignIn)
	}
	return acct, nil
}

// begin reads a merchant's order request: the signed-in account and the
// body's fields, or (account nil) the answer already written — sign in
// first, or the body refused — JSON, or for a form post 303 back to page.
func (s *Service) begin(c echo.Context, page string, want exchange.Fields) (*accounts.Account, map[string]string, error) {
	acct, err := s.signedIn(c, page)
	if acct == nil {
		return nil, nil, err
	}
	f, p := vocabulary.Decode(c, want)
	if p != nil {
		return nil, nil, vocabulary.Refuse(c, p, exchange.Form{Back: page})
	}
	return acct, f, nil
}

// initialise: POST /licenses/initialiseLicenses {planId}. Makes the signed-in
// merchant's licence order for a plan of plans.json and moves the status to
// pending_initial_license_payment (a free plan: straight to active). 201
// {"data": {"order", "omnicustomerStatus", "redirectTo"}}; a form post 303s
// to the payment page. Refused: not signed in 401, unknown plan 400, a plan
// priced on request 400, an account already active 409.
func (s *Service) initialise(c echo.Context) error {
	const page = "/choose-plan"
	acct, f, err := s.begin(c, page, exchange.Fields{"planId": exchange.Text})
	if acct == nil {
		return err
	}
	plan, found := s.cat.Plan(strings.TrimSpace(f["planId"]))
	switch {
	case !found:
		return refuse(c, page, http.StatusBadRequest, codeUnknownPlan)
	case plan.MonthlyPaise == nil:
		return refuse(c, page, http.StatusBadRequest, codePlanOnRequest)
	case acct.Status != StatusAccountCreated && acct.Status != StatusPendingPayment:
		return refuse(c, page, http.StatusConflict, codeAlreadyActive)
	}
	o, status, err := s.placePlanOrder(c.Request().Context(), acct, plan)
	if err != nil {
		slog.ErrorContext(c.Request().Context(), "billing: initialise", "err", err)
		return refuse(c, page, http.StatusServiceUnavailable, codeUnavailable)
	}
	next := paymentPath(o)
	if o.Status == OrderPaid {
		next = "/landing-page"
	}
	return exchange.Done(c, http.StatusCreated, map[string]any{"data": map[string]any{"order": s.orderView(o), "omnicustomerStatus": status, "redirectTo": next}}, next)
}

// purchasePetPawlor: POST /petpawlor/license/purchase {quantity} (locations,
// 1 to the add-on's maxQuantity; default 1). 201 with the order; a form post
// 303s to its payment page.
func (s *Service) purchasePetPawlor(c echo.Context) error {
	const page = "/petpawlor"
	acct, f, err := s.begin(c, page, exchange.Fields{"quantity": exchange.Number})
	if acct == nil {
		return err
	}
	addon, found := s.cat.Addon(ProductPetPawlor)
	if !found {
		return refuse(c, page, http.StatusServiceUnavailable, codeUnavailable)
	}
	qty := int64(1)
	if q := strings.TrimSpace(f["quantity"]); q != "" {
		n, err := strconv.ParseInt(q, 10, 64)
		if err != nil || n < 1 || n > addon.MaxQuantity {
			return refuse(c, page, http.StatusBadRequest, codeBadQuantity)
		}
		qty = n
	}
	o, err := s.placeAddonOrder(c.Request().Context(), acct, addon, qty)
	if err != nil {
		slog.ErrorContext(c.Request().Context(), "billing: petpawlor order", "err", err)
		return refuse(c, page, http.StatusServiceUnavailable, codeUnavailable)
	}
	return exchange.Done(c, http.StatusCreated, map[string]any{"data": map[string]any{"order": s.orderView(o), "redirectTo": paymentPath(o)}}, paymentPath(o))
}

// showPaymentPage: GET .../payment/show-payment-page/{id}. The owner of a
// pending order is sent (303) to the provider's hosted page; anyone else,
// signed in or not, gets 404 (whether the order exists is not told). A paid
// order is not paid twice: 409, or for a browser 303 to the order's page.
func (s *Service) showPaymentPage(product string) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		ctx := c.Request().Context()
		acct, err := s.sessions.Current(c.Response(), c.Request())
		if err != nil {
			slog.ErrorContext(ctx, "billing: session lookup", "err", err)
			return response.Error(c, http.StatusServiceUnavailable, Message(codeUnavailable))
		}
		o, err := s.ownOrder(ctx, acct, c.Param("id"), product)
		if err != nil {
			slog.ErrorContext(ctx, "billing: order lookup", "err", err)
			return response.Error(c, http.StatusServiceUnavailable, Message(codeUnavailable))
		}
		if o == nil {
			return response.Error(c, http.StatusNotFound, Message(codeNotFound))
		}
		if o.Status == OrderPaid {
			if strings.Contains(c.Request().Header.Get("Accept"), "text/html") {
				return c.Redirect(http.StatusSeeOther, s.successPath(o))
			}
			return response.Error(c, http.StatusConflict, Message(codeAlreadyPaid))
		}
		if s.opt.Provider == nil {
			return response.Error(c, http.StatusServiceUnavailable, Message(codePaymentsOff))
		}
		sess, err := s.opt.Provider.CreateCheckout(ctx, Checkout{
			OrderID: o.ID, Description: s.orderView(o).Name, TotalPaise: o.TotalPaise, Currency: o.Currency, Email: acct.Email,
			SuccessURL: s.absolute(s.successPath(o)), CancelURL: s.absolute(s.cancelPath(o)),
		})
		if err != nil {
			slog.ErrorContext(ctx, "billing: checkout", "provider", s.providerName(), "order", o.ID, "err", err)
			return response.Error(c, http.StatusBadGateway, Message(codeProviderFailed))
		}
		err = s.db.WithContext(ctx).Model(&Order{}).Where("id = ?", o.ID).
			Updates(map[string]any{"provider": s.providerName(), "provider_ref": sess.ID, "updated_at": s.now()}).Error
		if err != nil {
			slog.ErrorContext(ctx, "billing: order provider ref", "err", err)
			return response.Error(c, http.StatusServiceUnavailable, Message(codeUnavailable))
		}
		return c.Redirect(http.StatusSeeOther, sess.URL)
	}
}

// current: GET /licenses/current → the signed-in merchant's store, status
// and orders (newest first, at most 20), for API clients (the site's own
// pages get the same overview from PageData). 401 when signed out.
func (s *Service) current(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	c.Response().Header().Add("Vary", "Cookie")
	acct, err := s.sessions.Current(c.Response(), c.Request())
	if err != nil {
		slog.ErrorContext(c.Request().Context(), "billing: session lookup", "err", err)
		return response.Error(c, http.StatusServiceUnavailable, Message(codeUnavailable))
	}
	if acct == nil {
		return response.Error(c, http.StatusUnauthorized, Message(codeSignIn))
	}
	v, orders, err := s.overviewWithOrders(c.Request().Context(), acct)
	if err != nil {
		slog.ErrorContext(c.Request().Context(), "billing: orders", "err", err)
		return response.Error(c, http.StatusServiceUnavailable, Message(codeUnavailable))
	}
	return response.OK(c, map[string]any{"data": struct {
		overviewJSON
		Orders []orderJSON `json:"orders"`
	}{v, orders}})
}

// orderStatus: GET /licenses/orders/{id} → one order of the signed-in
// merchant (404 for anyone else).
func (s *Service) orderStatus(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	acct, err := s.sessions.Current(c.Response(), c.Request())
	if err != nil {
		return response.Error(c, http.StatusServiceUnavailable, Message(codeUnavailable))
	}
	o, err := s.ownOrder(c.Request().Context(), acct, c.Param("id"), "")
	if err != nil {
		slog.ErrorContext(c.Request().Context(), "billing: order lookup", "err", err)
		return response.Error(c, http.StatusServiceUnavailable, Message(codeUnavailable))
	}
	if o == nil {
		return response.Error(c, http.StatusNotFound, Message(codeNotFound))
	}
	return response.OK(c, map[string]any{"data": s.orderView(o)})
}
