// Package billing is the merchant's journey past sign-up: licence orders for
// a plan (POST /licenses/initialiseLicenses) or PetPawlor licences (POST
// /petpawlor/license/purchase), the way to the payment provider's hosted page
// (GET .../payment/show-payment-page/{id}), the provider's confirmations
// (a signed webhook, or the test-mode page in development), and the
// onboarding status those move (status.go).
//
// The provider sits behind Provider: Stripe Checkout in production
// (billing/stripepay, the official stripe-go SDK), TestMode for `make run`.
// Money is integer paise from shared/content/plans.json. Every order, every
// confirmation received and every status change is a row; a confirmation is
// acknowledged only after it is committed, and applying one twice changes
// nothing twice.
package billing

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"omnibus/edge/internal/accounts"
	"omnibus/edge/internal/http/response"
	"omnibus/edge/internal/storage"
	"omnibus/shared"
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

// Sessions is what billing needs from accounts: the signed-in account and
// the cross-site guard for state-changing requests.
type Sessions interface {
	Current(w http.ResponseWriter, r *http.Request) (*accounts.Account, error)
	Guard(next echo.HandlerFunc) echo.HandlerFunc
}

// Options configure the service.
type Options struct {
	// PublicURL is the site's origin: the base of the provider's return URLs.
	PublicURL string
	// Provider takes payments; nil turns payments off (503, logged at start).
	Provider Provider
	// Catalogue is what can be bought (default: shared/content/plans.json).
	Catalogue *Catalogue
	// AdminConsoleURL is linked from the merchant home.
	AdminConsoleURL string
	// MerchantAppURL: /landing-page is sent there when it is another origin.
	MerchantAppURL string
}

// Service is the billing API.
type Service struct {
	db       *storage.DB
	sessions Sessions
	opt      Options
	cat      *Catalogue
	public   *url.URL
	now      func() time.Time
}

// New returns the service.
func New(db *storage.DB, sessions Sessions, opt Options) *Service {
	pub, err := url.Parse(opt.PublicURL)
	if err != nil || pub.Host == "" {
		pub = &url.URL{Scheme: "http", Host: "localhost:8080"}
	}
	cat := opt.Catalogue
	if cat == nil {
		cat = DefaultCatalogue()
	}
	return &Service{db: db, sessions: sessions, opt: opt, cat: cat, public: pub, now: func() time.Time { return time.Now().UTC() }}
}

// WebhookPath is where the provider posts its events (under /api/v1).
const WebhookPath = "/payments/stripe/webhook"

// maxWebhookBody bounds a provider event (Stripe's are a few KB).
const maxWebhookBody = 64 << 10

// Register adds the endpoints to g, the /api/v1 group. bodyLimit raises the
// group's body cap for the webhook (server.BodyLimit).
func (s *Service) Register(g *echo.Group, bodyLimit func(int64) echo.MiddlewareFunc) {
	guard := s.sessions.Guard
	g.POST("/licenses/initialiseLicenses", s.initialise, guard)
	g.GET("/license/payment/show-payment-page/:id", s.showPaymentPage(ProductPlan))
	g.POST("/petpawlor/license/purchase", s.purchasePetPawlor, guard)
	g.GET("/petpawlor/license/payment/show-payment-page/:id", s.showPaymentPage(ProductPetPawlor))
	g.GET("/licenses/current", s.current)
	g.GET("/licenses/orders/:id", s.orderStatus)
	if _, ok := s.opt.Provider.(EventParser); ok {
		var mw []echo.MiddlewareFunc
		if bodyLimit != nil {
			mw = append(mw, bodyLimit(maxWebhookBody))
		}
		g.POST(WebhookPath, s.webhook, mw...)
	}
	if tm, ok := s.opt.Provider.(*TestMode); ok {
		g.GET("/payments/test-mode/:session", s.testModeSession(tm))
		g.POST("/payments/test-mode/:session/pay", s.testModePay(tm), guard)
	}
}

// Message codes: the keys of messages in shared/content/journey.json.
const (
	codeMalformed      = "malformed"
	codeSignIn         = "signInRequired"
	codeUnknownPlan    = "unknownPlan"
	codePlanOnRequest  = "planOnRequest"
	codeAlreadyActive  = "alreadyActive"
	codeBadQuantity    = "badQuantity"
	codeNotFound       = "notFound"
	codeAlreadyPaid    = "alreadyPaid"
	codePaymentsOff    = "paymentsOff"
	codeProviderFailed = "providerFailed"
	codeBadSignature   = "badSignature"
	codeUnavailable    = "unavailable"
)

var messages = func() map[string]string {
	var c struct {
		Messages map[string]string `json:"messages"`
	}
	if err := json.Unmarshal(shared.JourneyJSON, &c); err != nil {
		panic("billing: shared/content/journey.json: " + err.Error())
	}
	for _, k := range []string{codeMalformed, codeSignIn, codeUnknownPlan, codePlanOnRequest, codeAlreadyActive, codeBadQuantity,
		codeNotFound, codeAlreadyPaid, codePaymentsOff, codeProviderFailed, codeBadSignature, codeUnavailable} {
		if c.Messages[k] == "" {
			panic("billing: shared/content/journey.json has no message " + k)
		}
	}
	return c.Messages
}()

// Message is the words for a code.
func Message(code string) string { return messages[code] }

// refuse answers JSON {"errorDetail"} with status, or for a form post (a
// page without JavaScript) 303 to page?error=code.
func refuse(c echo.Context, page string, status int, code string) error {
	if isForm(c.Request()) {
		return seeOther(c, page+"?error="+code)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return response.Error(c, status, Message(code))
}

func seeOther(c echo.Context, to string) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusSeeOther, to)
}

func isForm(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	return err == nil && mt == echo.MIMEApplicationForm
}

// read takes string fields from a form or a JSON object (numbers as their
// decimal text). The /api group already caps the body.
func read(c echo.Context) (map[string]string, bool) {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return nil, false
	}
	f := map[string]string{}
	if isForm(c.Request()) {
		v, err := url.ParseQuery(string(body))
		if err != nil {
			return nil, false
		}
		for k := range v {
			f[k] = v.Get(k)
		}
		return f, true
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		return f, true
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, false
	}
	for k, v := range raw {
		var str string
		if json.Unmarshal(v, &str) == nil {
			f[k] = str
			continue
		}
		var n json.Number
		if json.Unmarshal(v, &n) == nil {
			f[k] = n.String()
		}
	}
	return f, true
}

// signedIn is the request's account, or an answer already written.
func (s *Service) signedIn(c echo.Context, page string) (*accounts.Account, error) {
	acct, err := s.sessions.Current(c.Response(), c.Request())
	if err != nil {
		slog.ErrorContext(c.Request().Context(), "billing: session lookup", "err", err)
		return nil, refuse(c, page, http.StatusServiceUnavailable, codeUnavailable)
	}
	if acct == nil {
		if isForm(c.Request()) {
			return nil, seeOther(c, page+"?error="+codeSignIn)
		}
		return nil, refuse(c, page, http.StatusUnauthorized, codeSignIn)
	}
	return acct, nil
}

// orderJSON is an order as the API shows it.
type orderJSON struct {
	ID            string `json:"id"`
	Product       string `json:"product"`
	ItemID        string `json:"itemId"`
	Name          string `json:"name"`
	Quantity      int64  `json:"quantity"`
	SubtotalPaise int64  `json:"subtotalPaise"`
	GSTPaise      int64  `json:"gstPaise"`
	TotalPaise    int64  `json:"totalPaise"`
	Currency      string `json:"currency"`
	Status        string `json:"status"`
	PaymentURL    string `json:"paymentUrl,omitempty"`
}

func (s *Service) orderView(o *Order) orderJSON {
	v := orderJSON{ID: o.ID, Product: o.Product, ItemID: o.ItemID, Quantity: o.Quantity, SubtotalPaise: o.SubtotalPaise,
		GSTPaise: o.GSTPaise, TotalPaise: o.TotalPaise, Currency: o.Currency, Status: o.Status}
	if o.Product == ProductPlan {
		p, _ := s.cat.Plan(o.ItemID)
		v.Name = p.Name
	} else {
		a, _ := s.cat.Addon(o.ItemID)
		v.Name = a.Name
	}
	if o.Status == OrderPending {
		v.PaymentURL = paymentPath(o)
	}
	return v
}

func paymentPath(o *Order) string {
	if o.Product == ProductPetPawlor {
		return "/api/v1/petpawlor/license/payment/show-payment-page/" + o.ID
	}
	return "/api/v1/license/payment/show-payment-page/" + o.ID
}

// initialise: POST /licenses/initialiseLicenses {planId}. Makes the signed-in
// merchant's licence order for a plan of plans.json and moves the status to
// pending_initial_license_payment (a free plan: straight to active). 201
// {"data": {"order", "omnicustomerStatus", "redirectTo"}}; a form post 303s
// to the payment page. Refused: not signed in 401, unknown plan 400, a plan
// priced on request 400, an account already active 409.
func (s *Service) initialise(c echo.Context) error {
	const page = "/choose-plan"
	acct, err := s.signedIn(c, page)
	if acct == nil {
		return err
	}
	f, ok := read(c)
	if !ok {
		return refuse(c, page, http.StatusBadRequest, codeMalformed)
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
	ch := s.cat.Price(plan, 1)
	now := s.now()
	o := &Order{ID: uuid.NewString(), AccountID: acct.ID, Product: ProductPlan, ItemID: plan.ID, Quantity: 1,
		SubtotalPaise: ch.SubtotalPaise, GSTPaise: ch.GSTPaise, TotalPaise: ch.TotalPaise, Currency: s.cat.Currency,
		Status: OrderPending, Provider: s.providerName(), CreatedAt: now, UpdatedAt: now}
	status := acct.Status
	err = s.db.WithContext(c.Request().Context()).Transaction(func(tx *gorm.DB) error {
		if ch.TotalPaise == 0 { // a free plan needs no payment
			o.Status, o.Provider, o.PaidAt = OrderPaid, "free", &now
		}
		if err := tx.Create(o).Error; err != nil {
			return err
		}
		to := StatusPendingPayment
		if o.Status == OrderPaid {
			to = StatusActive
		}
		moved, err := moveStatus(tx, acct.ID, to, "initialiseLicenses", o.ID, now)
		if moved {
			status = to
		}
		return err
	})
	if err != nil {
		slog.ErrorContext(c.Request().Context(), "billing: initialise", "err", err)
		return refuse(c, page, http.StatusServiceUnavailable, codeUnavailable)
	}
	next := paymentPath(o)
	if o.Status == OrderPaid {
		next = "/landing-page"
	}
	if isForm(c.Request()) {
		return seeOther(c, next)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, map[string]any{"data": map[string]any{"order": s.orderView(o), "omnicustomerStatus": status, "redirectTo": next}})
}

// purchasePetPawlor: POST /petpawlor/license/purchase {quantity} (locations,
// 1 to the add-on's maxQuantity; default 1). 201 with the order; a form post
// 303s to its payment page.
func (s *Service) purchasePetPawlor(c echo.Context) error {
	const page = "/petpawlor"
	acct, err := s.signedIn(c, page)
	if acct == nil {
		return err
	}
	f, ok := read(c)
	if !ok {
		return refuse(c, page, http.StatusBadRequest, codeMalformed)
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
	ch := s.cat.Price(addon.Item, qty)
	now := s.now()
	o := &Order{ID: uuid.NewString(), AccountID: acct.ID, Product: ProductPetPawlor, ItemID: addon.ID, Quantity: qty,
		SubtotalPaise: ch.SubtotalPaise, GSTPaise: ch.GSTPaise, TotalPaise: ch.TotalPaise, Currency: s.cat.Currency,
		Status: OrderPending, Provider: s.providerName(), CreatedAt: now, UpdatedAt: now}
	if err := s.db.WithContext(c.Request().Context()).Create(o).Error; err != nil {
		slog.ErrorContext(c.Request().Context(), "billing: petpawlor order", "err", err)
		return refuse(c, page, http.StatusServiceUnavailable, codeUnavailable)
	}
	if isForm(c.Request()) {
		return seeOther(c, paymentPath(o))
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, map[string]any{"data": map[string]any{"order": s.orderView(o), "redirectTo": paymentPath(o)}})
}

func (s *Service) providerName() string {
	if s.opt.Provider == nil {
		return ""
	}
	return s.opt.Provider.Name()
}

// ownOrder loads the order id of product owned by acct, or nil.
func (s *Service) ownOrder(ctx context.Context, acct *accounts.Account, id, product string) (*Order, error) {
	if _, err := uuid.Parse(id); err != nil || acct == nil {
		return nil, nil
	}
	var o Order
	q := s.db.WithContext(ctx).Where("id = ? AND account_id = ?", id, acct.ID)
	if product != "" {
		q = q.Where("product = ?", product)
	}
	err := q.First(&o).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	return &o, err
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

// successPath is where the provider returns the buyer after paying.
func (s *Service) successPath(o *Order) string {
	if o.Product == ProductPetPawlor {
		return "/petpawlor-order-complete?order=" + o.ID
	}
	return "/landing-page?order=" + o.ID
}

func (s *Service) cancelPath(o *Order) string {
	if o.Product == ProductPetPawlor {
		return "/petpawlor"
	}
	return "/choose-plan"
}

func (s *Service) absolute(path string) string {
	return s.public.Scheme + "://" + s.public.Host + path
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

// Pages answers /landing-page itself when MERCHANT_APP_URL is another
// origin (302 there); otherwise the site's merchant home renders.
func (s *Service) Pages(next http.Handler) http.Handler {
	target := ""
	if u, err := url.Parse(s.opt.MerchantAppURL); err == nil && u.IsAbs() && u.Host != s.public.Host {
		target = u.String()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if target != "" && strings.TrimSuffix(r.URL.Path, "/") == "/landing-page" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			w.Header().Set("Cache-Control", "no-store")
			http.Redirect(w, r, target, http.StatusFound)
			return
		}
		next.ServeHTTP(w, r)
	})
}
