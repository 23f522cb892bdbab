// Package forms makes the site's forms work without JavaScript like classic
// server-rendered forms: a form posts to its page's own address, and a
// refused post is answered with the page itself, showing what was typed
// and every field's error. A password comes back only where its form's
// handler puts it in State (registration, decision 0061): the answer is
// no-store and the state lives in no log, address or cache.
//
// Which page takes which form is declared once, in shared/routes.json: a
// route's "form" (login, register, forgot-password, reset-password, contact)
// and "layoutForm" for every page of a layout (the footer's newsletter box).
// A POST to such a page is handed to the same handler as the form's API
// endpoint (Handle), behind the same body limit, so body caps, the
// cross-site check, 415 for other body types, rate limits and the hashing
// queue are those of the API. The footer's box on a page with a form of its
// own names itself with a form=newsletter field. A POST to any other page
// goes on to the renderer, which answers 405.
//
// The handler answers a refusal of such a post with Refuse: the page is
// rendered through the normal page handler (session, security headers and
// nonce, the renderer) as a GET carrying the form's State in Header, with
// the refusal's status and Cache-Control: no-store; the page cache neither
// serves nor stores it. A success is answered as before (303).
package forms

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/httpx/crossorigin"
	"omnibus/edge/internal/routepath"
	"omnibus/edge/internal/security"
	"omnibus/shared"
)

// Header carries a refused form's State to the renderer (shared/http.json):
// base64url of its JSON. The server middleware removes any incoming copy.
var Header = http.CanonicalHeaderKey(shared.HTTP.FormStateHeader)

// Newsletter is the form of the footer's newsletter box, and Marker the
// field whose value names it in a post to a page with a form of its own.
const (
	Newsletter = "newsletter"
	Marker     = "form"
)

// maxPeek bounds what is read of a body to find the marker (the API's body
// limit; a larger body is the handler's to refuse).
const maxPeek = 16 << 10

// State is what a refused form shows again. Codes are keys of the form's
// message table (shared/content/auth.json messages, contact.json outcomes,
// newsletter.json messages), so the page shows the words the JSON answer
// carries; the renderer shows nothing for an unknown code.
type State struct {
	// Form is the form's id in shared/routes.json.
	Form string `json:"form"`
	// Values are the typed values by field name: only the form's own
	// fields, each as validation.Shown bounds it. No password but the
	// registration's, exactly as typed (decision 0061), for this one
	// answer: never log or store a State.
	Values map[string]string `json:"values,omitempty"`
	// Errors is the code of every invalid field, by field name.
	Errors map[string]string `json:"errors,omitempty"`
	// Error is the form's own code (rate limited, e-mail taken, …).
	Error string `json:"error,omitempty"`
}

// encode is Header's value.
func (s State) encode() string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // < > & as themselves: the header stays small
	if err := enc.Encode(s); err != nil {
		panic("forms: " + err.Error()) // strings only: cannot fail
	}
	return base64.RawURLEncoding.EncodeToString(bytes.TrimSpace(b.Bytes()))
}

// Pages are the page addresses that take a form.
type Pages struct {
	routes   []route
	layouts  map[string]string // layout → the form each of its pages takes
	handlers map[string]echo.HandlerFunc
	limit    echo.MiddlewareFunc
	pages    http.Handler
}

type route struct {
	segments []string
	form     string // the page's own form, or ""
	layout   string
}

// New reads the declarations of the route table. bodyLimit is the API's
// body limit; pages is the page handler a refusal is rendered through.
func New(table *shared.RouteTable, bodyLimit echo.MiddlewareFunc, pages http.Handler) *Pages {
	p := &Pages{layouts: table.LayoutForm, handlers: map[string]echo.HandlerFunc{}, limit: bodyLimit, pages: pages}
	for _, r := range table.Routes {
		p.routes = append(p.routes, route{segments: routepath.Split(r.Path), form: r.Form, layout: r.Layout})
	}
	return p
}

// Handle names the handler of a form: the one its API endpoint runs, with
// that endpoint's route middleware (the cross-site check).
func (p *Pages) Handle(form string, h echo.HandlerFunc) { p.handlers[form] = h }

// Check reports a form the route table names that has no handler.
func (p *Pages) Check() error {
	for _, r := range p.routes {
		for _, f := range []string{r.form, p.layouts[r.layout]} {
			if f != "" && p.handlers[f] == nil {
				return fmt.Errorf("forms: no handler for form %q (shared/routes.json)", f)
			}
		}
	}
	return nil
}

// Middleware is the page route's: a POST to a page that takes a form goes
// to that form's handler; everything else goes on.
func (p *Pages) Middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Method != http.MethodPost {
			return next(c)
		}
		own, footer := p.forms(r.URL.Path)
		if own == "" && footer == "" {
			return next(c)
		}
		c.Set(pageKey, p)
		return p.limit(func(c echo.Context) error {
			form := own
			if footer != "" && (own == "" || marked(c.Request(), footer)) {
				form = footer
			}
			if h := p.handlers[form]; h != nil {
				return h(c)
			}
			return next(c) // a test that wires some forms only
		})(c)
	}
}

// forms are the page's own form and its layout's, for a request path.
func (p *Pages) forms(path string) (own, layout string) {
	segs := routepath.Split(path)
	for _, r := range p.routes {
		if routepath.Match(r.segments, segs) {
			return r.form, p.layouts[r.layout]
		}
	}
	return "", ""
}

// marked reports whether a form body's Marker field names form. What it
// reads of the body is put back for the handler.
func marked(r *http.Request, form string) bool {
	if crossorigin.TypeOf(r) != crossorigin.Form {
		return false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxPeek+1))
	r.Body = readCloser{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
	if err != nil {
		return false
	}
	v, _ := url.ParseQuery(string(body))
	return v.Get(Marker) == form
}

type readCloser struct {
	io.Reader
	io.Closer
}

const pageKey = "forms.page"

// OnPage reports whether the request is a form posted to its page (a
// browser without JavaScript): its refusals are answered with Refuse. Any
// other request is an API call, answered with JSON.
func OnPage(c echo.Context) bool {
	_, ok := c.Get(pageKey).(*Pages)
	return ok && crossorigin.TypeOf(c.Request()) == crossorigin.Form
}

// Refuse answers a refused form post made to its page (OnPage) with the
// page, rendered with st, with status (headers set before, such as
// Retry-After, stay). A page that is not answered 200 (a signed-in
// visitor's redirect away from /login, a renderer failure) keeps its own
// status.
func Refuse(c echo.Context, status int, st State) error {
	r := c.Request()
	// Drawn before the copy, so the page the renderer writes and the policy
	// the answer goes out with carry the same nonce.
	security.Nonce(r)
	get := r.Clone(r.Context())
	get.Method, get.Body, get.ContentLength, get.GetBody = http.MethodGet, http.NoBody, 0, nil
	get.Header.Del(echo.HeaderContentType)
	get.Header.Del(echo.HeaderContentLength)
	get.Header.Set(Header, st.encode())
	c.Get(pageKey).(*Pages).pages.ServeHTTP(&refusal{ResponseWriter: c.Response(), status: status}, get)
	return nil
}

// refusal gives the page the refusal's status and keeps it out of every
// cache.
type refusal struct {
	http.ResponseWriter
	status int
	sent   bool
}

func (w *refusal) WriteHeader(code int) {
	if code >= http.StatusOK && !w.sent {
		w.sent = true
		if code == http.StatusOK {
			code = w.status
		}
		w.Header().Set("Cache-Control", "no-store")
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *refusal) Write(b []byte) (int, error) {
	if !w.sent {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController flush the stream.
func (w *refusal) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush sends what the page has so far (streaming).
func (w *refusal) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
