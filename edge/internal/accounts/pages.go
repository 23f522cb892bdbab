package accounts

import (
	"log/slog"
	"net/http"
	"strings"
)

// Pages wraps the page handler (the renderer proxy and page cache) with what
// the edge decides before anything renders (SPEC §4, §6):
//
//   - GET/HEAD /login or /register by a signed-in visitor: 302 to
//     /contact-us (status account_created or pending_initial_license_payment)
//     or to the merchant app (MERCHANT_APP_URL, any other status);
//   - /sso-redirect?state=… : the end of the no-JS Google flow (googleCallback);
//   - /reset-password: Referrer-Policy no-referrer, so the token in its URL
//     never leaves in a Referer.
//
// A database error while reading the session is logged and the page is
// served as to an anonymous visitor.
func (s *Service) Pages(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := strings.TrimSuffix(r.URL.Path, "/")
		get := r.Method == http.MethodGet || r.Method == http.MethodHead
		switch {
		case get && (path == "/login" || path == "/register"):
			acct, err := s.current(r.Context(), w, r)
			if err != nil {
				slog.Error("accounts: session lookup", "err", err)
			}
			w.Header().Add("Vary", "Cookie")
			if acct != nil {
				noStore(w)
				http.Redirect(w, r, s.Destination(acct.Status), http.StatusFound)
				return
			}
		case get && path == ssoCallback && (r.URL.Query().Has("state") || r.URL.Query().Has("code")):
			s.googleCallback(w, r)
			return
		case path == "/reset-password":
			w.Header().Set("Referrer-Policy", "no-referrer")
		}
		next.ServeHTTP(w, r)
	})
}
