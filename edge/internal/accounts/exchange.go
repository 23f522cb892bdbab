package accounts

import (
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/http/crossorigin"
	"omnibus/edge/internal/http/response"
	"omnibus/edge/internal/ratelimit"
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
	mt, _, err := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	return err == nil && mt == echo.MIMEApplicationForm
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

// refuse answers a refused request: JSON {"errorDetail"} with its status, or
// for a form post a 303 back to page with ?error=<code> (and extra, e.g. the
// reset token, so the page can be used again).
func refuse(c echo.Context, page string, extra url.Values, p *problem) error {
	if p.code == codeBusy {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(hashQueueDeadline/time.Second)))
	}
	if isForm(c.Request()) {
		q := url.Values{}
		for k, v := range extra {
			q[k] = v
		}
		q.Set("error", p.code)
		return seeOther(c, page+"?"+q.Encode())
	}
	return response.Error(c, p.status, Message(p.code))
}

// limited answers a refused rate limit: 429 with Retry-After, or the page
// with ?error=rateLimited.
func limited(c echo.Context, page string, wait time.Duration) error {
	if isForm(c.Request()) {
		return seeOther(c, page+"?error="+codeRateLimited)
	}
	return ratelimit.Refuse(c, wait)
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
