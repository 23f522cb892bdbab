// Package exchange is how every endpoint of the API that takes a form or
// JSON (accounts, billing, contact, newsletter) reads its request and
// answers it, so the rules are written once:
//
//   - Guard: the cross-site check (internal/httpx/crossorigin), 403;
//   - Decode: the body type (a form post from a page without JavaScript, or
//     JSON; anything else 415), the body cap (MaxBody, and the server's own
//     limit: 413) and the fields (a form's every field; a JSON object's named
//     fields, each a string, or a number where the endpoint takes one; a
//     body that is not such an object is 400);
//   - Refuse: a refusal as JSON {"errorDetail", "field", "fieldErrors"} with
//     its status, or, for a form posted to its own page, that page again
//     with what was typed and every error (forms.Refuse), or for a form
//     posted elsewhere that names a page to go back to, 303 there with
//     ?error=<code>;
//   - Done and SeeOther: a success as JSON, or 303 for a form post.
//
// The words are each endpoint's own: a Vocabulary names the codes of its
// message table (shared/content/*.json) for the decoder's refusals and gives
// the words of a code.
package exchange

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/httpx/crossorigin"
	"omnibus/edge/internal/httpx/response"
)

// MaxBody is the largest request body an endpoint reads (16 KB, the API's
// body limit); a larger one is answered 413.
const MaxBody = 16 << 10

// Vocabulary is an endpoint's message table as the decoder and the answers
// need it.
type Vocabulary struct {
	// Codes of the table for what the decoder and the guard refuse.
	CrossSite, UnsupportedType, TooLarge, Malformed string
	// RateLimited is the code a form posted to its page shows when limited.
	RateLimited string
	// Words is the message for a code: a JSON refusal's errorDetail.
	Words func(code string) string
	// FieldWords is the message for an invalid field (default: Words of
	// its code).
	FieldWords func(field, code string) string
}

// Guard is middleware refusing a state-changing request sent by another
// site (403, the CrossSite code's words). publicURL's origin is trusted
// besides the request's Host.
func (v *Vocabulary) Guard(publicURL string) echo.MiddlewareFunc {
	return crossorigin.Guard(publicURL, func(c echo.Context) error {
		return v.Refuse(c, &Refusal{Status: http.StatusForbidden, Code: v.CrossSite}, Form{})
	})
}

// IsForm reports a form post: a page without JavaScript, answered with
// pages and redirects rather than JSON.
func IsForm(c echo.Context) bool { return crossorigin.TypeOf(c.Request()) == crossorigin.Form }

// Kind is what a JSON field may hold.
type Kind int

const (
	// Text is a string (null or absent: no value).
	Text Kind = iota
	// Number is a number, as its decimal text, or a string.
	Number
)

// Fields are the JSON fields an endpoint reads, by name; other fields of the
// object are ignored (a client's extras, such as Google's credential
// response).
type Fields map[string]Kind

// Refusal is a refused request: its status, the code of the form's own
// error, and every invalid field.
type Refusal struct {
	Status int
	// Code is the form's own error (rate limited, unavailable, …); its
	// words are the JSON errorDetail when no field is invalid.
	Code string
	// Invalid is every invalid field with its code, in the page's order:
	// the first one's words are the JSON errorDetail.
	Invalid []Invalid
	// RetryAfter, when set, goes out as Retry-After.
	RetryAfter time.Duration
}

// Invalid is one invalid field and its code.
type Invalid struct {
	Field, Code string
}

func (r *Refusal) Error() string { return r.Code }

// Add records field as invalid with code ("" adds nothing).
func (r *Refusal) Add(field, code string) {
	if code != "" {
		r.Invalid = append(r.Invalid, Invalid{Field: field, Code: code})
	}
}

// Decode reads the request's fields: a form's every field (its first value),
// or a JSON object's fields named in want. A refusal is ready for Refuse: 415
// for another body type, 413 for a body over MaxBody or the server's limit,
// 400 for a body that cannot be read, a JSON body that is not an object,
// and a named JSON field of another kind.
func (v *Vocabulary) Decode(c echo.Context, want Fields) (map[string]string, *Refusal) {
	req := c.Request()
	kind := crossorigin.TypeOf(req)
	if kind == crossorigin.Unsupported {
		return nil, &Refusal{Status: http.StatusUnsupportedMediaType, Code: v.UnsupportedType}
	}
	tooLarge := &Refusal{Status: http.StatusRequestEntityTooLarge, Code: v.TooLarge}
	if req.ContentLength > MaxBody {
		return nil, tooLarge
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, MaxBody+1))
	var limit *http.MaxBytesError // the server's own body limit
	if errors.As(err, &limit) || len(body) > MaxBody {
		return nil, tooLarge
	}
	malformed := &Refusal{Status: http.StatusBadRequest, Code: v.Malformed}
	if err != nil {
		return nil, malformed
	}
	fields := map[string]string{}
	if kind == crossorigin.Form {
		values, err := url.ParseQuery(string(body))
		if err != nil {
			return nil, malformed
		}
		for k := range values {
			fields[k] = values.Get(k)
		}
		return fields, nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil || raw == nil {
		return nil, malformed
	}
	for name, k := range want {
		value, ok := raw[name]
		if !ok || string(value) == "null" {
			continue
		}
		var s string
		if json.Unmarshal(value, &s) == nil {
			fields[name] = s
			continue
		}
		var n json.Number
		if k == Number && json.Unmarshal(value, &n) == nil {
			fields[name] = n.String()
			continue
		}
		return nil, malformed
	}
	return fields, nil
}

// Form is where a refused form post goes back to.
type Form struct {
	// State is the form's id and the values it shows again, for a post to
	// its own page (forms.OnPage); Refuse adds the errors. A form with no
	// id is answered with JSON.
	State forms.State
	// Hidden are fields the page has no input for (a contact page's topic):
	// such a field's error is shown as the form's own.
	Hidden []string
	// Back, for a form posted elsewhere, is the page a 303 returns to with
	// ?error=<code> ("": JSON).
	Back string
}

// body is a JSON refusal: errorDetail is the summary (the first invalid
// field's words, else the code's), field the first invalid field, and
// fieldErrors the words of every invalid field.
type body struct {
	ErrorDetail string            `json:"errorDetail"`
	Field       string            `json:"field,omitempty"`
	FieldErrors map[string]string `json:"fieldErrors,omitempty"`
}

// Refuse answers r, never to be cached: a form posted to its page (f.State
// names the form) with that page showing every error, a form posted
// elsewhere with 303 to f.Back, anything else with JSON.
func (v *Vocabulary) Refuse(c echo.Context, r *Refusal, f Form) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	if r.RetryAfter > 0 {
		response.RetryAfter(c, r.RetryAfter)
	}
	if IsForm(c) {
		if f.State.Form != "" && forms.OnPage(c) {
			st := f.State
			for _, in := range r.Invalid {
				switch {
				case slices.Contains(f.Hidden, in.Field):
					st.Error = in.Code
				case st.Errors == nil:
					st.Errors = map[string]string{in.Field: in.Code}
				default:
					st.Errors[in.Field] = in.Code
				}
			}
			if len(r.Invalid) == 0 && st.Error == "" {
				st.Error = r.Code
			}
			return forms.Refuse(c, r.Status, st)
		}
		if f.Back != "" {
			code := r.Code
			if len(r.Invalid) > 0 {
				code = r.Invalid[0].Code
			}
			return SeeOther(c, join(f.Back, "error="+url.QueryEscape(code)))
		}
	}
	b := body{ErrorDetail: v.Words(r.Code)}
	if len(r.Invalid) > 0 {
		b.Field, b.FieldErrors = r.Invalid[0].Field, make(map[string]string, len(r.Invalid))
		for _, in := range r.Invalid {
			b.FieldErrors[in.Field] = v.fieldWords(in)
		}
		b.ErrorDetail = b.FieldErrors[b.Field]
	}
	return c.JSON(r.Status, b)
}

func (v *Vocabulary) fieldWords(in Invalid) string {
	if v.FieldWords != nil {
		return v.FieldWords(in.Field, in.Code)
	}
	return v.Words(in.Code)
}

// Limited answers a request over a rate limit: 429 with Retry-After, as
// the form's page (f) for a form posted to its page, else as JSON with the
// wait in words (response.TooManyRequests).
func (v *Vocabulary) Limited(c echo.Context, wait time.Duration, f Form) error {
	if f.State.Form != "" && IsForm(c) && forms.OnPage(c) {
		return v.Refuse(c, &Refusal{Status: http.StatusTooManyRequests, Code: v.RateLimited, RetryAfter: wait}, f)
	}
	return response.TooManyRequests(c, wait)
}

// SeeOther answers 303 to to, never to be cached.
func SeeOther(c echo.Context, to string) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusSeeOther, to)
}

// Done answers a success: a form post with 303 to to (when to is not
// empty), anything else with status and v as JSON; never to be cached.
func Done(c echo.Context, status int, v any, to string) error {
	if to != "" && IsForm(c) {
		return SeeOther(c, to)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(status, v)
}

// join adds query to the address back (which may have a query already).
func join(back, query string) string {
	if strings.Contains(back, "?") {
		return back + "&" + query
	}
	return back + "?" + query
}
