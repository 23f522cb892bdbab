package billing_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"omnibus/edge/internal/billing"
	"omnibus/edge/internal/browsertest"
	"omnibus/edge/internal/config"
	"omnibus/edge/internal/edgetest"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/storage"
)

// site is a whole edge (edgetest) with accounts and billing on the test's
// database and payment provider.
type site struct {
	t    *testing.T
	edge *edgetest.Edge
	bill *billing.Service
}

func newSite(t *testing.T, db *storage.DB, provider func(publicURL string) billing.Provider, merchantAppURL string) *site {
	t.Helper()
	return newSiteWith(t, db, provider, func(c *config.Config) {
		if merchantAppURL != "" {
			c.MerchantAppURL = merchantAppURL
		}
	})
}

// newSiteWith is the production wiring (internal/app) with these settings;
// provider, when not nil, replaces the provider the settings chose (nil
// keeps it; offProvider turns payments off).
func newSiteWith(t *testing.T, db *storage.DB, provider func(publicURL string) billing.Provider, edit func(*config.Config)) *site {
	t.Helper()
	st := &site{t: t}
	st.edge = edgetest.Start(t, edgetest.Options{DB: db, Payments: provider, Config: func(c *config.Config) {
		c.AdminConsoleURL = "https://admin.test"
		if edit != nil {
			edit(c)
		}
	}, Setup: func(e *edgetest.Edge) {
		e.App.Accounts.RegisterByIP = ratelimit.New(1000, time.Millisecond)
	}})
	st.bill = st.edge.App.Billing
	return st
}

// stripeSettings configures the edge for Stripe at apiURL (stripe-mock).
func stripeSettings(apiURL string) func(*config.Config) {
	return func(c *config.Config) {
		c.StripeSecretKey, c.StripeWebhookSecret, c.StripeAPIURL = "sk_test_123", whsec, apiURL
	}
}

// browser is a client with its own cookies that does not follow redirects.
func browser() *http.Client { return browsertest.Browser() }

type answer struct {
	status int
	header http.Header
	body   string
	json   map[string]any
}

func (a answer) data() map[string]any { d, _ := a.json["data"].(map[string]any); return d }
func (a answer) errorDetail() string  { s, _ := a.json["errorDetail"].(string); return s }
func (a answer) order() map[string]any {
	o, _ := a.data()["order"].(map[string]any)
	return o
}

// do sends one request as a browser on the site would (browsertest.Do).
func (st *site) do(c *http.Client, method, path string, body any, headers ...string) answer {
	st.t.Helper()
	res, raw := browsertest.Do(st.t, c, st.edge.URL, method, path, body, headers...)
	a := answer{status: res.StatusCode, header: res.Header, body: string(raw)}
	json.Unmarshal(raw, &a.json)
	return a
}

var seq int

// merchant registers a new merchant and returns its browser.
func (st *site) merchant() (*http.Client, string) {
	st.t.Helper()
	seq++
	c := browser()
	email := "m" + time.Now().Format("150405.000000") + "-" + string(rune('a'+seq%26)) + "@example.com"
	store := "store " + strings.NewReplacer(".", "", "-", "").Replace(email[:strings.IndexByte(email, '@')])
	a := st.do(c, http.MethodPost, "/api/v1/oaccount/register", map[string]string{
		"name": "Mira", "email": email, "password": "correct horse battery", "storeName": store,
	})
	if a.status != http.StatusCreated {
		st.t.Fatalf("register: %d %s", a.status, a.body)
	}
	return c, email
}

func (st *site) status(c *http.Client) string {
	st.t.Helper()
	a := st.do(c, http.MethodGet, "/api/v1/oaccount/isloggedin", nil)
	s, _ := a.data()["omnicustomerStatus"].(string)
	return s
}

// count is the number of rows of table matching where.
func count(t *testing.T, db *storage.DB, table, where string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := db.Table(table).Where(where, args...).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

func orderStatus(t *testing.T, db *storage.DB, id string) string {
	t.Helper()
	var s string
	if err := db.Table("license_orders").Select("status").Where("id = ?", id).Scan(&s).Error; err != nil {
		t.Fatal(err)
	}
	return s
}

// testMode keeps the provider development gets by itself: the test-mode page.
var testMode func(string) billing.Provider

// offProvider turns payments off, as production without a provider.
func offProvider(string) billing.Provider { return nil }
