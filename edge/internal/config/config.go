// Package config reads the edge's settings from the environment. Every
// variable the edge understands is listed here (and in the README), with its
// default and the form it must have, so a newcomer can see the whole surface
// in one file. A value that does not parse is an error, never a silent
// default: Load reports every bad variable at once and the edge refuses to
// start.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"omnibus/edge/internal/http/request"
)

// Config is the edge's whole configuration.
type Config struct {
	// Addr is the public listener (LISTEN_ADDR, default ":8080").
	Addr string
	// DatabaseURL selects PostgreSQL when set (DATABASE_URL, a postgres://
	// URL). Empty means the embedded SQLite file under DataDir.
	DatabaseURL string
	// DataDir holds the SQLite file and other local state (DATA_DIR, default "data").
	DataDir string
	// RendererURL points at an external renderer (RENDERER_URL). Empty means
	// the edge starts the renderer itself as a child process.
	RendererURL string
	// RendererPort is the loopback port of the child renderer (RENDERER_PORT, default 3001).
	RendererPort int
	// SSRDir is the renderer's folder: server.js and build/ (SSR_DIR, default "../ssr").
	SSRDir string
	// PublicURL is the site's canonical origin, used for canonical links,
	// the sitemap, links in e-mail and cookie security (PUBLIC_URL, default
	// "http://localhost:8080"; an http or https origin, no path).
	PublicURL string
	// ShutdownTimeout bounds how long SIGTERM waits for in-flight requests
	// (SHUTDOWN_TIMEOUT, default 15s).
	ShutdownTimeout time.Duration
	// RendererTimeout bounds one proxied page request (RENDERER_TIMEOUT, default 30s).
	RendererTimeout time.Duration
	// RendererDev runs the child renderer as `node server.js --dev` (Vite
	// with hot reload) when set to 1 (RENDERER_DEV; `make dev` sets it).
	RendererDev bool
	// RendererStartTimeout bounds the wait for the child renderer's first
	// answer at start (RENDERER_START_TIMEOUT, default 60s). The edge serves
	// meanwhile; pages answer 503 until the renderer is up.
	RendererStartTimeout time.Duration
	// CacheMaxBytes bounds the page cache's memory: every stored page in
	// identity, gzip and brotli, least recently used out first
	// (CACHE_MAX_BYTES, bytes or with a KiB/MiB/GiB suffix, default 64MiB;
	// 0 turns the cache off).
	CacheMaxBytes int64
	// CachePurgeToken authorises POST /api/v1/admin/cache/purge and
	// `edge purge` (CACHE_PURGE_TOKEN, "Authorization: Bearer <token>", at
	// least 16 characters). Empty turns purging over HTTP off (404).
	CachePurgeToken string

	// SMTPURL sends e-mail (password reset links) through an SMTP server
	// (SMTP_URL, smtp://user:pass@host:587 with STARTTLS when offered,
	// smtps://user:pass@host:465). Empty keeps every message in the
	// mail_outbox table instead.
	SMTPURL string
	// MailFrom is the From of outgoing e-mail (MAIL_FROM, default
	// "Omnibus <no-reply@localhost>").
	MailFrom string
	// ContactNotifyEmail receives a copy of every contact-form message
	// (CONTACT_NOTIFY_EMAIL, default empty: messages are only stored in the
	// contact_messages table).
	ContactNotifyEmail string
	// GoogleClientID turns on Google sign-in (GOOGLE_CLIENT_ID, the OAuth
	// client id; also shown to the browser). Empty hides the Google button.
	GoogleClientID string
	// GoogleClientSecret is that client's secret, for exchanging codes
	// (GOOGLE_CLIENT_SECRET).
	GoogleClientSecret string
	// GoogleIssuerURL is the OpenID Connect issuer whose ID tokens are
	// trusted (GOOGLE_ISSUER_URL, default https://accounts.google.com; a local
	// provider in tests).
	GoogleIssuerURL string
	// MerchantAppURL is where a signed-in merchant past onboarding is sent
	// from /login and /register (MERCHANT_APP_URL, default /landing-page; a
	// path on this site or an absolute http(s) URL).
	MerchantAppURL string
	// SessionTTL ends a session after this long without activity
	// (SESSION_TTL, a Go duration, default 168h = 7 days).
	SessionTTL time.Duration

	// MetricsAddr is the Prometheus listener, /metrics only, apart from the
	// public port (METRICS_ADDR, e.g. 127.0.0.1:9090; empty: no metrics).
	MetricsAddr string
	// RendererMetricsPort is the child renderer's loopback metrics port,
	// scraped through METRICS_ADDR (RENDERER_METRICS_PORT, default
	// RENDERER_PORT+1; only used when MetricsAddr is set).
	RendererMetricsPort int
	// RendererMetricsURL is an external renderer's metrics URL
	// (RENDERER_METRICS_URL, with RENDERER_URL; empty: not scraped).
	RendererMetricsURL string

	// LogFormat is the log's shape (LOG_FORMAT: text or json, default text).
	LogFormat string
	// LogLevel is the least severe level logged (LOG_LEVEL: debug, info,
	// warn or error, default info).
	LogLevel slog.Level

	// TrustedProxies are the reverse proxies whose X-Forwarded-For, -Proto
	// and -Host are believed, besides loopback (TRUSTED_PROXIES,
	// comma-separated CIDRs or addresses; default none).
	TrustedProxies request.Proxies
	// MaxConnections caps the edge's open client connections
	// (MAX_CONNECTIONS, default 4096); more wait to be accepted.
	MaxConnections int
	// RateLimitMaxKeys is the ceiling of clients and accounts each rate
	// limit keeps in memory (RATE_LIMIT_MAX_KEYS, default 65536; the least
	// recently seen are forgotten first).
	RateLimitMaxKeys int
	// RateLimitIPv6Prefix is the network an IPv6 client is limited by
	// (RATE_LIMIT_IPV6_PREFIX, 1-128, default 64).
	RateLimitIPv6Prefix int
	// DBMaxOpenConns bounds the database connection pool
	// (DB_MAX_OPEN_CONNS, default 20).
	DBMaxOpenConns int
	// DBPoolWait is how long a request waits for a free database connection
	// before it is answered 503 (DB_POOL_WAIT, default 2s).
	DBPoolWait time.Duration
	// StripeSecretKey turns on payments through Stripe Checkout
	// (STRIPE_SECRET_KEY, sk_live_… or sk_test_…); it needs
	// StripeWebhookSecret too.
	StripeSecretKey string
	// StripeWebhookSecret verifies Stripe's webhook events
	// (STRIPE_WEBHOOK_SECRET, whsec_…, of the endpoint for
	// PUBLIC_URL/api/v1/payments/stripe/webhook).
	StripeWebhookSecret string
	// StripeAPIURL replaces Stripe's API origin (STRIPE_API_URL; stripe-mock
	// in development and tests only). Empty: https://api.stripe.com.
	StripeAPIURL string
	// PaymentsTestMode serves the labelled test-mode payment page instead of
	// a provider (PAYMENTS_TEST_MODE=1). In development (PUBLIC_URL on
	// loopback) without a Stripe key it is on by itself; elsewhere only when
	// asked for.
	PaymentsTestMode bool
	// AdminConsoleURL is the merchant admin console, linked from the
	// merchant home (ADMIN_CONSOLE_URL, default https://admin.omnibus.example).
	AdminConsoleURL string
}

// Payment modes (Config.PaymentMode).
const (
	PaymentsStripe   = "stripe"
	PaymentsTestMode = "testmode"
	PaymentsOff      = "off"
)

// Development reports a site served on loopback (PUBLIC_URL on localhost,
// 127.0.0.1 or [::1]): `make run`, `make dev` and the tests.
func (c Config) Development() bool {
	u, err := url.Parse(c.PublicURL)
	return err == nil && isLoopback(u.Hostname())
}

// PaymentMode is who takes payments: Stripe when its key is set; the
// test-mode page when asked for (PAYMENTS_TEST_MODE=1) or in development
// without a key; otherwise off (the edge logs that as an error at start and
// the payment pages answer 503). Never the test-mode page outside
// development unless asked for.
func (c Config) PaymentMode() string {
	switch {
	case c.StripeSecretKey != "":
		return PaymentsStripe
	case c.PaymentsTestMode || c.Development():
		return PaymentsTestMode
	}
	return PaymentsOff
}

// Load reads the process environment. The error lists every invalid
// variable, one per line, with its value and the form expected.
func Load() (Config, error) { return LoadFrom(os.LookupEnv) }

// Defaults is the configuration of an empty environment.
func Defaults() Config {
	cfg, err := LoadFrom(func(string) (string, bool) { return "", false })
	if err != nil {
		panic("config defaults are invalid: " + err.Error())
	}
	return cfg
}

// LoadFrom reads the variables through lookup (os.LookupEnv in production,
// a map in tests).
func LoadFrom(lookup func(string) (string, bool)) (Config, error) {
	l := &loader{lookup: lookup}
	cfg := Config{
		Addr:                 l.hostPort("LISTEN_ADDR", ":8080"),
		DatabaseURL:          l.postgresURL("DATABASE_URL"),
		DataDir:              l.str("DATA_DIR", "data"),
		RendererURL:          l.httpURL("RENDERER_URL", "", false),
		RendererPort:         l.port("RENDERER_PORT", 3001),
		SSRDir:               l.str("SSR_DIR", filepath.Join("..", "ssr")),
		PublicURL:            l.origin("PUBLIC_URL", "http://localhost:8080"),
		ShutdownTimeout:      l.duration("SHUTDOWN_TIMEOUT", 15*time.Second),
		RendererTimeout:      l.duration("RENDERER_TIMEOUT", 30*time.Second),
		RendererDev:          l.boolean("RENDERER_DEV"),
		RendererStartTimeout: l.duration("RENDERER_START_TIMEOUT", 60*time.Second),
		CacheMaxBytes:        l.bytes("CACHE_MAX_BYTES", 64<<20),
		CachePurgeToken:      l.secret("CACHE_PURGE_TOKEN", 16),
		SMTPURL:              l.smtpURL("SMTP_URL"),
		MailFrom:             l.address("MAIL_FROM", "Omnibus <no-reply@localhost>"),
		ContactNotifyEmail:   l.address("CONTACT_NOTIFY_EMAIL", ""),
		GoogleClientID:       l.str("GOOGLE_CLIENT_ID", ""),
		GoogleClientSecret:   l.str("GOOGLE_CLIENT_SECRET", ""),
		GoogleIssuerURL:      l.httpURL("GOOGLE_ISSUER_URL", "https://accounts.google.com", true),
		MerchantAppURL:       l.pathOrURL("MERCHANT_APP_URL", "/landing-page"),
		SessionTTL:           l.duration("SESSION_TTL", 7*24*time.Hour),
		LogFormat:            l.oneOf("LOG_FORMAT", "text", "text", "json"),
		LogLevel:             l.level("LOG_LEVEL", slog.LevelInfo),
		StripeSecretKey:      l.str("STRIPE_SECRET_KEY", ""),
		StripeWebhookSecret:  l.str("STRIPE_WEBHOOK_SECRET", ""),
		StripeAPIURL:         l.httpURL("STRIPE_API_URL", "", false),
		PaymentsTestMode:     l.boolean("PAYMENTS_TEST_MODE"),
		AdminConsoleURL:      l.httpURL("ADMIN_CONSOLE_URL", "https://admin.omnibus.example", false),
		TrustedProxies:       l.proxies("TRUSTED_PROXIES"),
		MaxConnections:       l.count("MAX_CONNECTIONS", 4096),
		RateLimitMaxKeys:     l.count("RATE_LIMIT_MAX_KEYS", 1<<16),
		RateLimitIPv6Prefix:  l.count("RATE_LIMIT_IPV6_PREFIX", 64),
		DBMaxOpenConns:       l.count("DB_MAX_OPEN_CONNS", 20),
		DBPoolWait:           l.duration("DB_POOL_WAIT", 2*time.Second),
		MetricsAddr:          l.hostPort("METRICS_ADDR", ""),
		RendererMetricsURL:   l.httpURL("RENDERER_METRICS_URL", "", false),
	}
	cfg.RendererMetricsPort = l.port("RENDERER_METRICS_PORT", cfg.RendererPort+1)
	if cfg.MetricsAddr != "" && samePort(cfg.MetricsAddr, cfg.Addr) {
		l.fail("METRICS_ADDR", cfg.MetricsAddr, "a port other than LISTEN_ADDR's: metrics are never served on the public port")
	}
	if cfg.MetricsAddr != "" && cfg.RendererURL == "" && (cfg.RendererMetricsPort == cfg.RendererPort || cfg.RendererMetricsPort > 65535) {
		l.fail("RENDERER_METRICS_PORT", strconv.Itoa(cfg.RendererMetricsPort), "a TCP port other than RENDERER_PORT's")
	}
	if cfg.RateLimitIPv6Prefix > 128 {
		l.fail("RATE_LIMIT_IPV6_PREFIX", strconv.Itoa(cfg.RateLimitIPv6Prefix), "a prefix length from 1 to 128")
	}
	l.payments(cfg)
	if cfg.GoogleClientSecret != "" && cfg.GoogleClientID == "" {
		l.fail("GOOGLE_CLIENT_SECRET", "set", "only together with GOOGLE_CLIENT_ID")
	}
	if len(l.errs) > 0 {
		lines := make([]string, len(l.errs))
		for i, e := range l.errs {
			lines[i] = e.Error()
		}
		return cfg, errors.New("invalid configuration:\n  " + strings.Join(lines, "\n  "))
	}
	return cfg, nil
}

// Secure reports whether the site is served over https (PUBLIC_URL).
func (c Config) Secure() bool { return strings.HasPrefix(c.PublicURL, "https://") }

// LogValue is the configuration as logged at start: every setting, with
// secrets and the passwords inside URLs replaced by "[redacted]".
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("LISTEN_ADDR", c.Addr),
		slog.String("DATABASE_URL", redactURL(c.DatabaseURL)),
		slog.String("DATA_DIR", c.DataDir),
		slog.String("RENDERER_URL", c.RendererURL),
		slog.Int("RENDERER_PORT", c.RendererPort),
		slog.String("SSR_DIR", c.SSRDir),
		slog.String("PUBLIC_URL", c.PublicURL),
		slog.Duration("SHUTDOWN_TIMEOUT", c.ShutdownTimeout),
		slog.Duration("RENDERER_TIMEOUT", c.RendererTimeout),
		slog.Bool("RENDERER_DEV", c.RendererDev),
		slog.Duration("RENDERER_START_TIMEOUT", c.RendererStartTimeout),
		slog.Int64("CACHE_MAX_BYTES", c.CacheMaxBytes),
		slog.String("CACHE_PURGE_TOKEN", redact(c.CachePurgeToken)),
		slog.String("SMTP_URL", redactURL(c.SMTPURL)),
		slog.String("MAIL_FROM", c.MailFrom),
		slog.String("CONTACT_NOTIFY_EMAIL", c.ContactNotifyEmail),
		slog.String("GOOGLE_CLIENT_ID", c.GoogleClientID),
		slog.String("GOOGLE_CLIENT_SECRET", redact(c.GoogleClientSecret)),
		slog.String("GOOGLE_ISSUER_URL", c.GoogleIssuerURL),
		slog.String("MERCHANT_APP_URL", c.MerchantAppURL),
		slog.Duration("SESSION_TTL", c.SessionTTL),
		slog.String("LOG_FORMAT", c.LogFormat),
		slog.String("LOG_LEVEL", c.LogLevel.String()),
		slog.String("STRIPE_SECRET_KEY", redact(c.StripeSecretKey)),
		slog.String("STRIPE_WEBHOOK_SECRET", redact(c.StripeWebhookSecret)),
		slog.String("STRIPE_API_URL", c.StripeAPIURL),
		slog.Bool("PAYMENTS_TEST_MODE", c.PaymentsTestMode),
		slog.String("payments", c.PaymentMode()),
		slog.String("ADMIN_CONSOLE_URL", c.AdminConsoleURL),
		slog.Any("TRUSTED_PROXIES", c.TrustedProxies),
		slog.Int("MAX_CONNECTIONS", c.MaxConnections),
		slog.Int("RATE_LIMIT_MAX_KEYS", c.RateLimitMaxKeys),
		slog.Int("RATE_LIMIT_IPV6_PREFIX", c.RateLimitIPv6Prefix),
		slog.Int("DB_MAX_OPEN_CONNS", c.DBMaxOpenConns),
		slog.Duration("DB_POOL_WAIT", c.DBPoolWait),
		slog.String("METRICS_ADDR", c.MetricsAddr),
		slog.Int("RENDERER_METRICS_PORT", c.RendererMetricsPort),
		slog.String("RENDERER_METRICS_URL", c.RendererMetricsURL),
	)
}

// redact hides a secret, saying only whether it is set.
func redact(s string) string {
	if s == "" {
		return ""
	}
	return "[redacted]"
}

// redactURL keeps a URL's scheme, host and path, and hides its user
// information and query (where passwords and keys live).
func redactURL(s string) string {
	if s == "" {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil {
		return "[redacted]"
	}
	if u.User != nil {
		u.User = url.User("[redacted]")
	}
	if u.RawQuery != "" {
		u.RawQuery = "[redacted]"
	}
	return u.String()
}

// loader reads variables and collects one error per invalid one.
type loader struct {
	lookup func(string) (string, bool)
	errs   []error
}

// get is the variable's value; an unset or empty variable takes the default.
func (l *loader) get(key string) (string, bool) {
	v, ok := l.lookup(key)
	if !ok || v == "" {
		return "", false
	}
	return v, true
}

func (l *loader) fail(key, value, want string) {
	l.errs = append(l.errs, fmt.Errorf("%s=%q: want %s", key, value, want))
}

// parse is every typed variable's one shape: an unset or empty variable
// takes def; a value conv refuses is reported as wanting want (showing the
// value as shown makes it: redacted for secrets) and also takes def.
func parse[T any](l *loader, key string, def T, want string, conv func(string) (T, bool), shown ...func(string) string) T {
	v, ok := l.get(key)
	if !ok {
		return def
	}
	x, ok := conv(v)
	if !ok {
		for _, show := range shown {
			v = show(v)
		}
		l.fail(key, v, want)
		return def
	}
	return x
}

func redacted(string) string { return "[redacted]" }

func (l *loader) str(key, def string) string {
	return parse(l, key, def, "", func(v string) (string, bool) { return v, true })
}

func (l *loader) oneOf(key, def string, allowed ...string) string {
	return parse(l, key, def, "one of "+strings.Join(allowed, ", "), func(v string) (string, bool) {
		for _, a := range allowed {
			if strings.EqualFold(v, a) {
				return a, true
			}
		}
		return "", false
	})
}

func (l *loader) level(key string, def slog.Level) slog.Level {
	return parse(l, key, def, "one of debug, info, warn, error", func(v string) (slog.Level, bool) {
		var lv slog.Level
		return lv, lv.UnmarshalText([]byte(v)) == nil
	})
}

func (l *loader) boolean(key string) bool {
	return parse(l, key, false, "1 or 0 (true or false)", func(v string) (bool, bool) {
		b, err := strconv.ParseBool(v)
		return b, err == nil
	})
}

func (l *loader) port(key string, def int) int {
	return parse(l, key, def, "a TCP port, 1 to 65535", func(v string) (int, bool) {
		n, err := strconv.Atoi(v)
		return n, err == nil && n >= 1 && n <= 65535
	})
}

// count is a positive whole number.
func (l *loader) count(key string, def int) int {
	return parse(l, key, def, "a whole number of at least 1", func(v string) (int, bool) {
		n, err := strconv.Atoi(v)
		return n, err == nil && n >= 1
	})
}

// duration is a positive Go duration ("30s", "15m", "168h"; no "d").
func (l *loader) duration(key string, def time.Duration) time.Duration {
	return parse(l, key, def, "a positive duration with a unit: s, m or h, such as 30s, 15m or 168h (days are not a unit)", func(v string) (time.Duration, bool) {
		d, err := time.ParseDuration(v)
		return d, err == nil && d > 0
	})
}

// bytes is a non-negative size: plain bytes or with a KiB, MiB or GiB suffix.
func (l *loader) bytes(key string, def int64) int64 {
	return parse(l, key, def, "a size in bytes, 0 or more, optionally with KiB, MiB or GiB (such as 67108864 or 64MiB)", func(v string) (int64, bool) {
		num, mult := v, int64(1)
		for suffix, m := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30} {
			if strings.HasSuffix(v, suffix) {
				num, mult = strings.TrimSpace(strings.TrimSuffix(v, suffix)), m
			}
		}
		n, err := strconv.ParseInt(num, 10, 64)
		return n * mult, err == nil && n >= 0 && n <= (1<<62)/mult
	})
}

func (l *loader) secret(key string, minLen int) string {
	return parse(l, key, "", fmt.Sprintf("at least %d characters", minLen), func(v string) (string, bool) {
		return v, len(v) >= minLen
	}, redacted)
}

func (l *loader) hostPort(key, def string) string {
	return parse(l, key, def, "host:port or :port, such as :8080 or 127.0.0.1:8080", func(v string) (string, bool) {
		_, p, err := net.SplitHostPort(v)
		n, perr := strconv.Atoi(p)
		return v, err == nil && perr == nil && n >= 0 && n <= 65535
	})
}

// webURL parses an absolute URL whose scheme is one of schemes.
func webURL(v string, schemes ...string) (*url.URL, bool) {
	u, err := url.Parse(v)
	return u, err == nil && u.Host != "" && slices.Contains(schemes, u.Scheme)
}

// origin is an http(s) origin with no path, query or fragment, kept
// without a trailing slash.
func (l *loader) origin(key, def string) string {
	return parse(l, key, def, "an http or https origin with no path, such as https://omnibus.example", func(v string) (string, bool) {
		u, ok := webURL(v, "http", "https")
		if !ok || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
			return "", false
		}
		return u.Scheme + "://" + u.Host, true
	})
}

// httpURL is an absolute http(s) URL; httpsOnly refuses plain http except
// to loopback hosts (a local provider in development and tests).
func (l *loader) httpURL(key, def string, httpsOnly bool) string {
	want := "an absolute http or https URL"
	if httpsOnly {
		want = "an https URL (plain http only to localhost)"
	}
	return parse(l, key, def, want, func(v string) (string, bool) {
		u, ok := webURL(v, "http", "https")
		ok = ok && !(httpsOnly && u.Scheme == "http" && !isLoopback(u.Hostname()))
		return strings.TrimRight(v, "/"), ok
	})
}

func (l *loader) pathOrURL(key, def string) string {
	return parse(l, key, def, "a path on this site (/landing-page) or an absolute http or https URL", func(v string) (string, bool) {
		if strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//") && !strings.ContainsAny(v, "\\ \t\r\n") {
			return v, true
		}
		_, ok := webURL(v, "http", "https")
		return v, ok
	})
}

func (l *loader) postgresURL(key string) string {
	return parse(l, key, "", "a PostgreSQL URL, such as postgres://user:pass@host:5432/db?sslmode=require", func(v string) (string, bool) {
		_, ok := webURL(v, "postgres", "postgresql")
		return v, ok
	}, redactURL)
}

func (l *loader) smtpURL(key string) string {
	return parse(l, key, "", "smtp://user:pass@host:587 or smtps://user:pass@host:465", func(v string) (string, bool) {
		u, ok := webURL(v, "smtp", "smtps")
		return v, ok && u.Hostname() != ""
	}, redactURL)
}

func (l *loader) address(key, def string) string {
	return parse(l, key, def, `an e-mail address, such as "Omnibus <no-reply@omnibus.example>" or sales@omnibus.example`, func(v string) (string, bool) {
		_, err := mail.ParseAddress(v)
		return v, err == nil
	})
}

// proxies is a comma-separated list of CIDRs or addresses.
func (l *loader) proxies(key string) request.Proxies {
	return parse(l, key, nil, "comma-separated CIDRs or IP addresses, such as 10.0.0.0/8, 192.0.2.7", func(v string) (request.Proxies, bool) {
		ps, err := request.ParseProxies(v)
		return ps, err == nil
	})
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// samePort reports whether two listen addresses use the same port.
func samePort(a, b string) bool {
	_, pa, errA := net.SplitHostPort(a)
	_, pb, errB := net.SplitHostPort(b)
	return errA == nil && errB == nil && pa == pb && pa != "0"
}

// payments refuses payment and sign-in settings that cannot work together,
// or that would put a development stand-in in front of real visitors.
func (l *loader) payments(c Config) {
	switch {
	case c.StripeSecretKey != "" && !strings.HasPrefix(c.StripeSecretKey, "sk_") && !strings.HasPrefix(c.StripeSecretKey, "rk_"):
		l.fail("STRIPE_SECRET_KEY", "[redacted]", "a Stripe secret key (sk_… or rk_…)")
	case c.StripeSecretKey != "" && c.StripeWebhookSecret == "":
		l.fail("STRIPE_WEBHOOK_SECRET", "", "set together with STRIPE_SECRET_KEY (payments could never be confirmed)")
	case c.StripeSecretKey == "" && c.StripeWebhookSecret != "":
		l.fail("STRIPE_SECRET_KEY", "", "set together with STRIPE_WEBHOOK_SECRET")
	case c.StripeSecretKey != "" && c.PaymentsTestMode:
		l.fail("PAYMENTS_TEST_MODE", "1", "off while STRIPE_SECRET_KEY is set (choose one)")
	}
	if c.StripeAPIURL != "" && !c.Development() {
		l.fail("STRIPE_API_URL", c.StripeAPIURL, "unset outside development (PUBLIC_URL on loopback): it replaces Stripe's API")
	}
	if u, err := url.Parse(c.GoogleIssuerURL); c.GoogleClientID != "" && !c.Development() && (err != nil || isLoopback(u.Hostname())) {
		l.fail("GOOGLE_ISSUER_URL", c.GoogleIssuerURL, "a real provider outside development (the local one signs in anyone)")
	}
}
