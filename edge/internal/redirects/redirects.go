// Package redirects answers the permanent redirects of shared/routes.json
// ("redirects": [{from, to}]) with 301, before the page cache and the
// renderer: /pricing → /old-pricing. The query string is kept.
package redirects

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// Rule is one permanent redirect.
type Rule struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Parse reads the "redirects" of the route table and checks each is a
// site path to a different site path.
func Parse(routesJSON []byte) ([]Rule, error) {
	var table struct {
		Redirects []Rule `json:"redirects"`
	}
	if err := json.Unmarshal(routesJSON, &table); err != nil {
		return nil, fmt.Errorf("redirects: routes.json: %w", err)
	}
	for _, r := range table.Redirects {
		if !strings.HasPrefix(r.From, "/") || !strings.HasPrefix(r.To, "/") || strings.HasPrefix(r.To, "//") || r.From == r.To {
			return nil, fmt.Errorf("redirects: %q → %q must be two different site paths", r.From, r.To)
		}
	}
	return table.Redirects, nil
}

// Register adds a GET and HEAD route per rule (with and without a trailing slash).
func Register(e interface {
	Match([]string, string, echo.HandlerFunc, ...echo.MiddlewareFunc) []*echo.Route
}, routesJSON []byte) error {
	rules, err := Parse(routesJSON)
	if err != nil {
		return err
	}
	for _, r := range rules {
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
	return nil
}
