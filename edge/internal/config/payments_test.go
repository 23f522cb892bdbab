package config

import (
	"strings"
	"testing"
)

// Payments and Google never fall back to a development stand-in silently
// outside development: the test-mode page only when asked for, the local
// OpenID provider and a Stripe API stand-in refused.
func TestPaymentMode(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		mode string
	}{
		{map[string]string{}, PaymentsTestMode}, // make run: development
		{map[string]string{"PAYMENTS_TEST_MODE": "1"}, PaymentsTestMode},
		{map[string]string{"STRIPE_SECRET_KEY": "sk_test_x", "STRIPE_WEBHOOK_SECRET": "whsec_x"}, PaymentsStripe},
		{production(nil), PaymentsOff},
		{production(map[string]string{"STRIPE_SECRET_KEY": liveKey, "STRIPE_WEBHOOK_SECRET": webhookSecret}), PaymentsStripe},
	} {
		cfg, err := load(c.env)
		if err != nil || cfg.PaymentMode() != c.mode {
			t.Errorf("%v: mode %q err %v, want %q", c.env, cfg.PaymentMode(), err, c.mode)
		}
	}
}

func TestPaymentAndGoogleRefusals(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"STRIPE_SECRET_KEY": "sk_live_x"}, "STRIPE_WEBHOOK_SECRET"},
		{map[string]string{"STRIPE_WEBHOOK_SECRET": "whsec_x"}, "STRIPE_SECRET_KEY"},
		{map[string]string{"STRIPE_SECRET_KEY": "pk_live_x", "STRIPE_WEBHOOK_SECRET": "whsec_x"}, "STRIPE_SECRET_KEY"},
		{map[string]string{"STRIPE_SECRET_KEY": "sk_live_x", "STRIPE_WEBHOOK_SECRET": "whsec_x", "PAYMENTS_TEST_MODE": "1"}, "PAYMENTS_TEST_MODE"},
		{production(map[string]string{"STRIPE_SECRET_KEY": liveKey, "STRIPE_WEBHOOK_SECRET": webhookSecret, "STRIPE_API_URL": "http://127.0.0.1:12111"}), "STRIPE_API_URL"},
		{production(map[string]string{"GOOGLE_CLIENT_ID": "dev-client", "GOOGLE_ISSUER_URL": "http://127.0.0.1:8099/oidc"}), "GOOGLE_ISSUER_URL"},
	} {
		_, err := load(c.env)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err %v, want one naming %s", c.env, err, c.want)
		}
		if err != nil && (strings.Contains(err.Error(), "sk_live_x") || strings.Contains(err.Error(), liveKey)) {
			t.Errorf("the error shows the secret key: %v", err)
		}
	}
	// The local provider is fine in development (make run).
	if _, err := load(map[string]string{"GOOGLE_CLIENT_ID": "dev-client", "GOOGLE_ISSUER_URL": "http://127.0.0.1:8099/oidc"}); err != nil {
		t.Fatal(err)
	}
}
