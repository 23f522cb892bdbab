// Package accounts owns the visitor's account and session: registration,
// password sign-in (argon2id), server-side sessions in the database, the
// cross-site check on every state change, password reset by e-mail, store
// name availability, Google sign-in (popup code, ID-token credential and a
// no-JavaScript redirect flow), and the edge's redirect rules for /login and
// /register (SPEC §4, §6).
//
// Every endpoint takes JSON or a form post, read and answered through
// internal/exchange. JSON gets JSON (errors as {"errorDetail": "..."},
// plus "fieldErrors" by field when fields were refused: a registration tells
// every refusal at once, a taken e-mail and store name included); a form post (a page without JavaScript) gets a
// 303 to the page to show next. The sign-in forms post to their own pages
// (internal/forms), and a refusal there is the page again with what was
// typed and every error (a password only on the registration's page,
// decision 0061), as codes whose words the page
// reads from shared/content/auth.json, the same file the JSON answers use;
// any other refusal is JSON.
//
// The talk with Google's OpenID provider is googleid's. What stays here is
// one concern, the account, and why its parts are not packages of their
// own:
//
//   - sessions (session.go, device.go, pages.go): every way in (password,
//     Google, a reset, registration) ends by starting one and setting the
//     device cookie, and the redirect rules read the account's status;
//   - passwords, resets and e-mail verification (password.go, reset.go,
//     verify.go): a reset changes the Account row and ends its sessions in
//     one transaction, and the password rule reads the account's e-mail
//     and store name;
//   - the store-name step of onboarding (storename.go, storeform.go): the
//     name is a column of the account, checked with the e-mail when an
//     account is registered (handlers.go) and set later for a Google one.
//
// Apart, each would need the Account model, startSession and the refusal
// vocabulary (exchange.go) exported to the others; together they keep 27
// exported names.
package accounts

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/accounts/googleid"
	"omnibus/edge/internal/exchange"
	"omnibus/edge/internal/hashqueue"
	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/storage"
	"omnibus/shared"
)

// Sign-in statuses (omnicustomerStatus). A new account is StatusAccountCreated.
const (
	StatusAccountCreated  = "account_created"
	StatusPendingPayment  = "pending_initial_license_payment"
	contactPath           = "/contact-us"
	defaultMerchantAppURL = "/landing-page"
)

// MaxBody is the largest request body an endpoint reads (16 KB).
const MaxBody = exchange.MaxBody

// Account is one merchant account (table made by storage migration 3).
type Account struct {
	ID           uint64 `gorm:"primaryKey"`
	Name         string
	Email        string
	PasswordHash string
	StoreName    *string
	// StoreTitle is the store name as typed, StoreName the subdomain made
	// from it; '' for accounts made before migration 190.
	StoreTitle    string
	GoogleSubject *string
	Status        string
	// EmailVerifiedAt is when the address's owner proved it (a link sent to
	// it, or Google's verified e-mail); nil until then (migration 90).
	EmailVerifiedAt *time.Time
	// ReclaimedAt is when the address's proved owner took the account back
	// from an unproved registration (linkGoogle; migration 151).
	ReclaimedAt *time.Time
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// TableName keeps the model on migration 3's table.
func (Account) TableName() string { return "accounts" }

// Options configure the service (from config.Config).
type Options struct {
	// PublicURL is the site's origin: cookie security (https → Secure), the
	// trusted origin of the cross-site check, and the base of e-mailed links.
	PublicURL string
	// MerchantAppURL is where a signed-in merchant whose status is past
	// onboarding is sent (default /landing-page).
	MerchantAppURL string
	// SessionTTL is the idle time after which a session ends (default 7 days).
	SessionTTL time.Duration
	// Google sign-in; disabled when ClientID is empty.
	GoogleClientID     string
	GoogleClientSecret string
	GoogleIssuerURL    string
	// RateLimit keys the service's rate limits (RATE_LIMIT_MAX_KEYS,
	// RATE_LIMIT_IPV6_PREFIX; the zero value: the defaults).
	RateLimit ratelimit.Keys
}

// Service is the accounts API and the page middleware.
type Service struct {
	db     *storage.DB
	mail   mail.Sender
	opt    Options
	public *url.URL
	google *googleid.Provider // nil: Google sign-in is off

	// Rate limits, per client IP (request.ClientIP: what the server
	// middleware resolved) and, for logins, per client IP and account e-mail.
	LoginByIP, LoginByAccount *ratelimit.Limiter
	// LoginAnyAddress limits sign-ins to one account from every address
	// together, and LoginByDevice those of one known browser, which skips
	// the per-account limits (device.go).
	LoginAnyAddress, LoginByDevice *ratelimit.Limiter
	ResetByIP, ResetByAccount      *ratelimit.Limiter
	RegisterByIP, GoogleByIP       *ratelimit.Limiter
	AvailabilityByIP               *ratelimit.Limiter
	// ResendByAccount bounds the confirmation links one account may ask
	// for again (resendVerification).
	ResendByAccount *ratelimit.Limiter

	// Hashing bounds the password hashes running at once (memory: each
	// holds argon2's 19 MiB); past its queue deadline the answer is 503.
	Hashing *hashqueue.Queue

	// now is the clock (tests move it to expire sessions and links).
	now func() time.Time
	// background runs work the answer must not wait for (sending mail).
	background func(func())
	// devices is the device cookies' signing key (device.go).
	devices deviceKey
}

// New returns the service. sender may be nil when nothing is e-mailed (tests).
func New(db *storage.DB, sender mail.Sender, opt Options) *Service {
	if opt.MerchantAppURL == "" {
		opt.MerchantAppURL = defaultMerchantAppURL
	}
	if opt.SessionTTL <= 0 {
		opt.SessionTTL = 7 * 24 * time.Hour
	}
	if opt.GoogleIssuerURL == "" {
		opt.GoogleIssuerURL = "https://accounts.google.com"
	}
	pub, err := url.Parse(opt.PublicURL)
	if err != nil || pub.Host == "" {
		pub = &url.URL{Scheme: "http", Host: "localhost:8080"}
	}
	s := &Service{
		db: db, mail: sender, opt: opt, public: pub,
		LoginByIP:        loginByIP(opt.RateLimit, db),
		LoginByAccount:   opt.RateLimit.For(db, "login_account", 5, time.Minute),
		LoginAnyAddress:  opt.RateLimit.For(db, "login_account_any", 10, time.Minute),
		LoginByDevice:    opt.RateLimit.For(db, "login_device", 20, 3*time.Second),
		ResetByIP:        resetByIP(opt.RateLimit, db),
		ResetByAccount:   opt.RateLimit.For(db, "reset_account", 3, 10*time.Minute),
		RegisterByIP:     opt.RateLimit.For(db, "register_ip", 10, time.Minute),
		GoogleByIP:       opt.RateLimit.For(db, "google_ip", 20, 30*time.Second),
		AvailabilityByIP: opt.RateLimit.For(db, "availability_ip", 60, time.Second),
		ResendByAccount:  opt.RateLimit.For(db, "resend_account", 3, 10*time.Minute),
		Hashing:          hashqueue.New(hashqueue.Slots(argonMemory*1024), hashQueueDeadline, hashQueueWaiting),
		now:              func() time.Time { return time.Now().UTC() },
		background:       func(f func()) { go f() },
	}
	if opt.GoogleClientID != "" {
		s.google = googleid.New(opt.GoogleIssuerURL, opt.GoogleClientID, opt.GoogleClientSecret)
	}
	return s
}

// The sign-in forms' ids in shared/routes.json: the pages that take them
// posted without JavaScript (internal/forms).
const (
	formLogin    = "login"
	formRegister = "register"
	formForgot   = "forgot-password"
	formReset    = "reset-password"
)

// Forms are the handlers of the sign-in forms by id, with the cross-site
// check: the endpoints' own, which their pages take their posts with too.
func (s *Service) Forms() map[string]echo.HandlerFunc {
	return map[string]echo.HandlerFunc{
		formLogin:    s.sameOrigin(s.login),
		formRegister: s.sameOrigin(s.register),
		formForgot:   s.sameOrigin(s.forgotPassword),
		formReset:    s.sameOrigin(s.resetPassword),
		// The store-name step of an account made by Google sign-in (/choose-plan).
		formStoreName: s.sameOrigin(s.nameStore),
	}
}

// Register adds the endpoints to g, the /api/v1 group.
func (s *Service) Register(g *echo.Group) {
	guard := s.sameOrigin
	g.POST("/oaccount/register", s.register, guard)
	g.POST("/oaccount/login", s.login, guard)
	g.POST("/oaccount/logout", s.logout, guard)
	g.GET("/oaccount/isloggedin", s.isLoggedIn)
	g.POST("/hq/account/seller/login", s.login, guard)
	g.POST("/hq/account/seller/logout", s.logout, guard)
	g.GET("/hq/account/seller/isloggedin", s.isLoggedIn)
	g.POST("/hq/oaccount/forgotPassword", s.forgotPassword, guard)
	g.POST("/hq/oaccount/resetPassword", s.resetPassword, guard)
	g.GET("/onboarding/check-omnidomain-availability", s.checkAvailability)
	g.POST("/oaccount/signin/google", s.googleSignIn, guard)
	g.GET("/oaccount/sso-redirect/google", s.googleRedirect)
	g.GET("/oaccount/verify-email", s.verifyEmail)
	g.POST("/oaccount/verify-email/resend", s.resendVerification, guard)
	g.POST("/oaccount/store-name", s.nameStore, guard)
}

// Destination is where a signed-in visitor of the given status belongs
// (SPEC §4): onboarding statuses to /contact-us, any other to the merchant app.
func (s *Service) Destination(status string) string {
	if status == StatusAccountCreated || status == StatusPendingPayment {
		return contactPath
	}
	return s.opt.MerchantAppURL
}

// Message codes: the keys of messages in shared/content/auth.json.
const (
	codeMalformed             = "malformed"
	codeTooLarge              = "tooLarge"
	codeRateLimited           = "rateLimited"
	codeCrossSite             = "crossSite"
	codeUnavailable           = "unavailable"
	codeNameRequired          = "nameRequired"
	codeNameTooLong           = "nameTooLong"
	codeEmailRequired         = "emailRequired"
	codePasswordChanged       = "passwordChanged"
	codeEmailInvalid          = "emailInvalid"
	codeEmailTaken            = "emailTaken"
	codePasswordRequired      = "passwordRequired"
	codePasswordTooShort      = "passwordTooShort"
	codePasswordTooLong       = "passwordTooLong"
	codePasswordCommon        = "passwordCommon"
	codePasswordIsEmail       = "passwordIsEmail"
	codeStoreNameRequired     = "storeNameRequired"
	codeStoreNameTooShort     = "storeNameTooShort"
	codeStoreNameTooLong      = "storeNameTooLong"
	codeStoreNameReserved     = "storeNameReserved"
	codeStoreNameTaken        = "storeNameTaken"
	codeStoreNameAvailable    = "storeNameAvailable"
	codeInvalidCredentials    = "invalidCredentials"
	codeResetSent             = "resetSent"
	codeResetInvalid          = "resetInvalid"
	codeGoogleUnavailable     = "googleUnavailable"
	codeGoogleFailed          = "googleFailed"
	codeGoogleMissing         = "googleMissing"
	codeGoogleEmailUnverified = "googleEmailUnverified"
	codeGoogleLinkedElsewhere = "googleLinkedElsewhere"
	codeBusy                  = "busy"
	codeNameInvalid           = "nameInvalid"
	codeStoreNameInvalid      = "storeNameInvalid"
	codeVerifySent            = "verifySent"
	codeVerifyInvalid         = "verifyInvalid"
	codeVerified              = "verified"
	codeUnsupportedType       = "unsupportedType"
	codeReclaimed             = "reclaimed"
	codeStoreNameSet          = "storeNameSet"
)

// content is shared/content/auth.json, read once.
var content = func() (c struct {
	Messages    map[string]string `json:"messages"`
	ResetEmail  mailTemplate      `json:"resetEmail"`
	VerifyEmail mailTemplate      `json:"verifyEmail"`
}) {
	if err := json.Unmarshal(shared.AuthJSON, &c); err != nil {
		panic("accounts: shared/content/auth.json: " + err.Error())
	}
	for _, k := range []string{codeMalformed, codeTooLarge, codeRateLimited, codeCrossSite, codeUnavailable,
		codeNameRequired, codeNameTooLong, codeEmailRequired, codeEmailInvalid, codeEmailTaken,
		codePasswordRequired, codePasswordTooShort, codePasswordTooLong, codePasswordCommon, codePasswordIsEmail,
		codeStoreNameRequired, codeStoreNameTooShort, codeStoreNameTooLong, codeStoreNameReserved, codeStoreNameTaken,
		codeStoreNameAvailable, codeInvalidCredentials, codeResetSent, codeResetInvalid, codeGoogleUnavailable,
		codeGoogleFailed, codeGoogleMissing, codeGoogleEmailUnverified, codeGoogleLinkedElsewhere,
		codeBusy, codeNameInvalid, codeStoreNameInvalid, codeVerifySent, codeVerifyInvalid, codeVerified, codeUnsupportedType, codeReclaimed, codeStoreNameSet} {
		if c.Messages[k] == "" {
			panic("accounts: shared/content/auth.json has no message " + k)
		}
	}
	if c.ResetEmail.Subject == "" || !strings.Contains(c.ResetEmail.Body, "{link}") ||
		c.VerifyEmail.Subject == "" || !strings.Contains(c.VerifyEmail.Body, "{link}") {
		panic("accounts: shared/content/auth.json: resetEmail and verifyEmail need a subject and a body with {link}")
	}
	return c
}()

// mailTemplate is an e-mail's subject and body with {name} and {link}.
type mailTemplate struct {
	Subject string `json:"subject"`
	Body    string `json:"body"`
}

// Message is the words for a code (exported for tests and other packages).
func Message(code string) string { return content.Messages[code] }

// problem is a refused request: its status, message code and invalid
// fields (internal/exchange answers it).
type problem = exchange.Refusal

func fail(status int, code string) *problem { return &problem{Status: status, Code: code} }

var errUnavailable = fail(http.StatusServiceUnavailable, codeUnavailable)

// Per-address limits of sign-in and reset: an office of about
// twenty people behind one address (NAT, a proxy) never meets them — each
// signing in and asking a reset link at the same morning minute, some
// mistyping twice — while a guesser from one address is still slowed, and
// the per-account limits (LoginByAccount, ResetByAccount) stop guessing or
// mail bombing of any one account whatever the address.
//
//   - sign-in: 100 at once, then one every 3 s (1,200 an hour);
//   - reset: 60 at once, then one every 10 s (360 an hour).
func loginByIP(keys ratelimit.Keys, db *storage.DB) *ratelimit.Limiter {
	return keys.For(db, "login_ip", 100, 3*time.Second)
}

func resetByIP(keys ratelimit.Keys, db *storage.DB) *ratelimit.Limiter {
	return keys.For(db, "reset_ip", 60, 10*time.Second)
}
