package accounts

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/http/crossorigin"
	"omnibus/edge/internal/http/response"
	"omnibus/edge/internal/ratelimit"
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

// isForm reports a form post (a page without JavaScript).
func isForm(r *http.Request) bool {
	return crossorigin.TypeOf(r) == crossorigin.Form
}

// read takes the request's string fields from a JSON object or a form,
// reading at most MaxBody bytes.
func read(c echo.Context) (map[string]string, *problem) {
	req := c.Request()
	if crossorigin.TypeOf(req) == crossorigin.Unsupported {
		return nil, fail(http.StatusUnsupportedMediaType, codeUnsupportedType)
	}
	if req.ContentLength > MaxBody {
		return nil, fail(http.StatusRequestEntityTooLarge, codeTooLarge)
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, MaxBody+1))
	if err != nil {
		return nil, fail(http.StatusBadRequest, codeMalformed)
	}
	if len(body) > MaxBody {
		return nil, fail(http.StatusRequestEntityTooLarge, codeTooLarge)
	}
	fields := map[string]string{}
	if isForm(req) {
		v, err := url.ParseQuery(string(body))
		if err != nil {
			return nil, fail(http.StatusBadRequest, codeMalformed)
		}
		for k := range v {
			fields[k] = v.Get(k)
		}
		return fields, nil
	}
	var raw map[string]any
	if err := json.Unmarshal(body, &raw); err != nil || raw == nil {
		return nil, fail(http.StatusBadRequest, codeMalformed)
	}
	for k, v := range raw {
		switch v := v.(type) {
		case string:
			fields[k] = v
		case nil:
		default:
			// The Google credential response may carry non-string extras;
			// every field this package reads is a string.
			if k == "credential" || k == "code" || k == "email" || k == "password" || k == "name" || k == "storeName" || k == "token" {
				return nil, fail(http.StatusBadRequest, codeMalformed)
			}
		}
	}
	return fields, nil
}

// refuse answers a refused request with JSON {"errorDetail"} and its status.
// A sign-in form posted to its page without JavaScript (forms.OnPage) gets
// that page again (forms.Refuse) with st: its id, the values shown again
// (shown), every invalid field, and otherwise p as the form's error. st of
// no form (Google, sign-out, the cross-site check) is always JSON.
func refuse(c echo.Context, p *problem, st forms.State) error {
	if p.code == codeBusy {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(hashQueueDeadline/time.Second)))
	}
	if st.Form != "" && forms.OnPage(c) {
		if len(st.Errors) == 0 {
			st.Error = p.code
		}
		return forms.Refuse(c, p.status, st)
	}
	return response.Error(c, p.status, Message(p.code))
}

// limited answers a refused rate limit: 429 with Retry-After, JSON or the
// form's page (refuse).
func limited(c echo.Context, wait time.Duration, st forms.State) error {
	if st.Form != "" && forms.OnPage(c) {
		ratelimit.RetryAfter(c, wait)
		return refuse(c, fail(http.StatusTooManyRequests, codeRateLimited), st)
	}
	return ratelimit.Refuse(c, wait)
}

// shown is the state of sign-in form form: the values of the named fields
// (never a password) as the page shows them again.
func shown(form string, f map[string]string, names ...string) forms.State {
	st := forms.State{Form: form, Values: map[string]string{}}
	for _, name := range names {
		if v := validation.Shown(name, f[name]); v != "" {
			st.Values[name] = v
		}
	}
	return st
}

// invalid adds field's error code to st (none for ""), and keeps the first
// problem for the JSON answer.
func invalid(st *forms.State, first **problem, field, code string) {
	if code == "" {
		return
	}
	if st.Errors == nil {
		st.Errors = map[string]string{}
	}
	st.Errors[field] = code
	if *first == nil {
		*first = fail(http.StatusBadRequest, code)
	}
}

// signedIn answers a successful sign-in: the status with where to go, or for
// a form post a 303 there.
func (s *Service) signedIn(c echo.Context, httpStatus int, acct *Account) error {
	to := s.Destination(acct.Status)
	if isForm(c.Request()) {
		return seeOther(c, to)
	}
	noStore(c.Response())
	return c.JSON(httpStatus, envelope{status{IsLoggedIn: true, OmnicustomerStatus: acct.Status, RedirectTo: to}})
}

func seeOther(c echo.Context, to string) error {
	noStore(c.Response())
	return c.Redirect(http.StatusSeeOther, to)
}

func noStore(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
}
