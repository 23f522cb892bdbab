package accounts

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/oauth2"
	"gorm.io/gorm"

	"omnibus/edge/internal/accounts/googleid"
	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/storage"
)

// Google sign-in (SPEC §7). Three ways in, one account rule:
//
//   - popup code flow: @react-oauth/google's useGoogleLogin({flow:
//     'auth-code'}) hands the page a code, posted as {code}; the edge
//     exchanges it (redirect_uri "postmessage", as Google wants for popups);
//   - credential: the GoogleLogin button's ID token, posted as its credential
//     response {credential, clientId, select_by};
//   - no JavaScript: GET /api/v1/oaccount/sso-redirect/google sends the
//     browser to the provider with state and PKCE (S256); the provider
//     returns to /sso-redirect?code=…&state=…, which the edge answers itself
//     (Pages middleware) before any page renders.
//
// Every ID token is verified by go-oidc: signature by the issuer's keys,
// issuer, audience (our client id), expiry; then email_verified must be
// true (internal/accounts/googleid, which talks to the provider). The account is the one linked to the Google subject, else the one
// with the same e-mail (then linked), else a new one (account_created).

const (
	// popupRedirectURI is the redirect_uri of codes from Google's popup.
	popupRedirectURI = "postmessage"
	// ssoCookie carries the redirect flow's state and PKCE verifier between
	// the start and /sso-redirect, binding the flow to this browser.
	ssoCookie   = "omnibus_sso"
	ssoCallback = "/sso-redirect"
	ssoTTL      = 10 * time.Minute
)

// identity is a verified Google identity, its e-mail address in the one
// form accounts keep (normaliseEmail).
type identity struct {
	Subject string
	Email   string
	Name    string
}

// identityOf reads what the provider said (internal/accounts/googleid) as
// the account rule needs it, or the refusal the visitor is told.
func identityOf(id *googleid.Identity, err error) (*identity, *problem) {
	switch {
	case errors.Is(err, googleid.ErrUnavailable):
		return nil, fail(http.StatusServiceUnavailable, codeGoogleUnavailable)
	case errors.Is(err, googleid.ErrEmailUnverified):
		return nil, fail(http.StatusForbidden, codeGoogleEmailUnverified)
	case err != nil:
		return nil, fail(http.StatusUnauthorized, codeGoogleFailed)
	}
	email, code := normaliseEmail(id.Email)
	if code != "" {
		return nil, fail(http.StatusUnauthorized, codeGoogleFailed)
	}
	return &identity{Subject: id.Subject, Email: email, Name: id.Name}, nil
}

// googleSignIn: POST /oaccount/signin/google with {code} (popup code flow)
// or the credential response {credential, clientId, select_by}.
func (s *Service) googleSignIn(c echo.Context) error {
	if s.google == nil {
		return refuse(c, fail(http.StatusServiceUnavailable, codeGoogleUnavailable), forms.State{})
	}
	if ok, wait := s.GoogleByIP.Allow(c.Request().Context(), s.GoogleByIP.Client(c.Request())); !ok {
		return limited(c, wait, forms.State{})
	}
	f, p := read(c)
	if p != nil {
		return refuse(c, p, forms.State{})
	}
	ctx := c.Request().Context()
	var id *identity
	switch {
	case f["code"] != "":
		id, p = identityOf(s.google.Exchange(ctx, f["code"], popupRedirectURI))
	case f["credential"] != "":
		id, p = identityOf(s.google.Verify(ctx, f["credential"]))
	default:
		p = fail(http.StatusBadRequest, codeGoogleMissing)
	}
	if p != nil {
		return refuse(c, p, forms.State{})
	}
	acct, p := s.googleAccount(ctx, id)
	if p != nil {
		return refuse(c, p, forms.State{})
	}
	if err := s.startSession(ctx, c.Response(), c.Request(), acct); err != nil {
		slog.ErrorContext(ctx, "accounts: session after google", "err", err)
		return refuse(c, errUnavailable, forms.State{})
	}
	s.setDeviceCookie(c.Response(), c.Request(), acct.Email)
	return s.signedIn(c, http.StatusOK, acct)
}

// googleRedirect: GET /oaccount/sso-redirect/google starts the no-JS flow.
func (s *Service) googleRedirect(c echo.Context) error {
	noStore(c.Response())
	if s.google == nil {
		return c.Redirect(http.StatusSeeOther, "/login?error="+codeGoogleUnavailable)
	}
	state := randomString()
	verifier := oauth2.GenerateVerifier()
	u, err := s.google.AuthCodeURL(c.Request().Context(), s.callbackURL(), state, oauth2.S256ChallengeOption(verifier))
	if err != nil {
		return c.Redirect(http.StatusSeeOther, "/login?error="+codeGoogleUnavailable)
	}
	http.SetCookie(c.Response(), &http.Cookie{
		Name: ssoCookie, Value: state + "." + verifier, Path: ssoCallback,
		MaxAge: int(ssoTTL / time.Second), HttpOnly: true, Secure: s.secure(), SameSite: http.SameSiteLaxMode,
	})
	return c.Redirect(http.StatusFound, u)
}

func (s *Service) callbackURL() string { return s.public.JoinPath(ssoCallback).String() }

// googleCallback answers /sso-redirect?code=…&state=… (or ?error=…): checks
// the state against this browser's cookie, exchanges the code with the PKCE
// verifier, signs in and sends the visitor where the rules say, or back to
// /login with an error code.
func (s *Service) googleCallback(w http.ResponseWriter, r *http.Request) {
	noStore(w)
	back := func(code string) { http.Redirect(w, r, "/login?error="+code, http.StatusSeeOther) }
	http.SetCookie(w, &http.Cookie{Name: ssoCookie, Value: "", Path: ssoCallback, MaxAge: -1, HttpOnly: true, Secure: s.secure(), SameSite: http.SameSiteLaxMode})
	if s.google == nil {
		back(codeGoogleUnavailable)
		return
	}
	q := r.URL.Query()
	// What the page at /sso-redirect explains (and offers sign-in again):
	// the provider refused or the visitor cancelled; or this browser has no
	// flow in progress (it expired, or the link was opened elsewhere).
	explain := func(reason string) { http.Redirect(w, r, ssoCallback+"?failed="+reason, http.StatusSeeOther) }
	if q.Get("error") != "" {
		explain("denied")
		return
	}
	ck, err := r.Cookie(ssoCookie)
	if err != nil {
		explain("expired")
		return
	}
	state, verifier, ok := strings.Cut(ck.Value, ".")
	if !ok || state == "" || subtle.ConstantTimeCompare([]byte(state), []byte(q.Get("state"))) != 1 || q.Get("code") == "" {
		back(codeGoogleFailed)
		return
	}
	if ok, _ := s.GoogleByIP.Allow(r.Context(), s.GoogleByIP.Client(r)); !ok {
		back(codeRateLimited)
		return
	}
	id, p := identityOf(s.google.Exchange(r.Context(), q.Get("code"), s.callbackURL(), oauth2.VerifierOption(verifier)))
	if p == nil {
		var acct *Account
		if acct, p = s.googleAccount(r.Context(), id); p == nil {
			if err := s.startSession(r.Context(), w, r, acct); err != nil {
				slog.ErrorContext(r.Context(), "accounts: session after google", "err", err)
				p = errUnavailable
			} else {
				s.setDeviceCookie(w, r, acct.Email)
				http.Redirect(w, r, s.Destination(acct.Status), http.StatusSeeOther)
				return
			}
		}
	}
	back(p.Code)
}

// googleAccount finds or makes the account for a verified Google identity.
func (s *Service) googleAccount(ctx context.Context, id *identity) (*Account, *problem) {
	db := s.db.WithContext(ctx)
	for attempt := 0; attempt < 2; attempt++ {
		var acct Account
		err := db.Where("google_subject = ?", id.Subject).First(&acct).Error
		if err == nil {
			return &acct, nil
		}
		if !errors.Is(err, gorm.ErrRecordNotFound) {
			slog.ErrorContext(ctx, "accounts: google lookup", "err", err)
			return nil, errUnavailable
		}
		err = db.Where("email = ?", id.Email).First(&acct).Error
		if err == nil {
			if acct.GoogleSubject != nil {
				return nil, fail(http.StatusConflict, codeGoogleLinkedElsewhere)
			}
			// The provider vouches for the address: link the account. If the
			// address was never proved, whoever set the password was never
			// shown to own it: the verified identity wins, the unproved
			// password and every session it made are revoked.
			if p := s.linkGoogle(ctx, acct, id); p != nil {
				return nil, p
			}
			continue // read it back (or see who linked it first)
		}
		if !errors.Is(err, gorm.ErrRecordNotFound) {
			slog.ErrorContext(ctx, "accounts: google lookup", "err", err)
			return nil, errUnavailable
		}
		name := id.displayName()
		now := s.now()
		sub := id.Subject
		acct = Account{Name: name, Email: id.Email, GoogleSubject: &sub, Status: StatusAccountCreated, EmailVerifiedAt: &now, CreatedAt: now, UpdatedAt: now}
		err = db.Create(&acct).Error
		if err == nil {
			return &acct, nil
		}
		if !storage.IsUniqueViolation(err) && !errors.Is(err, gorm.ErrDuplicatedKey) {
			slog.ErrorContext(ctx, "accounts: google create", "err", err)
			return nil, errUnavailable
		}
		// Someone made it at the same moment: look again.
	}
	return nil, errUnavailable
}

func randomString() string {
	b := make([]byte, 24)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// displayName is the identity's name, else the address's local part, cut to
// the longest name an account takes.
func (id *identity) displayName() string {
	name := id.Name
	if name == "" {
		name = id.Email[:strings.IndexByte(id.Email, '@')]
	}
	if len([]rune(name)) > maxName {
		name = string([]rune(name)[:maxName])
	}
	return name
}

// orderCancelled is the state linkGoogle leaves the unproved party's pending
// licence orders in (billing's orders are pending or paid otherwise).
const orderCancelled = "cancelled"

// linkGoogle links a Google subject to an account found by its (verified)
// e-mail. An account whose address was never proved is taken back by its
// proved owner in the same transaction, leaving nothing of the unproved
// party: its password, sessions and open e-mailed links are
// revoked; the name becomes the owner's, the store name is freed, pending
// licence orders are cancelled and the status is back to account_created
// (recorded in account_status_changes); reclaimed_at makes the owner's
// pages say what happened; and a log line tells the operator.
func (s *Service) linkGoogle(ctx context.Context, acct Account, id *identity) *problem {
	now := s.now()
	updates := map[string]any{"google_subject": id.Subject, "updated_at": now}
	takeover := acct.EmailVerifiedAt == nil
	if takeover {
		updates["password_hash"] = ""
		updates["email_verified_at"] = now
		updates["name"] = id.displayName()
		updates["store_name"] = nil
		updates["store_title"] = "" // the name as typed goes with it (migration 190)
		updates["status"] = StatusAccountCreated
		updates["reclaimed_at"] = now
	}
	var cancelled int64
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&Account{}).Where("id = ? AND google_subject IS NULL", acct.ID).Updates(updates)
		if res.Error != nil || res.RowsAffected != 1 || !takeover {
			return res.Error
		}
		if err := tx.Delete(&Session{}, "account_id = ?", acct.ID).Error; err != nil {
			return err
		}
		if err := tx.Model(&PasswordReset{}).Where("account_id = ? AND used_at IS NULL", acct.ID).Update("used_at", now).Error; err != nil {
			return err
		}
		if err := tx.Model(&EmailVerification{}).Where("account_id = ? AND used_at IS NULL", acct.ID).Update("used_at", now).Error; err != nil {
			return err
		}
		orders := tx.Exec("UPDATE license_orders SET status = ?, updated_at = ? WHERE account_id = ? AND status = ?", orderCancelled, now, acct.ID, "pending")
		if orders.Error != nil {
			return orders.Error
		}
		cancelled = orders.RowsAffected
		if acct.Status != StatusAccountCreated {
			return tx.Exec("INSERT INTO account_status_changes (account_id, from_status, to_status, reason, order_id, created_at) VALUES (?, ?, ?, ?, '', ?)",
				acct.ID, acct.Status, StatusAccountCreated, "reclaimed", now).Error
		}
		return nil
	})
	if err != nil && !storage.IsUniqueViolation(err) && !errors.Is(err, gorm.ErrDuplicatedKey) {
		slog.ErrorContext(ctx, "accounts: google link", "err", err)
		return errUnavailable
	}
	if err == nil && takeover {
		slog.WarnContext(ctx, "accounts: account reclaimed by the proved owner of its address (Google); the unproved registration's password, sessions, links, name, store name and pending orders are gone",
			"account", acct.ID, "previous_status", acct.Status, "orders_cancelled", cancelled)
	}
	return nil
}
