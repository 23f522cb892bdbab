package config

import (
	"net"
	"strconv"
	"strings"
)

// readEnv reads every setting of the table through lookup, then the checks
// that involve several variables and, when serving in production, the
// production refusals. The error names every problem at once.
func readEnv(lookup func(string) (string, bool), serving bool) (Config, error) {
	l := &loader{lookup: lookup, set: map[string]bool{}, failed: map[string]bool{}}
	var cfg Config
	for _, s := range Settings {
		s.load(l, &cfg)
	}
	if !l.set["RENDERER_METRICS_PORT"] {
		cfg.RendererMetricsPort = cfg.RendererPort + 1
	}
	l.together(cfg)
	refusedFrom := len(l.errs)
	if serving && !cfg.Development() {
		l.production(cfg)
	}
	if len(l.errs) == 0 {
		return cfg, nil
	}
	msg := "invalid configuration:\n  " + strings.Join(l.errs, "\n  ")
	if len(l.errs) > refusedFrom {
		msg += "\n(production, as OMNIBUS_ENV is " + shownEnv(l) + ": a development machine or a test sets OMNIBUS_ENV=development)"
	}
	return cfg, &Error{msg}
}

// Error is an invalid configuration: every problem, one per line.
type Error struct{ msg string }

func (e *Error) Error() string { return e.msg }

func shownEnv(l *loader) string {
	if l.set["OMNIBUS_ENV"] {
		return "production"
	}
	return "unset"
}

// together refuses settings that cannot work together, in any mode.
func (l *loader) together(c Config) {
	if c.MetricsAddr != "" && samePort(c.MetricsAddr, c.Addr) {
		l.fail("METRICS_ADDR", c.MetricsAddr, "a port other than LISTEN_ADDR's: metrics are never served on the public port")
	}
	if c.MetricsAddr != "" && c.RendererURL == "" && (c.RendererMetricsPort == c.RendererPort || c.RendererMetricsPort > 65535) {
		l.fail("RENDERER_METRICS_PORT", strconv.Itoa(c.RendererMetricsPort), "a TCP port other than RENDERER_PORT's")
	}
	switch {
	case c.StripeSecretKey != "" && !strings.HasPrefix(c.StripeSecretKey, "sk_") && !strings.HasPrefix(c.StripeSecretKey, "rk_"):
		l.fail("STRIPE_SECRET_KEY", redact(c.StripeSecretKey), "a Stripe secret key (sk_… or rk_…)")
	case c.StripeSecretKey != "" && c.StripeWebhookSecret == "":
		l.fail("STRIPE_WEBHOOK_SECRET", "", "set together with STRIPE_SECRET_KEY (payments could never be confirmed)")
	case c.StripeSecretKey == "" && c.StripeWebhookSecret != "":
		l.fail("STRIPE_SECRET_KEY", "", "set together with STRIPE_WEBHOOK_SECRET")
	case c.StripeSecretKey != "" && c.PaymentsTestMode:
		l.fail("PAYMENTS_TEST_MODE", "1", "off while STRIPE_SECRET_KEY is set (choose one)")
	}
	if c.GoogleClientSecret != "" && c.GoogleClientID == "" {
		l.fail("GOOGLE_CLIENT_SECRET", redact(c.GoogleClientSecret), "only together with GOOGLE_CLIENT_ID")
	}
}

// samePort reports whether two listen addresses use the same port.
func samePort(a, b string) bool {
	_, pa, errA := net.SplitHostPort(a)
	_, pb, errB := net.SplitHostPort(b)
	return errA == nil && errB == nil && pa == pb && pa != "0"
}
