// Package formstest stands in for the renderer behind internal/forms in the
// form packages' unit tests: forms posted to their pages (the route table's
// declarations) reach the handlers given, and a refusal is answered by a
// stand-in page that tells what the renderer would get, as JSON Page.
package formstest

import (
	"encoding/base64"
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/server"
	"omnibus/shared"
)

// Page is the stand-in page's answer: the path it rendered and the state.
type Page struct {
	Path  string      `json:"page"`
	State forms.State `json:"state"`
}

// Wire routes form posts to the route table's pages on e to handlers (by
// form id, as internal/app does); any other request that no route of e
// takes goes to other (nil: 405).
func Wire(e *echo.Echo, handlers map[string]echo.HandlerFunc, other http.Handler) {
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var p Page
		p.Path = r.URL.Path
		if raw, err := base64.RawURLEncoding.DecodeString(r.Header.Get(forms.Header)); err == nil {
			json.Unmarshal(raw, &p.State)
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(p)
	})
	p, err := forms.New(shared.Routes, server.BodyLimit(server.DefaultAPIBodyLimit), func() http.Handler { return page })
	if err != nil {
		panic(err)
	}
	for id, h := range handlers {
		p.Handle(id, h)
	}
	next := func(c echo.Context) error { return c.NoContent(http.StatusMethodNotAllowed) }
	if other != nil {
		next = echo.WrapHandler(other)
	}
	e.RouteNotFound("/*", next, p.Middleware)
}

// Decode reads a stand-in page's answer.
func Decode(body []byte) (Page, error) {
	var p Page
	err := json.Unmarshal(body, &p)
	return p, err
}
