// Package config reads the edge's settings from the environment. Every
// variable the edge understands is one row of the table in settings.go —
// name, type, default, meaning, secret or not — and that table alone drives
// loading, the start-up configuration log and docs/configuration.md
// (`go generate ./internal/config`; a test fails when the committed file
// differs). A value that does not parse is an error, never a silent
// default: Load reports every bad variable at once and the edge refuses to
// start.
//
// The edge runs in production unless OMNIBUS_ENV=development says
// otherwise; in production it also refuses every development stand-in and
// placeholder secret (production.go).
//
//go:generate go run ./configdoc ../../../docs/configuration.md
package config

import (
	"log/slog"
	"os"
	"strings"
	"time"

	"omnibus/edge/internal/httpx/request"
)

// Config is the edge's whole configuration. Each field is the variable
// named beside it; what it means, its form and its default are in the
// settings table (settings.go).
type Config struct {
	Env                  string          // OMNIBUS_ENV: "production" or "development"
	Addr                 string          // LISTEN_ADDR
	DatabaseURL          string          // DATABASE_URL; empty: SQLite under DataDir
	DatabaseDirectURL    string          // DATABASE_DIRECT_URL; empty: DatabaseURL
	DataDir              string          // DATA_DIR
	RendererURL          string          // RENDERER_URL; empty: the edge runs the renderer
	RendererPort         int             // RENDERER_PORT
	SSRDir               string          // SSR_DIR
	PublicURL            string          // PUBLIC_URL, without a trailing slash
	ShutdownTimeout      time.Duration   // SHUTDOWN_TIMEOUT
	DrainPeriod          time.Duration   // DRAIN_PERIOD
	PIDFile              string          // PID_FILE
	RendererTimeout      time.Duration   // RENDERER_TIMEOUT
	RendererDev          bool            // RENDERER_DEV
	RendererStartTimeout time.Duration   // RENDERER_START_TIMEOUT
	CacheMaxBytes        int64           // CACHE_MAX_BYTES; 0: no page cache
	CachePurgeToken      string          // CACHE_PURGE_TOKEN; empty: no purge over HTTP
	CacheWarm            bool            // CACHE_WARM: warm the page cache at start and after purges
	PublishWait          time.Duration   // PUBLISH_WAIT: how long a publish's answer waits for every edge to warm its pages
	SMTPURL              string          // SMTP_URL; empty: mail stays in mail_outbox
	MailFrom             string          // MAIL_FROM
	ContactNotifyEmail   string          // CONTACT_NOTIFY_EMAIL
	GoogleClientID       string          // GOOGLE_CLIENT_ID; empty: no Google sign-in
	GoogleClientSecret   string          // GOOGLE_CLIENT_SECRET
	GoogleIssuerURL      string          // GOOGLE_ISSUER_URL
	MerchantAppURL       string          // MERCHANT_APP_URL
	SessionTTL           time.Duration   // SESSION_TTL
	StaffSessionTTL      time.Duration   // STAFF_SESSION_TTL
	StaffRecheckWindow   time.Duration   // STAFF_RECHECK_WINDOW
	StaffEnrolWindow     time.Duration   // STAFF_ENROL_WINDOW
	StripeSecretKey      string          // STRIPE_SECRET_KEY
	StripeWebhookSecret  string          // STRIPE_WEBHOOK_SECRET
	StripeAPIURL         string          // STRIPE_API_URL; empty: Stripe's own
	PaymentsTestMode     bool            // PAYMENTS_TEST_MODE
	AdminConsoleURL      string          // ADMIN_CONSOLE_URL
	LogFormat            string          // LOG_FORMAT: "text" or "json"
	LogLevel             slog.Level      // LOG_LEVEL
	TrustedProxies       request.Proxies // TRUSTED_PROXIES
	MaxConnections       int             // MAX_CONNECTIONS
	MaxConnsPerClient    int             // MAX_CONNECTIONS_PER_CLIENT
	RateLimitMaxKeys     int             // RATE_LIMIT_MAX_KEYS
	RateLimitIPv6Prefix  int             // RATE_LIMIT_IPV6_PREFIX
	DBMaxOpenConns       int             // DB_MAX_OPEN_CONNS
	DBPoolWait           time.Duration   // DB_POOL_WAIT
	MetricsAddr          string          // METRICS_ADDR; empty: no metrics
	RendererMetricsPort  int             // RENDERER_METRICS_PORT
	RendererMetricsURL   string          // RENDERER_METRICS_URL
	CDNPurgeURLs         string          // CDN_PURGE_URLS, comma-separated (CDNPurgeList)
}

// CDNPurgeList is CDN_PURGE_URLS, one URL each.
func (c Config) CDNPurgeList() []string {
	var urls []string
	for _, u := range strings.Split(c.CDNPurgeURLs, ",") {
		if u = strings.TrimSpace(u); u != "" {
			urls = append(urls, u)
		}
	}
	return urls
}

// The two values of OMNIBUS_ENV.
const (
	Production  = "production"
	Development = "development"
)

// Payment modes (Config.PaymentMode).
const (
	PaymentsStripe   = "stripe"
	PaymentsTestMode = "testmode"
	PaymentsOff      = "off"
)

// Development reports OMNIBUS_ENV=development: `make run`, `make dev` and
// the tests say so explicitly. Anything else is production.
func (c Config) Development() bool { return c.Env == Development }

// PaymentMode is who takes payments: Stripe when its key is set; the
// test-mode page when asked for (PAYMENTS_TEST_MODE=1, which production
// refuses) or in development without a key; otherwise off (the edge logs
// that as an error at start and the payment pages answer 503).
func (c Config) PaymentMode() string {
	switch {
	case c.StripeSecretKey != "":
		return PaymentsStripe
	case c.PaymentsTestMode || c.Development():
		return PaymentsTestMode
	}
	return PaymentsOff
}

// Secure reports whether the site is served over https (PUBLIC_URL).
func (c Config) Secure() bool { return strings.HasPrefix(c.PublicURL, "https://") }

// Load reads the process environment for serving: every variable checked,
// and in production every development stand-in and placeholder refused. The
// error lists every problem, one per line, never showing a secret.
func Load() (Config, error) { return LoadFrom(os.LookupEnv) }

// LoadFrom is Load reading the variables through lookup (a map in tests).
func LoadFrom(lookup func(string) (string, bool)) (Config, error) {
	return readEnv(lookup, true)
}

// LoadForCommand reads the environment for the edge's one-shot commands
// (migrate, healthcheck, purge, mail): every variable is parsed and checked
// as for serving, but production's refusals, which guard what visitors
// get, do not apply (the migrate step has the database URL and nothing
// else, for instance).
func LoadForCommand() (Config, error) { return readEnv(os.LookupEnv, false) }

// DevelopmentDefaults is the configuration of an environment holding only
// OMNIBUS_ENV=development: where tests and tools start from.
func DevelopmentDefaults() Config {
	cfg, err := LoadFrom(func(k string) (string, bool) {
		if k == "OMNIBUS_ENV" {
			return Development, true
		}
		return "", false
	})
	if err != nil {
		panic("config: the development defaults are invalid: " + err.Error())
	}
	return cfg
}

// LogValue is the configuration as logged at start: every setting of the
// table, durations as Go duration strings, secrets never (a set secret is
// "[redacted]"; a URL keeps its host and path, never its user information
// or query).
func (c Config) LogValue() slog.Value {
	attrs := make([]slog.Attr, 0, len(Settings)+1)
	for _, s := range Settings {
		attrs = append(attrs, slog.Attr{Key: s.Name, Value: s.value(c)})
	}
	attrs = append(attrs, slog.String("payments", c.PaymentMode()))
	return slog.GroupValue(attrs...)
}
