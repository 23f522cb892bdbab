package config

import (
	"fmt"
	"net/url"
	"strings"
)

// minSecretLen is the shortest secret production accepts: tokens, keys
// (after their sk_live_/whsec_ prefix) and the passwords inside
// DATABASE_URL and SMTP_URL. `openssl rand -hex 16` makes 32 characters.
const minSecretLen = 16

// placeholderMarks are words found in example values and never in a real
// secret (compared in lower case, without - and _).
var placeholderMarks = []string{"changeme", "replaceme", "placeholder", "yoursecret", "yourpassword", "xxxx"}

// production refuses, when serving without OMNIBUS_ENV=development, every
// setting that would put a development stand-in in front of visitors or
// that is a placeholder where a secret belongs. A variable already
// reported as malformed is not reported again.
func (l *loader) production(c Config) {
	refuse := func(key, value, want string) {
		if !l.failed[key] {
			l.fail(key, value, want)
		}
	}
	switch u, _ := url.Parse(c.PublicURL); {
	case !l.set["PUBLIC_URL"]:
		refuse("PUBLIC_URL", "", "the site's public https origin, such as https://omnibus.example (unset, it is http://localhost:8080: links, cookies and payments of a development machine)")
	case isLoopback(u.Hostname()):
		refuse("PUBLIC_URL", c.PublicURL, "the site's public https origin, not a loopback address")
	case u.Scheme != "https":
		refuse("PUBLIC_URL", c.PublicURL, "https in production (http loses Secure cookies and HSTS)")
	}
	if c.PaymentsTestMode {
		refuse("PAYMENTS_TEST_MODE", "1", "unset in production: the test-mode page confirms orders without taking money")
	}
	if c.StripeAPIURL != "" {
		refuse("STRIPE_API_URL", c.StripeAPIURL, "unset in production: it replaces Stripe's API (stripe-mock)")
	}
	if c.SMTPURL == "" {
		refuse("SMTP_URL", "", "an SMTP server in production: without one, confirmation and password-reset mail never leaves the mail_outbox table")
	}
	if u, err := url.Parse(c.GoogleIssuerURL); err != nil || isLoopback(u.Hostname()) {
		refuse("GOOGLE_ISSUER_URL", c.GoogleIssuerURL, "a real OpenID provider in production (the local one signs in anyone)")
	}
	if c.RendererDev {
		refuse("RENDERER_DEV", "1", "unset in production: it runs the renderer's Vite development server")
	}

	// Secrets: none a placeholder, too short or a well-known test key.
	for _, s := range []struct{ key, value, shown string }{
		{"CACHE_PURGE_TOKEN", c.CachePurgeToken, redact(c.CachePurgeToken)},
		{"GOOGLE_CLIENT_SECRET", c.GoogleClientSecret, redact(c.GoogleClientSecret)},
		{"STRIPE_SECRET_KEY", c.StripeSecretKey, redact(c.StripeSecretKey)},
		{"STRIPE_WEBHOOK_SECRET", c.StripeWebhookSecret, redact(c.StripeWebhookSecret)},
		{"DATABASE_URL", password(c.DatabaseURL), redactURL(c.DatabaseURL)},
		{"SMTP_URL", password(c.SMTPURL), redactURL(c.SMTPURL)},
	} {
		if problem := weakSecret(s.key, s.value); problem != "" {
			refuse(s.key, s.shown, problem)
		}
	}
}

// weakSecret says what is wrong with a secret in production, or "" when
// nothing is (or it is unset: an unset secret turns its feature off, or is
// reported by the check that needs it).
func weakSecret(key, v string) string {
	if v == "" {
		return ""
	}
	squashed := strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(v))
	for _, m := range placeholderMarks {
		if strings.Contains(squashed, m) {
			return "a real secret, not a placeholder (it contains " + strings.ToUpper(m) + ")"
		}
	}
	body := v
	switch key {
	case "STRIPE_SECRET_KEY":
		if strings.HasPrefix(v, "sk_test_") || strings.HasPrefix(v, "rk_test_") {
			return "a live key (sk_live_… or rk_live_…) in production: a test key takes no money"
		}
		body = strings.TrimPrefix(strings.TrimPrefix(v, "sk_live_"), "rk_live_")
	case "STRIPE_WEBHOOK_SECRET":
		body = strings.TrimPrefix(v, "whsec_")
	}
	if len(body) < minSecretLen {
		return fmt.Sprintf("a real secret of at least %d characters in production (this one is too short to be one)", minSecretLen)
	}
	return ""
}

// password is the password inside a URL, or "" when it has none.
func password(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return ""
	}
	p, _ := u.User.Password()
	return p
}
