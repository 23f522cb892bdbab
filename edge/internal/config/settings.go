package config

import (
	"log/slog"
	"path/filepath"
	"time"

	"omnibus/edge/internal/http/request"
)

// Settings is every variable the edge reads, in the order of the docs and
// the start-up log. A row gives the variable's name, its kind (how it
// parses, what the error says is wanted, whether it is a secret), its
// default as it would be written in the environment (parsed by the same
// kind; "" is the kind's zero value), the Config field it fills and what
// it means. Checks that involve several variables, or production, are in
// checks.go and production.go.
var Settings = []Setting{
	row("OMNIBUS_ENV", oneOf(Production, Development), Production, func(c *Config) *string { return &c.Env },
		"`production` unless set to `development`. Production refuses to start with a development stand-in or a placeholder secret (see [Production](#production)); `make run`, `make dev` and every test set `development`."),
	row("LISTEN_ADDR", hostPort, ":8080", func(c *Config) *string { return &c.Addr },
		"The edge's public listener."),
	row("PUBLIC_URL", origin, "http://localhost:8080", func(c *Config) *string { return &c.PublicURL },
		"The site's canonical origin: canonical links, Open Graph URLs, the sitemap, links in e-mail, `Secure` cookies and the cross-site check; https also turns on HSTS and the redirect of plain-http requests. Production wants it set, https and not loopback."),
	row("DATABASE_URL", postgresURL, "", func(c *Config) *string { return &c.DatabaseURL },
		"PostgreSQL, such as `postgres://user:pass@host:5432/db?sslmode=require`; empty: SQLite at `DATA_DIR/omnibus.db`."),
	row("DATA_DIR", text, "data", func(c *Config) *string { return &c.DataDir },
		"Folder of the SQLite file and other local state (`make run` uses `./data`)."),
	row("SSR_DIR", text, filepath.Join("..", "ssr"), func(c *Config) *string { return &c.SSRDir },
		"The renderer's folder (`server.js`, `build/`)."),
	row("RENDERER_URL", httpURL, "", func(c *Config) *string { return &c.RendererURL },
		"An external renderer to use instead of starting `node server.js` as a child."),
	row("RENDERER_PORT", port, "3001", func(c *Config) *int { return &c.RendererPort },
		"Loopback port of the child renderer (its warm standby takes a free loopback port)."),
	row("RENDERER_DEV", boolean, "0", func(c *Config) *bool { return &c.RendererDev },
		"`1`: run the child renderer with `--dev` (Vite hot reload; `make dev`). Refused in production."),
	row("RENDERER_TIMEOUT", duration, "30s", func(c *Config) *time.Duration { return &c.RendererTimeout },
		"Bound on one proxied page request, first byte to last."),
	row("RENDERER_START_TIMEOUT", duration, "60s", func(c *Config) *time.Duration { return &c.RendererStartTimeout },
		"How long start-up waits for the renderer's first answer; the edge serves meanwhile and pages answer 503."),
	row("SHUTDOWN_TIMEOUT", duration, "15s", func(c *Config) *time.Duration { return &c.ShutdownTimeout },
		"How long SIGTERM waits for requests in flight (streams included), after `DRAIN_PERIOD`."),
	row("DRAIN_PERIOD", duration, "5s", func(c *Config) *time.Duration { return &c.DrainPeriod },
		"How long SIGTERM keeps the edge serving before it stops accepting: `/readyz` answers 503 at once and every answer closes its keep-alive connection, while the load balancer takes the edge out."),
	row("CACHE_MAX_BYTES", size, "64MiB", func(c *Config) *int64 { return &c.CacheMaxBytes },
		"Memory bound of the page cache (every stored page in identity, gzip and brotli; least recently used out first); `0` turns the cache off."),
	row("CACHE_PURGE_TOKEN", secret(minSecretLen), "", func(c *Config) *string { return &c.CachePurgeToken },
		"Bearer token for `POST /api/v1/admin/cache/purge` and `edge purge` (`openssl rand -hex 32`); empty: purging over HTTP is off (404)."),
	row("SMTP_URL", smtpURL, "", func(c *Config) *string { return &c.SMTPURL },
		"Outgoing mail: `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://user:pass@host:465`. Empty: every message stays in the `mail_outbox` table (read it with `edge mail`), which production refuses."),
	row("MAIL_FROM", address, "Omnibus <no-reply@localhost>", func(c *Config) *string { return &c.MailFrom },
		"Sender of password-reset and notification mail."),
	row("CONTACT_NOTIFY_EMAIL", address, "", func(c *Config) *string { return &c.ContactNotifyEmail },
		"Where each contact-form message is also mailed (it is always stored in `contact_messages`)."),
	row("GOOGLE_CLIENT_ID", text, "", func(c *Config) *string { return &c.GoogleClientID },
		"Google sign-in's OAuth client id (also shown to the browser); empty hides the Google button."),
	row("GOOGLE_CLIENT_SECRET", secret(1), "", func(c *Config) *string { return &c.GoogleClientSecret },
		"That client's secret, for the auth-code and redirect flows; only with `GOOGLE_CLIENT_ID`."),
	row("GOOGLE_ISSUER_URL", httpsURL, "https://accounts.google.com", func(c *Config) *string { return &c.GoogleIssuerURL },
		"The OpenID Connect issuer whose ID tokens are trusted (plain http only to loopback: the local provider of `make run` and the tests, which production refuses)."),
	row("MERCHANT_APP_URL", pathOrURL, "/landing-page", func(c *Config) *string { return &c.MerchantAppURL },
		"Where a signed-in merchant past onboarding is sent from /login and /register: a path on this site or an absolute http(s) URL."),
	row("SESSION_TTL", duration, "168h", func(c *Config) *time.Duration { return &c.SessionTTL },
		"A session ends after this long without activity (7 days; there is no `d` unit)."),
	row("STRIPE_SECRET_KEY", secret(1), "", func(c *Config) *string { return &c.StripeSecretKey },
		"Stripe secret key (`sk_live_…` or `rk_live_…`; `sk_test_…` only in development): licence payments through Stripe Checkout. Needs `STRIPE_WEBHOOK_SECRET`."),
	row("STRIPE_WEBHOOK_SECRET", secret(1), "", func(c *Config) *string { return &c.StripeWebhookSecret },
		"Signing secret (`whsec_…`) of the Stripe webhook endpoint `PUBLIC_URL/api/v1/payments/stripe/webhook`."),
	row("STRIPE_API_URL", httpURL, "", func(c *Config) *string { return &c.StripeAPIURL },
		"Replaces Stripe's API origin (stripe-mock); development only."),
	row("PAYMENTS_TEST_MODE", boolean, "0", func(c *Config) *bool { return &c.PaymentsTestMode },
		"`1`: the labelled test-mode payment page stands in for a provider, and no money moves. Development only; there it is also on by itself without a Stripe key. In production without a Stripe key payments are off: logged as an error at start, the payment pages answer 503."),
	row("ADMIN_CONSOLE_URL", httpURL, "https://admin.omnibus.example", func(c *Config) *string { return &c.AdminConsoleURL },
		"The merchant admin console, linked from the merchant home (`/landing-page`)."),
	row("LOG_FORMAT", oneOf("text", "json"), "text", func(c *Config) *string { return &c.LogFormat },
		"`text`, or `json` (one object a line, for a log pipeline)."),
	row("LOG_LEVEL", level, "info", func(c *Config) *slog.Level { return &c.LogLevel },
		"The least severe level logged: `debug`, `info`, `warn` or `error` (the renderer gets it too)."),
	row("TRUSTED_PROXIES", proxies, "", func(c *Config) *request.Proxies { return &c.TrustedProxies },
		"Comma-separated CIDRs or addresses of reverse proxies whose `X-Forwarded-For`, `-Proto` and `-Host` are believed; loopback always is, nothing else unless listed."),
	row("MAX_CONNECTIONS", count, "4096", func(c *Config) *int { return &c.MaxConnections },
		"Cap on open client connections; more wait in the accept queue, and when every slot is taken the oldest idle connections are closed to admit new ones."),
	row("MAX_CONNECTIONS_PER_CLIENT", count, "128", func(c *Config) *int { return &c.MaxConnsPerClient },
		"Cap on one direct peer's open connections (never more than half of `MAX_CONNECTIONS`); the next is closed at once. `TRUSTED_PROXIES` and 127.0.0.1/::1 are exempt."),
	row("DB_MAX_OPEN_CONNS", count, "20", func(c *Config) *int { return &c.DBMaxOpenConns },
		"Size of the database connection pool."),
	row("DB_POOL_WAIT", duration, "2s", func(c *Config) *time.Duration { return &c.DBPoolWait },
		"How long a request waits for a free database connection before it is answered 503."),
	row("METRICS_ADDR", hostPort, "", func(c *Config) *string { return &c.MetricsAddr },
		"Prometheus `/metrics` on a listener of its own, never `LISTEN_ADDR`'s port (`make run`: `127.0.0.1:9090`); empty: no metrics."),
	row("RENDERER_METRICS_PORT", port, "", func(c *Config) *int { return &c.RendererMetricsPort },
		"Loopback port of the child renderer's own metrics, merged into the edge's scrape (only with `METRICS_ADDR`); empty: `RENDERER_PORT`+1."),
	row("RENDERER_METRICS_URL", httpURL, "", func(c *Config) *string { return &c.RendererMetricsURL },
		"With `RENDERER_URL`: the external renderer's metrics URL, merged the same way."),
}
