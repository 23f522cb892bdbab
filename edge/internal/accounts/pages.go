package accounts

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"omnibus/shared"
)

// AccountHeader carries the sign-in state this middleware resolved to the
// page cache and the renderer (JSON {"isLoggedIn":true,"omnicustomerStatus":
// "..."}); absent for anonymous visitors. Any incoming copy is removed.
var AccountHeader = shared.HTTP.AccountHeader

var accountKey = http.CanonicalHeaderKey(AccountHeader)

// Pages wraps the page handler (the renderer proxy and page cache) with what
// the edge decides before anything renders (SPEC §4, §6):
//
//   - the session, resolved once per page request: a signed-in visitor's
//     request carries AccountHeader (the cache keys on it, decision 0034; the renderer's
//     root loader reads it) and the session slides (Set-Cookie from here);
//     a cookie that names no live session is cleared and the visitor is
//     anonymous (the cache answers);
//   - GET/HEAD /login or /register by a signed-in visitor: 302 to
//     /contact-us (status account_created or pending_initial_license_payment)
//     or to the merchant app (MERCHANT_APP_URL, any other status);
//   - /sso-redirect?state=… : the end of the no-JS Google flow (googleCallback);
//   - /reset-password: Referrer-Policy no-referrer, so the token in its URL
//     never leaves in a Referer; opened with a link that is unknown, used
//     or expired, a 303 to /forgot-password?error=resetInvalid, which says
//     so before any form is filled in and offers a new link.
//
// A database error while reading the session is logged and the page is
// served as to an anonymous visitor (the cookie is kept).
func (s *Service) Pages(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		delete(r.Header, accountKey) // by canonical key: Del canonicalizes on every page request
		path := strings.TrimSuffix(r.URL.Path, "/")
		get := r.Method == http.MethodGet || r.Method == http.MethodHead
		if get && path == ssoCallback && (r.URL.Query().Has("state") || r.URL.Query().Has("code")) {
			s.googleCallback(w, r)
			return
		}
		acct := s.pageAccount(w, r)
		switch {
		case get && (path == "/login" || path == "/register"):
			w.Header().Add("Vary", "Cookie")
			if acct != nil {
				noStore(w)
				http.Redirect(w, r, s.Destination(acct.Status), http.StatusFound)
				return
			}
		case path == "/reset-password":
			w.Header().Set("Referrer-Policy", "no-referrer")
			if get && !s.resetLinkUsable(r) {
				noStore(w)
				http.Redirect(w, r, "/forgot-password?error="+codeResetInvalid, http.StatusSeeOther)
				return
			}
		}
		if acct != nil {
			r.Header.Set(AccountHeader, accountJSON(acct.Status, s.notice(acct)))
			r = r.WithContext(context.WithValue(r.Context(), pageAccountKey{}, acct))
		}
		next.ServeHTTP(w, r)
	})
}

type pageAccountKey struct{}

// PageAccount is the signed-in account Pages resolved for this page
// request, or nil (anonymous): what the page handlers inside Pages read
// instead of looking the session up again.
func PageAccount(r *http.Request) *Account {
	a, _ := r.Context().Value(pageAccountKey{}).(*Account)
	return a
}

// pageAccount is the signed-in account of a page request, or nil. Only a
// request that sends the session cookie costs a lookup; a malformed cookie is
// cleared without one.
func (s *Service) pageAccount(w http.ResponseWriter, r *http.Request) *Account {
	c, err := r.Cookie(CookieName)
	if err != nil {
		return nil
	}
	if !validToken(c.Value) {
		s.clearCookie(w)
		return nil
	}
	acct, err := s.current(r.Context(), w, r)
	if err != nil {
		slog.ErrorContext(r.Context(), "accounts: session lookup", "err", err)
		return nil
	}
	return acct
}

// accountJSON is AccountHeader's value for a signed-in visitor; notice, when
// set, names a message of shared/content/auth.json the pages show.
func accountJSON(status, notice string) string {
	b, _ := json.Marshal(struct {
		IsLoggedIn         bool   `json:"isLoggedIn"`
		OmnicustomerStatus string `json:"omnicustomerStatus"`
		Notice             string `json:"notice,omitempty"`
	}{true, status, notice})
	return string(b)
}

// reclaimedNotice is how long the owner's pages say that the account was
// taken back from an unproved registration.
const reclaimedNotice = 24 * time.Hour

// notice is the message a signed-in visitor's pages show: "reclaimed" for
// a day after the proved owner took the account back, else "".
func (s *Service) notice(acct *Account) string {
	if acct.ReclaimedAt != nil && s.now().Sub(*acct.ReclaimedAt) < reclaimedNotice {
		return codeReclaimed
	}
	return ""
}
