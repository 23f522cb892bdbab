package accounts

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/http/crossorigin"
)

// sameOrigin refuses a state-changing request sent by another site (403),
// on top of the SameSite=Lax cookie (internal/http/crossorigin, the check
// every POST of the API shares).
func (s *Service) sameOrigin(next echo.HandlerFunc) echo.HandlerFunc {
	return crossorigin.Guard(s.public.String(), func(c echo.Context) error {
		return refuse(c, fail(http.StatusForbidden, codeCrossSite), forms.State{})
	})(next)
}

// Guard is the same cross-site check for other packages' state-changing
// endpoints (billing).
func (s *Service) Guard(next echo.HandlerFunc) echo.HandlerFunc { return s.sameOrigin(next) }
