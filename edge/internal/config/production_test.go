package config

import (
	"bytes"
	"log/slog"
	"maps"
	"strings"
	"testing"
)

// Values that look like real secrets (long, random-looking, live).
const (
	liveKey       = "sk_live_51HqLyjWDarjtT1zdp7dc4eC39"
	webhookSecret = "whsec_5fT0dPq8mVx2LrK9sWbN3cYe7HjA1uGz"
	purgeToken    = "9f2c4e1a7b3d5f6081a2c3e4d5f60718"
	smtpPassword  = "Qm7vR2xK9pL4wT8s"
)

// production is a complete production environment with extra on top (a
// value "" in extra unsets the variable).
func production(extra map[string]string) map[string]string {
	env := map[string]string{
		"OMNIBUS_ENV": "production",
		"PUBLIC_URL":  "https://omnibus.example",
		"SMTP_URL":    "smtps://mailer:" + smtpPassword + "@mail.example:465",
	}
	maps.Copy(env, extra)
	for k, v := range env {
		if v == "" {
			delete(env, k)
		}
	}
	return env
}

func TestProductionAcceptsARealConfiguration(t *testing.T) {
	cfg, err := load(production(map[string]string{
		"STRIPE_SECRET_KEY": liveKey, "STRIPE_WEBHOOK_SECRET": webhookSecret, "CACHE_PURGE_TOKEN": purgeToken,
		"DATABASE_URL":     "postgres://omnibus:" + smtpPassword + "@db.internal:5432/omnibus?sslmode=require",
		"GOOGLE_CLIENT_ID": "1234-abc.apps.googleusercontent.com", "GOOGLE_CLIENT_SECRET": "GOCSPX-2bVx9QmT4rLk8sWn3Jc",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Development() || cfg.PaymentMode() != PaymentsStripe {
		t.Errorf("development %v, payments %s", cfg.Development(), cfg.PaymentMode())
	}
}

// An empty environment is production, and production refuses it: no public
// origin, no mail server. The error says how a development machine opts out.
func TestProductionIsTheDefault(t *testing.T) {
	cfg, err := loadProduction(nil)
	if cfg.Development() || cfg.Env != Production {
		t.Errorf("an empty environment is %q, want production", cfg.Env)
	}
	if err == nil {
		t.Fatal("an empty environment starts in production")
	}
	for _, want := range []string{"PUBLIC_URL", "SMTP_URL", "OMNIBUS_ENV=development"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say %s:\n%v", want, err)
		}
	}
	if _, err := loadProduction(map[string]string{"OMNIBUS_ENV": "staging"}); err == nil || !strings.Contains(err.Error(), "OMNIBUS_ENV=") {
		t.Errorf("OMNIBUS_ENV=staging: %v", err)
	}
}

// Each development stand-in and each kind of placeholder secret is refused
// in production, named, and never printed.
func TestProductionRefusesEachBadSetting(t *testing.T) {
	for _, c := range []struct {
		name   string
		env    map[string]string
		key    string
		hidden string // must not be printed ("" when the value is no secret)
	}{
		{"PUBLIC_URL unset", map[string]string{"PUBLIC_URL": ""}, "PUBLIC_URL", ""},
		{"PUBLIC_URL on localhost", map[string]string{"PUBLIC_URL": "https://localhost:8443"}, "PUBLIC_URL", ""},
		{"PUBLIC_URL on 127.0.0.1", map[string]string{"PUBLIC_URL": "http://127.0.0.1:8080"}, "PUBLIC_URL", ""},
		{"PUBLIC_URL plain http", map[string]string{"PUBLIC_URL": "http://omnibus.example"}, "PUBLIC_URL", ""},
		{"test-mode payments", map[string]string{"PAYMENTS_TEST_MODE": "1"}, "PAYMENTS_TEST_MODE", ""},
		{"stripe-mock", map[string]string{"STRIPE_SECRET_KEY": liveKey, "STRIPE_WEBHOOK_SECRET": webhookSecret, "STRIPE_API_URL": "http://127.0.0.1:12111"}, "STRIPE_API_URL", ""},
		{"no SMTP server", map[string]string{"SMTP_URL": ""}, "SMTP_URL", ""},
		{"local OpenID issuer", map[string]string{"GOOGLE_CLIENT_ID": "dev-client", "GOOGLE_ISSUER_URL": "http://127.0.0.1:8099/oidc"}, "GOOGLE_ISSUER_URL", ""},
		{"Vite dev server", map[string]string{"RENDERER_DEV": "1"}, "RENDERER_DEV", ""},
		{"placeholder purge token", map[string]string{"CACHE_PURGE_TOKEN": "CHANGE-ME-to-64-random-hex-chars"}, "CACHE_PURGE_TOKEN", "CHANGE-ME-to-64"},
		{"changeme purge token", map[string]string{"CACHE_PURGE_TOKEN": "changeme-changeme-changeme"}, "CACHE_PURGE_TOKEN", "changeme-changeme"},
		{"xxx purge token", map[string]string{"CACHE_PURGE_TOKEN": "xxxxxxxxxxxxxxxxxxxxxxxx"}, "CACHE_PURGE_TOKEN", "xxxxxxxxxxxxxxxx"},
		{"placeholder Stripe key", map[string]string{"STRIPE_SECRET_KEY": "sk_live_CHANGE-ME", "STRIPE_WEBHOOK_SECRET": webhookSecret}, "STRIPE_SECRET_KEY", "sk_live_CHANGE-ME"},
		{"Stripe test key", map[string]string{"STRIPE_SECRET_KEY": "sk_test_4eC39HqLyjWDarjtT1zdp7dc", "STRIPE_WEBHOOK_SECRET": webhookSecret}, "STRIPE_SECRET_KEY", "4eC39HqLyjWDarjtT1zdp7dc"},
		{"short Stripe key", map[string]string{"STRIPE_SECRET_KEY": "sk_live_x", "STRIPE_WEBHOOK_SECRET": webhookSecret}, "STRIPE_SECRET_KEY", "sk_live_x"},
		{"placeholder webhook secret", map[string]string{"STRIPE_SECRET_KEY": liveKey, "STRIPE_WEBHOOK_SECRET": "whsec_CHANGE-ME"}, "STRIPE_WEBHOOK_SECRET", "whsec_CHANGE-ME"},
		{"short webhook secret", map[string]string{"STRIPE_SECRET_KEY": liveKey, "STRIPE_WEBHOOK_SECRET": "whsec_x"}, "STRIPE_WEBHOOK_SECRET", "whsec_x"},
		{"short Google secret", map[string]string{"GOOGLE_CLIENT_ID": "1234.apps.googleusercontent.com", "GOOGLE_CLIENT_SECRET": "dev-secret"}, "GOOGLE_CLIENT_SECRET", "dev-secret"},
		{"placeholder database password", map[string]string{"DATABASE_URL": "postgres://omnibus:CHANGE-ME@postgres.example:5432/omnibus?sslmode=require"}, "DATABASE_URL", "CHANGE-ME"},
		{"short database password", map[string]string{"DATABASE_URL": "postgres://omnibus:omnibus@postgres:5432/omnibus"}, "DATABASE_URL", "omnibus:omnibus"},
		{"placeholder SMTP password", map[string]string{"SMTP_URL": "smtp://user:CHANGE-ME@smtp.example.com:587"}, "SMTP_URL", "CHANGE-ME"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := load(production(c.env))
			if err == nil {
				t.Fatalf("%v: accepted in production", c.env)
			}
			msg := err.Error()
			if !strings.Contains(msg, c.key+"=") || !strings.Contains(msg, "want ") {
				t.Errorf("the error does not name %s and what is wanted:\n%s", c.key, msg)
			}
			if c.hidden != "" && strings.Contains(msg, c.hidden) {
				t.Errorf("the error prints the secret %q:\n%s", c.hidden, msg)
			}
			if strings.Count(msg, "\n  ") != 1 {
				t.Errorf("want exactly one problem reported:\n%s", msg)
			}
		})
	}
}

// The shipped example secrets, with a development address, are refused
// all at once: every problem on its own line, no placeholder printed.
func TestProductionNamesEveryProblemAtOnce(t *testing.T) {
	_, err := loadProduction(map[string]string{
		"PUBLIC_URL":            "http://localhost:8080",
		"DATABASE_URL":          "postgres://omnibus:CHANGE-ME@postgres.example:5432/omnibus?sslmode=require",
		"CACHE_PURGE_TOKEN":     "CHANGE-ME-to-64-random-hex-chars",
		"SMTP_URL":              "smtp://user:CHANGE-ME@smtp.example.com:587",
		"STRIPE_SECRET_KEY":     "sk_live_CHANGE-ME",
		"STRIPE_WEBHOOK_SECRET": "whsec_CHANGE-ME",
		"PAYMENTS_TEST_MODE":    "0",
	})
	if err == nil {
		t.Fatal("accepted")
	}
	msg := err.Error()
	for _, key := range []string{"PUBLIC_URL", "DATABASE_URL", "CACHE_PURGE_TOKEN", "SMTP_URL", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"} {
		if !strings.Contains(msg, "\n  "+key+"=") {
			t.Errorf("%s not named:\n%s", key, msg)
		}
	}
	if strings.Contains(msg, "CHANGE-ME@") || strings.Contains(msg, "sk_live_CHANGE") || strings.Contains(msg, "to-64-random") {
		t.Errorf("a placeholder secret is printed:\n%s", msg)
	}
}

// Finding 6: a typo in the scheme leaves a URL with no user information to
// a URL parser, and the password used to be printed whole. In development
// and production alike, the error and the log show neither password.
func TestMalformedSecretURLsHideTheirPasswords(t *testing.T) {
	env := map[string]string{
		"DATABASE_URL": "postgres//app:Sup3rSecretPw@host/x",
		"SMTP_URL":     "smtp//u:MailPw123@x",
	}
	for _, read := range []func(map[string]string) (Config, error){load, loadProduction} {
		_, err := read(env)
		if err == nil {
			t.Fatal("accepted")
		}
		msg := err.Error()
		for _, key := range []string{"DATABASE_URL=", "SMTP_URL="} {
			if !strings.Contains(msg, key) {
				t.Errorf("%s not named:\n%s", key, msg)
			}
		}
		for _, pw := range []string{"Sup3rSecretPw", "MailPw123"} {
			if strings.Contains(msg, pw) {
				t.Errorf("the error prints the password %s:\n%s", pw, msg)
			}
		}
		if !strings.Contains(msg, `"postgres//[redacted]@host/x"`) {
			t.Errorf("the typo should stay visible without the password:\n%s", msg)
		}
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://app:pw-1@db:5432/x?sslmode=require&password=pw-2": "postgres://[redacted]@db:5432/x?[redacted]",
		"postgres://db:5432/x":                 "postgres://db:5432/x",
		"postgres//app:pw-1@host/x":            "postgres//[redacted]@host/x",
		"smtp//u:pw-1@x":                       "smtp//[redacted]@x",
		"postgres://app:1234/pw-1@host/x":      "postgres://[redacted]@host/x",
		"postgres://a:pw-1@b@host/x":           "postgres://[redacted]@host/x",
		"host=db user=app password=pw-1":       "[redacted]",
		"postgres:app:pw-1@host?password=pw-2": "[redacted]@host?[redacted]",
		"pw-1//x@host":                         "[redacted]@host",
		"postgres://app:pw-1@db/x#pw-2":        "postgres://[redacted]@db/x",
		"":                                     "",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// Development keeps every stand-in make run and the tests use.
func TestDevelopmentAllowsTheStandIns(t *testing.T) {
	cfg, err := load(map[string]string{
		"OMNIBUS_ENV":        "development",
		"PAYMENTS_TEST_MODE": "1",
		"GOOGLE_CLIENT_ID":   "dev-client", "GOOGLE_CLIENT_SECRET": "dev-secret", "GOOGLE_ISSUER_URL": "http://127.0.0.1:8099/oidc",
		"RENDERER_DEV": "1",
	})
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Development() || cfg.PaymentMode() != PaymentsTestMode || cfg.PublicURL != "http://localhost:8080" {
		t.Errorf("development %v, payments %s, public URL %s", cfg.Development(), cfg.PaymentMode(), cfg.PublicURL)
	}
	if cfg, err := load(map[string]string{"STRIPE_SECRET_KEY": "sk_test_123", "STRIPE_WEBHOOK_SECRET": "whsec_x", "STRIPE_API_URL": "http://127.0.0.1:12111"}); err != nil || cfg.PaymentMode() != PaymentsStripe {
		t.Errorf("stripe-mock in development: %v", err)
	}
	if cfg := DevelopmentDefaults(); !cfg.Development() {
		t.Error("DevelopmentDefaults is not development")
	}
}

// The one-shot commands (migrate, healthcheck, purge, mail) parse every
// variable but do not apply production's refusals: the migrate step has the
// database URL and nothing else.
func TestCommandsSkipTheProductionRefusals(t *testing.T) {
	t.Setenv("OMNIBUS_ENV", "")
	t.Setenv("PUBLIC_URL", "")
	t.Setenv("SMTP_URL", "")
	t.Setenv("DATABASE_URL", "postgres://omnibus:Qm7vR2xK9pL4wT8s@db/omnibus")
	if _, err := LoadForCommand(); err != nil {
		t.Errorf("migrate's environment: %v", err)
	}
	t.Setenv("SESSION_TTL", "7d")
	if _, err := LoadForCommand(); err == nil || !strings.Contains(err.Error(), "SESSION_TTL") {
		t.Errorf("a bad value is still refused: %v", err)
	}
}

// The start-up log writes durations as Go duration strings, in JSON too
// (slog writes a time.Duration as nanoseconds there).
func TestLogValueDurationsAreReadable(t *testing.T) {
	var b bytes.Buffer
	slog.New(slog.NewJSONHandler(&b, nil)).Info("configuration", "config", DevelopmentDefaults())
	for _, want := range []string{`"SESSION_TTL":"168h0m0s"`, `"SHUTDOWN_TIMEOUT":"15s"`, `"DB_POOL_WAIT":"2s"`, `"OMNIBUS_ENV":"development"`, `"LOG_LEVEL":"INFO"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("log lacks %s:\n%s", want, b.String())
		}
	}
}

// Every secret row of the table, whatever form its value takes (valid or
// not, a URL or a token), is never printed: not in the start-up log, not in
// an error, in development or production. A row added later is covered.
func TestNoSecretSettingIsEverPrinted(t *testing.T) {
	const pw = "Sekr3tPassw0rd1234"
	forms := []string{
		"postgres://u:" + pw + "@db:5432/x", "smtps://u:" + pw + "@mail:465", "https://u:" + pw + "@host/x",
		"postgres//u:" + pw + "@db/x", "smtp//u:" + pw + "@mail", "db/x?password=" + pw,
		"sk_live_" + pw, "whsec_" + pw, pw, "CHANGE-ME-" + pw,
	}
	secrets := 0
	for _, s := range Settings {
		if !s.Secret {
			continue
		}
		secrets++
		for _, form := range forms {
			for _, read := range []func(map[string]string) (Config, error){load, loadProduction} {
				cfg, err := read(map[string]string{s.Name: form, "GOOGLE_CLIENT_ID": "x.apps.googleusercontent.com", "STRIPE_SECRET_KEY": "sk_live_" + pw, "STRIPE_WEBHOOK_SECRET": "whsec_" + pw})
				var b bytes.Buffer
				slog.New(slog.NewJSONHandler(&b, nil)).Info("configuration", "config", cfg)
				if err != nil {
					b.WriteString(err.Error())
				}
				if strings.Contains(b.String(), pw) {
					t.Errorf("%s=%q is printed:\n%s", s.Name, form, b.String())
				}
			}
		}
	}
	if secrets < 6 {
		t.Errorf("only %d secret settings in the table", secrets)
	}
}
