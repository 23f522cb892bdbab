package config

import (
	"log/slog"
	"strings"
	"testing"
	"time"
)

// load reads env in development (OMNIBUS_ENV=development unless env sets
// it): these tests are about parsing; production's refusals are in
// production_test.go.
func load(env map[string]string) (Config, error) {
	return LoadFrom(func(k string) (string, bool) {
		v, ok := env[k]
		if k == "OMNIBUS_ENV" && !ok {
			return Development, true
		}
		return v, ok
	})
}

// loadProduction reads env as it is: production unless it says otherwise.
func loadProduction(env map[string]string) (Config, error) {
	return LoadFrom(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
}

func TestDefaults(t *testing.T) {
	cfg, err := load(nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Addr != ":8080" || cfg.PublicURL != "http://localhost:8080" || cfg.SessionTTL != 168*time.Hour ||
		cfg.CacheMaxBytes != 64<<20 || cfg.LogFormat != "text" || cfg.LogLevel != slog.LevelInfo || cfg.RendererPort != 3001 {
		t.Errorf("defaults: %+v", cfg)
	}
}

// Each variable: good values parse; bad values are an error naming the
// variable, the value and the expected form, never a silent default.
func TestEachVariable(t *testing.T) {
	cases := []struct {
		key, value string
		ok         bool
		check      func(Config) bool
	}{
		{"LISTEN_ADDR", "127.0.0.1:9000", true, func(c Config) bool { return c.Addr == "127.0.0.1:9000" }},
		{"LISTEN_ADDR", "8080", false, nil},
		{"LISTEN_ADDR", ":99999", false, nil},
		{"DATABASE_URL", "postgres://u:p@db:5432/x?sslmode=require", true, func(c Config) bool { return c.DatabaseURL != "" }},
		{"DATABASE_URL", "mysql://db/x", false, nil},
		{"RENDERER_URL", "http://127.0.0.1:3001", true, func(c Config) bool { return c.RendererURL == "http://127.0.0.1:3001" }},
		{"RENDERER_URL", "127.0.0.1:3001", false, nil},
		{"RENDERER_PORT", "3005", true, func(c Config) bool { return c.RendererPort == 3005 }},
		{"RENDERER_PORT", "0", false, nil},
		{"RENDERER_PORT", "abc", false, nil},
		{"PUBLIC_URL", "https://omnibus.example/", true, func(c Config) bool { return c.PublicURL == "https://omnibus.example" && c.Secure() }},
		{"PUBLIC_URL", "omnibus.example", false, nil},
		{"PUBLIC_URL", "https://omnibus.example/shop", false, nil},
		{"PUBLIC_URL", "ftp://omnibus.example", false, nil},
		{"SHUTDOWN_TIMEOUT", "20s", true, func(c Config) bool { return c.ShutdownTimeout == 20*time.Second }},
		{"SHUTDOWN_TIMEOUT", "-1s", false, nil},
		{"RENDERER_TIMEOUT", "1m", true, func(c Config) bool { return c.RendererTimeout == time.Minute }},
		{"RENDERER_TIMEOUT", "30", false, nil},
		{"RENDERER_START_TIMEOUT", "2m", true, func(c Config) bool { return c.RendererStartTimeout == 2*time.Minute }},
		{"RENDERER_START_TIMEOUT", "soon", false, nil},
		{"RENDERER_DEV", "1", true, func(c Config) bool { return c.RendererDev }},
		{"RENDERER_DEV", "yes please", false, nil},
		{"CACHE_MAX_BYTES", "0", true, func(c Config) bool { return c.CacheMaxBytes == 0 }},
		{"CACHE_MAX_BYTES", "64MiB", true, func(c Config) bool { return c.CacheMaxBytes == 64<<20 }},
		{"CACHE_MAX_BYTES", "1048576", true, func(c Config) bool { return c.CacheMaxBytes == 1<<20 }},
		{"CACHE_MAX_BYTES", "-1", false, nil},
		{"CACHE_MAX_BYTES", "64MB", false, nil},
		{"CACHE_PURGE_TOKEN", "a-long-enough-token-42", true, func(c Config) bool { return c.CachePurgeToken == "a-long-enough-token-42" }},
		{"CACHE_PURGE_TOKEN", "short", false, nil},
		{"SMTP_URL", "smtps://u:p@mail.example:465", true, func(c Config) bool { return c.SMTPURL != "" }},
		{"SMTP_URL", "mail.example:25", false, nil},
		{"MAIL_FROM", "Shop <shop@omnibus.example>", true, func(c Config) bool { return c.MailFrom == "Shop <shop@omnibus.example>" }},
		{"MAIL_FROM", "not an address", false, nil},
		{"CONTACT_NOTIFY_EMAIL", "sales@omnibus.example", true, func(c Config) bool { return c.ContactNotifyEmail == "sales@omnibus.example" }},
		{"CONTACT_NOTIFY_EMAIL", "sales at omnibus", false, nil},
		{"GOOGLE_ISSUER_URL", "http://127.0.0.1:8999", true, func(c Config) bool { return c.GoogleIssuerURL == "http://127.0.0.1:8999" }},
		{"GOOGLE_ISSUER_URL", "http://accounts.example", false, nil},
		{"MERCHANT_APP_URL", "https://admin.omnibus.example", true, func(c Config) bool { return c.MerchantAppURL == "https://admin.omnibus.example" }},
		{"MERCHANT_APP_URL", "/home", true, func(c Config) bool { return c.MerchantAppURL == "/home" }},
		{"MERCHANT_APP_URL", "//evil.example", false, nil},
		{"MERCHANT_APP_URL", "javascript:alert(1)", false, nil},
		{"SESSION_TTL", "24h", true, func(c Config) bool { return c.SessionTTL == 24*time.Hour }},
		{"SESSION_TTL", "7d", false, nil},
		{"LOG_FORMAT", "JSON", true, func(c Config) bool { return c.LogFormat == "json" }},
		{"LOG_FORMAT", "xml", false, nil},
		{"LOG_LEVEL", "debug", true, func(c Config) bool { return c.LogLevel == slog.LevelDebug }},
		{"LOG_LEVEL", "loud", false, nil},
		{"TRUSTED_PROXIES", "10.0.0.0/8, 192.0.2.7", true, func(c Config) bool { return len(c.TrustedProxies) == 2 && c.TrustedProxies.Trusts("10.9.9.9") }},
		{"TRUSTED_PROXIES", "10.0.0.0/33", false, nil},
		{"MAX_CONNECTIONS", "100", true, func(c Config) bool { return c.MaxConnections == 100 }},
		{"MAX_CONNECTIONS", "0", false, nil},
		{"DB_MAX_OPEN_CONNS", "5", true, func(c Config) bool { return c.DBMaxOpenConns == 5 }},
		{"DB_MAX_OPEN_CONNS", "many", false, nil},
		{"DB_POOL_WAIT", "500ms", true, func(c Config) bool { return c.DBPoolWait == 500*time.Millisecond }},
		{"DB_POOL_WAIT", "0", false, nil},
	}
	for _, tc := range cases {
		cfg, err := load(map[string]string{tc.key: tc.value})
		if tc.ok {
			if err != nil {
				t.Errorf("%s=%q: %v", tc.key, tc.value, err)
			} else if !tc.check(cfg) {
				t.Errorf("%s=%q: parsed into %+v", tc.key, tc.value, cfg)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s=%q: accepted, want an error", tc.key, tc.value)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, tc.key+"=") || !strings.Contains(msg, "want ") {
			t.Errorf("%s=%q: error %q does not name the variable and the expected form", tc.key, tc.value, msg)
		}
	}
}

// Every bad variable is reported in one error, not only the first.
func TestAllErrorsAtOnce(t *testing.T) {
	_, err := load(map[string]string{"SESSION_TTL": "7d", "CACHE_MAX_BYTES": "-1", "PUBLIC_URL": "omnibus.example"})
	if err == nil {
		t.Fatal("accepted")
	}
	for _, key := range []string{"SESSION_TTL", "CACHE_MAX_BYTES", "PUBLIC_URL"} {
		if !strings.Contains(err.Error(), key) {
			t.Errorf("error does not name %s:\n%v", key, err)
		}
	}
}

func TestGoogleSecretNeedsClientID(t *testing.T) {
	if _, err := load(map[string]string{"GOOGLE_CLIENT_SECRET": "s3cret"}); err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("want an error that does not print the secret, got %v", err)
	}
}

// The logged configuration never shows a secret or a password.
func TestLogValueRedactsSecrets(t *testing.T) {
	cfg, err := load(map[string]string{
		"DATABASE_URL":         "postgres://app:db-pass-123@db:5432/x?sslmode=require&password=q-pass-456",
		"SMTP_URL":             "smtp://mailer:smtp-pass-789@mail:587",
		"CACHE_PURGE_TOKEN":    "purge-token-0123456789",
		"GOOGLE_CLIENT_ID":     "client.apps",
		"GOOGLE_CLIENT_SECRET": "google-secret-abc",
	})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	slog.New(slog.NewTextHandler(&b, nil)).Info("configuration", "config", cfg)
	out := b.String()
	for _, secret := range []string{"db-pass-123", "q-pass-456", "smtp-pass-789", "purge-token-0123456789", "google-secret-abc"} {
		if strings.Contains(out, secret) {
			t.Errorf("log shows %q:\n%s", secret, out)
		}
	}
	for _, shown := range []string{"db:5432", "client.apps", "mail:587"} {
		if !strings.Contains(out, shown) {
			t.Errorf("log hides %q, which is not a secret:\n%s", shown, out)
		}
	}
}

// A bad DATABASE_URL is named in the error without its password.
func TestBadDatabaseURLErrorHidesPassword(t *testing.T) {
	_, err := load(map[string]string{"DATABASE_URL": "mysql://u:hunter2@db/x"})
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("got %v", err)
	}
}

// METRICS_ADDR is its own listener, never the public port; the child
// renderer's metrics port defaults to RENDERER_PORT+1.
func TestMetricsVariables(t *testing.T) {
	cfg, err := load(map[string]string{"METRICS_ADDR": "127.0.0.1:9090", "RENDERER_PORT": "3005"})
	if err != nil || cfg.MetricsAddr != "127.0.0.1:9090" || cfg.RendererMetricsPort != 3006 {
		t.Errorf("cfg %+v err %v", cfg, err)
	}
	if cfg, err := load(nil); err != nil || cfg.MetricsAddr != "" {
		t.Errorf("metrics are off by default: %q %v", cfg.MetricsAddr, err)
	}
	for _, env := range []map[string]string{
		{"METRICS_ADDR": "9090"},
		{"METRICS_ADDR": "127.0.0.1:8080"}, // LISTEN_ADDR's port
		{"METRICS_ADDR": ":9090", "RENDERER_METRICS_PORT": "3001"},
		{"RENDERER_METRICS_PORT": "0"},
		{"RENDERER_METRICS_URL": "127.0.0.1:3002/metrics"},
	} {
		_, err := load(env)
		for k := range env {
			if k == "METRICS_ADDR" && len(env) > 1 {
				continue
			}
			if err == nil || !strings.Contains(err.Error(), k) {
				t.Errorf("%v: err %v, want one naming %s", env, err, k)
			}
		}
	}
}
