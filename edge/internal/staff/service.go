package staff

import (
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/go-webauthn/webauthn/webauthn"

	"omnibus/edge/internal/audit"
	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/storage"
)

// Defaults of the settings (edge/internal/config: STAFF_SESSION_TTL,
// STAFF_RECHECK_WINDOW, STAFF_ENROL_WINDOW).
const (
	DefaultSessionTTL    = 8 * time.Hour
	DefaultRecheckWindow = 5 * time.Minute
	DefaultEnrolWindow   = 10 * time.Minute
)

// Options configure the service.
type Options struct {
	// PublicURL is the site's origin: the passkeys' relying party (its host
	// is the RP ID, the origin the only one accepted), cookie security, the
	// origin of the cross-site check.
	PublicURL string
	// SessionTTL is a studio session's whole life (not idle time).
	SessionTTL time.Duration
	// RecheckWindow is how long a second-factor ceremony counts as fresh
	// for publishing, granting and revoking.
	RecheckWindow time.Duration
	// EnrolWindow is how recent the merchant sign-in (password or Google)
	// must be to enrol a passkey or TOTP.
	EnrolWindow time.Duration
	// Account is the signed-in merchant account of a request and when it
	// signed in (accounts.Service.SignedIn); nil: nobody is signed in.
	Account func(http.ResponseWriter, *http.Request) (id uint64, signedInAt time.Time, ok bool)
	// Mail sends the enrolment notices (nil: none sent; tests).
	Mail   mail.Sender
	Logger *slog.Logger
	// RateLimit keys the second-factor limits (the zero value: the
	// defaults).
	RateLimit ratelimit.Keys
}

// Service is the studio's access: members, sessions, second factors, the
// middleware and the endpoints.
type Service struct {
	db      *storage.DB
	opt     Options
	public  *url.URL
	log     *slog.Logger
	Members *Directory
	Audit   *audit.Log
	now     func() time.Time
	rp      *webauthn.WebAuthn

	// Second-factor guesses (passkey answers, TOTP and recovery codes),
	// per member and per client address. Only a member's own first factor
	// (their merchant session) reaches the per-member one, so a stranger
	// cannot spend a member's allowance.
	FactorByMember, FactorByIP *ratelimit.Limiter
}

// New is the service on db.
func New(db *storage.DB, opt Options) *Service {
	if opt.SessionTTL <= 0 {
		opt.SessionTTL = DefaultSessionTTL
	}
	if opt.RecheckWindow <= 0 {
		opt.RecheckWindow = DefaultRecheckWindow
	}
	if opt.EnrolWindow <= 0 {
		opt.EnrolWindow = DefaultEnrolWindow
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	pub, err := url.Parse(opt.PublicURL)
	if err != nil || pub.Host == "" {
		pub = &url.URL{Scheme: "http", Host: "localhost:8080"}
		opt.PublicURL = pub.String()
	}
	s := &Service{db: db, opt: opt, public: pub, log: opt.Logger, Members: NewDirectory(db), Audit: audit.New(db),
		now:            func() time.Time { return time.Now().UTC() },
		FactorByMember: opt.RateLimit.For(db, "staff_factor_member", 10, 30*time.Second),
		FactorByIP:     opt.RateLimit.For(db, "staff_factor_ip", 60, 5*time.Second),
	}
	rp, err := relyingParty(pub)
	if err != nil {
		// An RP ID must be a domain: PUBLIC_URL on an IP address (some
		// tests) has no passkeys, and their ceremonies answer 503.
		s.log.Warn("staff: no passkeys: PUBLIC_URL's host cannot be a WebAuthn relying party", "public_url", pub.String(), "err", err)
	}
	s.rp = rp
	return s
}

// SetClock replaces the service's clock (tests move it to expire sessions).
func (s *Service) SetClock(now func() time.Time) {
	s.now = now
	s.Members.now = now
}

// RoleOf is the role of the request's studio session; None without one
// (or when the session cannot be read).
func (s *Service) RoleOf(r *http.Request) Role {
	sess, err := s.current(r.Context(), r)
	if err != nil || sess == nil {
		return None
	}
	return sess.Member.Role
}

// PageAccess decides a staff page (the insights, drawn by the edge) for a
// request: allowed with a studio session of at least min; a signed-in
// merchant who is staff but has no studio session is sent to the sign-in
// page (the studio asks for the passkey); everyone else gets the site's
// 404 page (allowed and answered false), which reveals nothing.
func (s *Service) PageAccess(min Role) func(http.ResponseWriter, *http.Request) (allowed, answered bool) {
	return func(w http.ResponseWriter, r *http.Request) (bool, bool) {
		sess, err := s.current(r.Context(), r)
		if err != nil {
			s.log.ErrorContext(r.Context(), "staff: session lookup", "err", err)
			return false, false
		}
		if sess != nil && sess.Member.Role >= min {
			return true, false
		}
		if sess != nil || s.opt.Account == nil {
			return false, false
		}
		id, _, ok := s.opt.Account(nil, r)
		if !ok {
			return false, false
		}
		m, err := s.Members.Lookup(r.Context(), id)
		if err != nil || m.Role < min {
			return false, false
		}
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, SignInPath+"?next="+url.QueryEscape(r.URL.Path), http.StatusSeeOther)
		return false, true
	}
}
