package accounts

import (
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/exchange"
	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/validation"
)

// status is the sign-in status answer (SPEC §3), nested under "data".
// RedirectTo, only when signed in, is where the rules of SPEC §4 send the
// visitor, so the page need not know the merchant app's URL.
type status struct {
	IsLoggedIn         bool   `json:"isLoggedIn"`
	OmnicustomerStatus string `json:"omnicustomerStatus"`
	RedirectTo         string `json:"redirectTo,omitempty"`
}

type envelope struct {
	Data any `json:"data"`
}

// vocabulary is this package's message table (shared/content/auth.json) as
// the shared decoder and answers use it (internal/exchange).
var vocabulary = &exchange.Vocabulary{
	CrossSite: codeCrossSite, UnsupportedType: codeUnsupportedType, TooLarge: codeTooLarge, Malformed: codeMalformed,
	RateLimited: codeRateLimited, Words: Message,
}

// fields are the JSON fields the endpoints read; any other field (the
// Google credential response's extras) is ignored.
var fields = exchange.Fields{
	"credential": exchange.Text, "code": exchange.Text, "email": exchange.Text, "password": exchange.Text,
	"name": exchange.Text, "storeName": exchange.Text, "token": exchange.Text,
}

// read takes the request's fields from a JSON object or a form
// (exchange.Decode: body type, size and shape).
func read(c echo.Context) (map[string]string, *problem) { return vocabulary.Decode(c, fields) }

// refuse answers a refused request (exchange.Refuse): JSON {"errorDetail"}
// with its status, or for a sign-in form posted to its page without
// JavaScript (forms.OnPage) that page again with st: its id, the values shown
// again (shown) and every error of p. st of no form (Google, sign-out, the
// cross-site check) is always JSON.
func refuse(c echo.Context, p *problem, st forms.State) error {
	return vocabulary.Refuse(c, p, exchange.Form{State: st})
}

// limited answers a refused rate limit: 429 with Retry-After, JSON or the
// form's page.
func limited(c echo.Context, wait time.Duration, st forms.State) error {
	return vocabulary.Limited(c, wait, exchange.Form{State: st})
}

// shown is the state of sign-in form form: the values of the named fields
// (never a password: keptPassword) as the page shows them again.
func shown(form string, f map[string]string, names ...string) forms.State {
	st := forms.State{Form: form, Values: map[string]string{}}
	for _, name := range names {
		if v := validation.Shown(name, f[name]); v != "" {
			st.Values[name] = v
		}
	}
	return st
}

// keptPassword is the password of a refused registration as its page shows
// it again, in that one no-store answer only (decision 0061): exactly as
// typed, or "" (the field comes back empty, as before) for one the field
// could not hold as it was typed: past its length, not UTF-8, or with a
// code point no text field takes. A password is never trimmed or cut: a
// changed one would be sent again without the visitor seeing the change.
func keptPassword(raw string) string {
	if !utf8.ValidString(raw) || utf8.RuneCountInString(raw) > maxPassword || len(raw) > 4*maxPassword || validation.HasForbidden(raw, false) {
		return ""
	}
	return raw
}

// invalid is a refusal (400) of one field with code, or nil for no code.
func invalid(field, code string) *problem {
	if code == "" {
		return nil
	}
	p := fail(http.StatusBadRequest, "")
	p.Add(field, code)
	return p
}

// signedIn answers a successful sign-in: the status with where to go, or for
// a form post a 303 there.
func (s *Service) signedIn(c echo.Context, httpStatus int, acct *Account) error {
	to := s.Destination(acct.Status)
	return exchange.Done(c, httpStatus, envelope{status{IsLoggedIn: true, OmnicustomerStatus: acct.Status, RedirectTo: to}}, to)
}

func noStore(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
}
