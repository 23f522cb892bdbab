package billing

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"omnibus/edge/internal/accounts"
	"omnibus/shared"
)

// The journey headers (shared/http.json): a signed-in merchant's own data,
// sent by the edge to the renderer with the page request it proxies. The
// renderer never asks the edge for anything (decision 0023).
var (
	MerchantHeader = http.CanonicalHeaderKey(shared.HTTP.MerchantHeader)
	OrderHeader    = http.CanonicalHeaderKey(shared.HTTP.OrderHeader)
	PaymentHeader  = http.CanonicalHeaderKey(shared.HTTP.PaymentHeader)
)

// MaxPageDataBytes bounds one journey header's value (base64url of the
// JSON). The overview holds one order and the account's bounded fields
// (about 1 KB), an order about 400 bytes: a value past this is a bug, logged
// and not sent (the page renders as without the data).
const MaxPageDataBytes = 4 << 10

// pageData is what a route's edgeData names (shared/routes.json).
type pageData struct{ merchant, order, payment bool }

// pageDataByPath is the edgeData of every route that names some, by path
// (the route table checked each value).
var pageDataByPath = func() map[string]pageData {
	pages := map[string]pageData{}
	for _, r := range shared.Routes.Routes {
		if len(r.EdgeData) == 0 {
			continue
		}
		pages[r.Path] = pageData{
			merchant: slices.Contains(r.EdgeData, shared.EdgeMerchant),
			order:    slices.Contains(r.EdgeData, shared.EdgeOrder),
			payment:  slices.Contains(r.EdgeData, shared.EdgePayment),
		}
	}
	return pages
}()

// PageData sets the journey headers a page of a signed-in visitor needs, as
// its route's edgeData names them: the merchant's overview, the order
// ?order= names when the visitor owns it, the test-mode payment ?session=
// names when the visitor owns it. It runs inside accounts.Pages (whose
// account it reads) and before the page cache, which never shares a page of
// a route with edgeData with a signed-in visitor (decision 0034). A database error is logged and the page renders
// without the data. Incoming copies never get here (the server's guard).
func (s *Service) PageData(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		acct := accounts.PageAccount(r)
		if acct == nil {
			next.ServeHTTP(w, r)
			return
		}
		d, ok := pageDataByPath[pagePath(r.URL.Path)]
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		ctx := r.Context()
		q := r.URL.Query()
		if d.merchant {
			v, err := s.overview(ctx, acct)
			s.setPageData(r, MerchantHeader, v, err)
		}
		if id := q.Get("order"); d.order && id != "" {
			o, err := s.ownOrder(ctx, acct, id, "")
			if o != nil {
				s.setPageData(r, OrderHeader, s.orderView(o), err)
			} else {
				s.setPageData(r, OrderHeader, nil, err)
			}
		}
		if ref := q.Get("session"); d.payment && ref != "" {
			if v, err := s.testPayment(ctx, acct, ref); v != nil || err != nil {
				s.setPageData(r, PaymentHeader, v, err)
			}
		}
		next.ServeHTTP(w, r)
	})
}

// pagePath is the page a path renders: a React Router data request
// (/choose-plan.data, /_root.data for /) is its page's, as a client-side
// navigation loads the page's data with it.
func pagePath(p string) string {
	if d, ok := strings.CutSuffix(p, ".data"); ok {
		if d == "/_root" {
			return "/"
		}
		p = d
	}
	if p != "/" {
		p = strings.TrimSuffix(p, "/")
	}
	return p
}

// setPageData sets header to base64url(JSON of v); nothing for a nil v, an
// error (logged) or a value past MaxPageDataBytes (logged).
func (s *Service) setPageData(r *http.Request, header string, v any, err error) {
	if err != nil {
		slog.ErrorContext(r.Context(), "billing: page data", "header", header, "err", err)
		return
	}
	if v == nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		slog.ErrorContext(r.Context(), "billing: page data", "header", header, "err", err)
		return
	}
	enc := base64.RawURLEncoding.EncodeToString(b)
	if len(enc) > MaxPageDataBytes {
		slog.ErrorContext(r.Context(), "billing: page data too large, not sent", "header", header, "bytes", len(enc))
		return
	}
	r.Header[header] = []string{enc}
}

// overviewJSON is a merchant's store, status and plan: the merchant header,
// and with the orders, GET /licenses/current.
type overviewJSON struct {
	Name          string `json:"name"`
	StoreName     string `json:"storeName"`
	StoreTitle    string `json:"storeTitle"`
	Email         string `json:"email"`
	EmailVerified bool   `json:"emailVerified"`
	Status        string `json:"omnicustomerStatus"`
	// Plan is the name of the newest paid plan ('' before one is paid).
	Plan string `json:"plan"`
	// PendingPlanOrder is the newest plan order awaiting payment.
	PendingPlanOrder *orderJSON `json:"pendingPlanOrder,omitempty"`
	AdminConsoleURL  string     `json:"adminConsoleUrl"`
	PaymentsTestMode bool       `json:"paymentsTestMode"`
}

// maxOverviewOrders bounds the orders an overview reads and GET
// /licenses/current lists (newest first).
const maxOverviewOrders = 20

// overviewWithOrders is acct's overview and its newest orders.
func (s *Service) overviewWithOrders(ctx context.Context, acct *accounts.Account) (overviewJSON, []orderJSON, error) {
	var orders []Order
	if err := s.db.WithContext(ctx).Where("account_id = ?", acct.ID).Order("created_at DESC").Limit(maxOverviewOrders).Find(&orders).Error; err != nil {
		return overviewJSON{}, nil, err
	}
	v := overviewJSON{Name: acct.Name, StoreTitle: acct.StoreTitle, Email: acct.Email, EmailVerified: acct.EmailVerifiedAt != nil,
		Status: acct.Status, AdminConsoleURL: s.opt.AdminConsoleURL, PaymentsTestMode: s.providerName() == "testmode"}
	if acct.StoreName != nil {
		v.StoreName = *acct.StoreName
	}
	views := make([]orderJSON, 0, len(orders))
	for i := range orders {
		o := s.orderView(&orders[i])
		views = append(views, o)
		if o.Product != ProductPlan {
			continue
		}
		if v.Plan == "" && o.Status == OrderPaid {
			v.Plan = o.Name
		}
		if v.PendingPlanOrder == nil && o.Status == OrderPending {
			v.PendingPlanOrder = &views[len(views)-1]
		}
	}
	return v, views, nil
}

func (s *Service) overview(ctx context.Context, acct *accounts.Account) (*overviewJSON, error) {
	v, _, err := s.overviewWithOrders(ctx, acct)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// testPaymentJSON is the order behind a test-mode session and where the
// page's Pay and Cancel lead.
type testPaymentJSON struct {
	Order      orderJSON `json:"order"`
	Session    string    `json:"session"`
	CancelURL  string    `json:"cancelUrl"`
	SuccessURL string    `json:"successUrl"`
}

// testPayment is acct's test-mode payment ref, or nil (not in test mode,
// not acct's, unknown).
func (s *Service) testPayment(ctx context.Context, acct *accounts.Account, ref string) (*testPaymentJSON, error) {
	if _, ok := s.opt.Provider.(*TestMode); !ok {
		return nil, nil
	}
	o, err := s.testOrderOf(ctx, acct, ref)
	if o == nil || err != nil {
		return nil, err
	}
	return &testPaymentJSON{Order: s.orderView(o), Session: ref, CancelURL: s.cancelPath(o), SuccessURL: s.successPath(o)}, nil
}
