// Package googleid is Google sign-in's conversation with the OpenID
// provider (Google, or the local provider of make run and the tests): the
// provider's discovery on first use, a code's exchange and an ID token's
// verification by go-oidc (signature by the issuer's keys, issuer,
// audience, expiry, then email_verified). What the identity is then worth,
// the account it signs in to, is internal/accounts' rule.
package googleid

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"omnibus/edge/internal/validation"
)

// Why a sign-in got no identity.
var (
	// ErrUnavailable: the provider could not be discovered.
	ErrUnavailable = errors.New("googleid: the provider is unavailable")
	// ErrRefused: the code or the ID token was refused.
	ErrRefused = errors.New("googleid: refused")
	// ErrEmailUnverified: the token is good, its e-mail address unproved.
	ErrEmailUnverified = errors.New("googleid: the e-mail address is not verified")
)

// Identity is what a verified ID token says about the visitor: the
// subject, the e-mail address as the provider wrote it, and the name
// (cleaned of control and invisible characters).
type Identity struct {
	Subject string
	Email   string
	Name    string
}

// Provider is one client of one OpenID provider.
type Provider struct {
	issuer, clientID, secret string
	client                   *http.Client

	mu       sync.Mutex
	provider *oidc.Provider
}

// New is the client clientID (with its secret) of the provider at issuer.
func New(issuer, clientID, secret string) *Provider {
	return &Provider{issuer: issuer, clientID: clientID, secret: secret, client: &http.Client{Timeout: 10 * time.Second}}
}

// load discovers the provider on first use (not at start: the edge must boot
// while the provider is unreachable) and keeps it once found.
func (g *Provider) load(ctx context.Context) (*oidc.Provider, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.provider != nil {
		return g.provider, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	p, err := oidc.NewProvider(oidc.ClientContext(ctx, g.client), g.issuer)
	if err != nil {
		return nil, err
	}
	g.provider = p
	return p, nil
}

// loaded is load, logging a failure as ErrUnavailable.
func (g *Provider) loaded(ctx context.Context) (*oidc.Provider, error) {
	p, err := g.load(ctx)
	if err != nil {
		slog.WarnContext(ctx, "accounts: google discovery", "err", err)
		return nil, ErrUnavailable
	}
	return p, nil
}

func (g *Provider) config(p *oidc.Provider, redirectURL string) *oauth2.Config {
	ep := p.Endpoint()
	// Client secret in the form body: Google takes it either way; some
	// providers (and the local test provider) only there.
	ep.AuthStyle = oauth2.AuthStyleInParams
	return &oauth2.Config{
		ClientID: g.clientID, ClientSecret: g.secret, Endpoint: ep, RedirectURL: redirectURL,
		Scopes: []string{oidc.ScopeOpenID, "email", "profile"},
	}
}

// AuthCodeURL is where the browser is sent to sign in, returning to
// redirectURL with state (opts: the PKCE challenge).
func (g *Provider) AuthCodeURL(ctx context.Context, redirectURL, state string, opts ...oauth2.AuthCodeOption) (string, error) {
	p, err := g.loaded(ctx)
	if err != nil {
		return "", err
	}
	return g.config(p, redirectURL).AuthCodeURL(state, opts...), nil
}

// Verify checks a raw ID token and reads its claims.
func (g *Provider) Verify(ctx context.Context, raw string) (*Identity, error) {
	p, err := g.loaded(ctx)
	if err != nil {
		return nil, err
	}
	tok, err := p.Verifier(&oidc.Config{ClientID: g.clientID}).Verify(oidc.ClientContext(ctx, g.client), raw)
	if err != nil {
		slog.InfoContext(ctx, "accounts: google ID token refused", "err", err)
		return nil, ErrRefused
	}
	var c struct {
		Email         string          `json:"email"`
		EmailVerified json.RawMessage `json:"email_verified"`
		Name          string          `json:"name"`
	}
	if err := tok.Claims(&c); err != nil {
		return nil, ErrRefused
	}
	// Google has sent email_verified as true and as "true".
	if v := strings.Trim(string(c.EmailVerified), `"`); v != "true" {
		return nil, ErrEmailUnverified
	}
	if tok.Subject == "" {
		return nil, ErrRefused
	}
	return &Identity{Subject: tok.Subject, Email: c.Email, Name: strings.TrimSpace(validation.Clean(c.Name))}, nil
}

// Exchange trades a code for tokens and verifies the ID token.
func (g *Provider) Exchange(ctx context.Context, code, redirectURL string, opts ...oauth2.AuthCodeOption) (*Identity, error) {
	p, err := g.loaded(ctx)
	if err != nil {
		return nil, err
	}
	tok, err := g.config(p, redirectURL).Exchange(context.WithValue(ctx, oauth2.HTTPClient, g.client), code, opts...)
	if err != nil {
		slog.InfoContext(ctx, "accounts: google code exchange", "err", err)
		return nil, ErrRefused
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return nil, ErrRefused
	}
	return g.Verify(ctx, raw)
}
