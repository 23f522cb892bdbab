package accounts

import (
	"github.com/labstack/echo/v4"
)

// sameOrigin refuses a state-changing request sent by another site (403),
// on top of the SameSite=Lax cookie (exchange.Guard, the check every POST of
// the API shares).
func (s *Service) sameOrigin(next echo.HandlerFunc) echo.HandlerFunc {
	return vocabulary.Guard(s.public.String())(next)
}
