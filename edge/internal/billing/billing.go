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
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/accounts"
	"omnibus/edge/internal/storage"
)

// The package in files: this one wires the service; handlers.go answers the
// merchant's requests, orders.go makes and shows orders, messages.go is the
// words of shared/content/journey.json, provider.go the payment provider's
// interface, confirm.go its confirmations, status.go the onboarding status.

// Sessions is what billing needs from accounts: the signed-in account.
type Sessions interface {
	Current(w http.ResponseWriter, r *http.Request) (*accounts.Account, error)
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
	guard := vocabulary.Guard(s.public.String())
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
