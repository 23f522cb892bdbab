// Package config reads the edge's settings from the environment. Every
// variable the edge understands is listed here (and in the README), with its
// default, so a newcomer can see the whole surface in one file.
package config

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Config is the edge's whole configuration.
type Config struct {
	// Addr is the public listener (LISTEN_ADDR, default ":8080").
	Addr string
	// DatabaseURL selects PostgreSQL when set (DATABASE_URL). Empty means the
	// embedded SQLite file under DataDir.
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
	// the sitemap and cookie security (PUBLIC_URL, default "http://localhost:8080").
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
	// (CACHE_MAX_BYTES, in bytes, default 64 MiB; 0 turns the cache off).
	CacheMaxBytes int64
	// CachePurgeToken authorises POST /api/v1/admin/cache/purge and
	// `edge purge` (CACHE_PURGE_TOKEN, "Authorization: Bearer <token>").
	// Empty turns purging over HTTP off (the endpoint answers 404).
	CachePurgeToken string

	// SMTPURL sends e-mail (password reset links) through an SMTP server
	// (SMTP_URL, e.g. smtp://user:pass@host:587 with STARTTLS when offered,
	// smtps://user:pass@host:465). Empty keeps every message in the
	// mail_outbox table and the log instead.
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
	// from /login and /register (MERCHANT_APP_URL, default /landing-page).
	MerchantAppURL string
	// SessionTTL ends a session after this long without activity
	// (SESSION_TTL, default 168h = 7 days).
	SessionTTL time.Duration

	// StripeSecretKey turns on payments through Stripe Checkout
	// (STRIPE_SECRET_KEY, sk_live_… or sk_test_…); it needs
	// StripeWebhookSecret too.
	StripeSecretKey string
	// StripeWebhookSecret verifies Stripe's webhook events
	// (STRIPE_WEBHOOK_SECRET, whsec_…, from the endpoint for
	// PUBLIC_URL/api/v1/payments/stripe/webhook).
	StripeWebhookSecret string
	// StripeAPIURL replaces Stripe's API origin (STRIPE_API_URL; stripe-mock
	// in tests). Empty: https://api.stripe.com.
	StripeAPIURL string
	// PaymentsTestMode serves the labelled test-mode payment page instead of a
	// provider (PAYMENTS_TEST_MODE=1). It is on by itself in development
	// (PUBLIC_URL on localhost) when no Stripe key is set; anywhere else only
	// when asked for.
	PaymentsTestMode bool
	// AdminConsoleURL is the merchant admin console, linked from the merchant
	// home (ADMIN_CONSOLE_URL, default https://admin.omnibus.example).
	AdminConsoleURL string
}

// Load reads the environment.
func Load() Config {
	return Config{
		Addr:                 env("LISTEN_ADDR", ":8080"),
		DatabaseURL:          os.Getenv("DATABASE_URL"),
		DataDir:              env("DATA_DIR", "data"),
		RendererURL:          os.Getenv("RENDERER_URL"),
		RendererPort:         envInt("RENDERER_PORT", 3001),
		SSRDir:               env("SSR_DIR", filepath.Join("..", "ssr")),
		PublicURL:            env("PUBLIC_URL", "http://localhost:8080"),
		ShutdownTimeout:      envDuration("SHUTDOWN_TIMEOUT", 15*time.Second),
		RendererTimeout:      envDuration("RENDERER_TIMEOUT", 30*time.Second),
		RendererDev:          envBool("RENDERER_DEV"),
		RendererStartTimeout: envDuration("RENDERER_START_TIMEOUT", 60*time.Second),
		CacheMaxBytes:        int64(envInt("CACHE_MAX_BYTES", 64<<20)),
		CachePurgeToken:      os.Getenv("CACHE_PURGE_TOKEN"),
		SMTPURL:              os.Getenv("SMTP_URL"),
		MailFrom:             env("MAIL_FROM", "Omnibus <no-reply@localhost>"),
		ContactNotifyEmail:   os.Getenv("CONTACT_NOTIFY_EMAIL"),
		GoogleClientID:       os.Getenv("GOOGLE_CLIENT_ID"),
		GoogleClientSecret:   os.Getenv("GOOGLE_CLIENT_SECRET"),
		GoogleIssuerURL:      env("GOOGLE_ISSUER_URL", "https://accounts.google.com"),
		MerchantAppURL:       env("MERCHANT_APP_URL", "/landing-page"),
		SessionTTL:           envDuration("SESSION_TTL", 7*24*time.Hour),
		StripeSecretKey:      os.Getenv("STRIPE_SECRET_KEY"),
		StripeWebhookSecret:  os.Getenv("STRIPE_WEBHOOK_SECRET"),
		StripeAPIURL:         os.Getenv("STRIPE_API_URL"),
		PaymentsTestMode:     envBool("PAYMENTS_TEST_MODE"),
		AdminConsoleURL:      env("ADMIN_CONSOLE_URL", "https://admin.omnibus.example"),
	}
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
	if err != nil {
		return false
	}
	h := u.Hostname()
	return h == "localhost" || h == "127.0.0.1" || h == "::1"
}

// PaymentMode is who takes payments: Stripe when its key is set; the
// test-mode page when asked for (PAYMENTS_TEST_MODE=1) or in development
// without a key; otherwise off (the edge logs it as an error at start and
// the payment endpoints answer 503). Never the test-mode page in production
// unless asked for.
func (c Config) PaymentMode() string {
	switch {
	case c.StripeSecretKey != "":
		return PaymentsStripe
	case c.PaymentsTestMode || c.Development():
		return PaymentsTestMode
	}
	return PaymentsOff
}

// Validate refuses settings that cannot work together or that would fall
// back to a development stand-in outside development.
func (c Config) Validate() error {
	switch {
	case c.StripeSecretKey != "" && c.StripeWebhookSecret == "":
		return errors.New("config: STRIPE_SECRET_KEY is set without STRIPE_WEBHOOK_SECRET: payments could never be confirmed")
	case c.StripeSecretKey == "" && c.StripeWebhookSecret != "":
		return errors.New("config: STRIPE_WEBHOOK_SECRET is set without STRIPE_SECRET_KEY")
	case c.StripeSecretKey != "" && c.PaymentsTestMode:
		return errors.New("config: PAYMENTS_TEST_MODE=1 and STRIPE_SECRET_KEY are both set: choose one")
	case c.StripeSecretKey != "" && !strings.HasPrefix(c.StripeSecretKey, "sk_") && !strings.HasPrefix(c.StripeSecretKey, "rk_"):
		return errors.New("config: STRIPE_SECRET_KEY must be a Stripe secret key (sk_… or rk_…)")
	case c.StripeAPIURL != "" && !c.Development():
		return errors.New("config: STRIPE_API_URL (a stand-in for Stripe's API) is for development and tests only")
	}
	if c.GoogleClientID != "" && !c.Development() {
		if u, err := url.Parse(c.GoogleIssuerURL); err != nil || u.Scheme != "https" {
			return fmt.Errorf("config: GOOGLE_ISSUER_URL %q is not https: a local OpenID provider is for development only", c.GoogleIssuerURL)
		}
	}
	return nil
}

func env(key, def string) string {
	if v, ok := os.LookupEnv(key); ok && v != "" {
		return v
	}
	return def
}

func envInt(key string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(key)); err == nil {
		return v
	}
	return def
}

func envBool(key string) bool {
	v, _ := strconv.ParseBool(os.Getenv(key))
	return v
}

func envDuration(key string, def time.Duration) time.Duration {
	if v, err := time.ParseDuration(os.Getenv(key)); err == nil {
		return v
	}
	return def
}
