package accounts

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// oidcProvider is a local OpenID Connect provider standing in for Google in
// these tests: discovery, keys, an authorization endpoint that signs in the
// queued user at once, and a token endpoint that redeems each code once
// (checking the client's secret and the PKCE verifier). It signs with
// go-jose, the library go-oidc verifies with, so the production module needs
// no mock provider (the development one, devtools/cmd/oidcdev, lives in its
// own module).
type oidcProvider struct {
	srv                    *httptest.Server
	key                    *rsa.PrivateKey
	signer                 jose.Signer
	ClientID, ClientSecret string

	mu    sync.Mutex
	queue []*oidcUser
	codes map[string]grant
}

type oidcUser struct {
	Subject, Email string
	EmailVerified  bool
}

// grant is what a code stands for until it is redeemed.
type grant struct {
	user                   *oidcUser
	redirectURI, challenge string
}

func provider(t *testing.T) *oidcProvider {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: "test"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := &oidcProvider{key: key, signer: signer, ClientID: "test-client", ClientSecret: "test-secret", codes: map[string]grant{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /oidc/.well-known/openid-configuration", m.discovery)
	mux.HandleFunc("GET /oidc/jwks", m.keys)
	mux.HandleFunc("GET /oidc/authorize", m.authorize)
	mux.HandleFunc("POST /oidc/token", m.token)
	m.srv = httptest.NewServer(mux)
	t.Cleanup(m.srv.Close)
	return m
}

func (m *oidcProvider) Issuer() string                { return m.srv.URL + "/oidc" }
func (m *oidcProvider) AuthorizationEndpoint() string { return m.Issuer() + "/authorize" }

// QueueUser makes user the one the next authorization signs in.
func (m *oidcProvider) QueueUser(user *oidcUser) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.queue = append(m.queue, user)
}

func (m *oidcProvider) discovery(w http.ResponseWriter, _ *http.Request) {
	providerJSON(w, http.StatusOK, map[string]any{
		"issuer":                                m.Issuer(),
		"authorization_endpoint":                m.AuthorizationEndpoint(),
		"token_endpoint":                        m.Issuer() + "/token",
		"jwks_uri":                              m.Issuer() + "/jwks",
		"response_types_supported":              []string{"code"},
		"subject_types_supported":               []string{"public"},
		"id_token_signing_alg_values_supported": []string{"RS256"},
	})
}

func (m *oidcProvider) keys(w http.ResponseWriter, _ *http.Request) {
	providerJSON(w, http.StatusOK, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &m.key.PublicKey, KeyID: "test", Algorithm: "RS256", Use: "sig"}}})
}

func (m *oidcProvider) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("client_id") != m.ClientID || q.Get("response_type") != "code" {
		http.Error(w, "bad authorization request", http.StatusBadRequest)
		return
	}
	m.mu.Lock()
	user := &oidcUser{Subject: "default", Email: "jane.doe@example.com", EmailVerified: true}
	if len(m.queue) > 0 {
		user, m.queue = m.queue[0], m.queue[1:]
	}
	code := rand.Text()
	m.codes[code] = grant{user: user, redirectURI: q.Get("redirect_uri"), challenge: q.Get("code_challenge")}
	m.mu.Unlock()
	back, err := url.Parse(q.Get("redirect_uri"))
	if err != nil {
		http.Error(w, "bad redirect_uri", http.StatusBadRequest)
		return
	}
	if back.Scheme == "" { // "postmessage": Google's popup hands the code to the page
		back = &url.URL{Path: "/postmessage"}
	}
	bq := back.Query()
	bq.Set("code", code)
	bq.Set("state", q.Get("state"))
	back.RawQuery = bq.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (m *oidcProvider) token(w http.ResponseWriter, r *http.Request) {
	id, secret, ok := r.BasicAuth()
	if !ok {
		id, secret = r.PostFormValue("client_id"), r.PostFormValue("client_secret")
	}
	code := r.PostFormValue("code")
	m.mu.Lock()
	g, found := m.codes[code]
	delete(m.codes, code)
	m.mu.Unlock()
	bad := id != m.ClientID || secret != m.ClientSecret || !found || r.PostFormValue("redirect_uri") != g.redirectURI
	if found && g.challenge != "" {
		sum := sha256.Sum256([]byte(r.PostFormValue("code_verifier")))
		bad = bad || base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge
	}
	if bad {
		providerJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
		return
	}
	tok, err := m.idToken(g.user, m.ClientID, time.Now())
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	providerJSON(w, http.StatusOK, map[string]any{"access_token": rand.Text(), "token_type": "Bearer", "expires_in": 3600, "id_token": tok})
}

// idToken is an ID token for user, for audience aud, issued at iat, valid for an hour.
func (m *oidcProvider) idToken(user *oidcUser, aud string, iat time.Time) (string, error) {
	return jwt.Signed(m.signer).Claims(jwt.Claims{
		Issuer:   m.Issuer(),
		Subject:  user.Subject,
		Audience: jwt.Audience{aud},
		IssuedAt: jwt.NewNumericDate(iat),
		Expiry:   jwt.NewNumericDate(iat.Add(time.Hour)),
	}).Claims(map[string]any{"email": user.Email, "email_verified": user.EmailVerified}).Serialize()
}

func providerJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
