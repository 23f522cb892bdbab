// Package redirects answers the permanent redirects of shared/routes.json
// ("redirects": [{from, to}]) with 301, before the page cache and the
// renderer: /pricing → /old-pricing. The query string is kept.
package redirects

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"omnibus/shared"
)

// Register adds a GET and HEAD route per rule of the route table (with and
// without a trailing slash); the table checked that each goes from a site
// path to a different one.
func Register(e interface {
	Match([]string, string, echo.HandlerFunc, ...echo.MiddlewareFunc) []*echo.Route
}, table *shared.RouteTable) {
	for _, r := range table.Redirects {
		to := r.To
		handler := func(c echo.Context) error {
			target := to
			if q := c.Request().URL.RawQuery; q != "" {
				target += "?" + q
			}
			return c.Redirect(http.StatusMovedPermanently, target)
		}
		from := strings.TrimSuffix(r.From, "/")
		e.Match([]string{http.MethodGet, http.MethodHead}, from, handler)
		e.Match([]string{http.MethodGet, http.MethodHead}, from+"/", handler)
	}
}
