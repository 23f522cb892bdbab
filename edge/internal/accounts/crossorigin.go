package accounts

import (
	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/exchange"
)

// sameOrigin refuses a state-changing request sent by another site (403),
// on top of the SameSite=Lax cookie (exchange.Guard, the check every POST of
// the API shares).
func (s *Service) sameOrigin(next echo.HandlerFunc) echo.HandlerFunc {
	return vocabulary.Guard(s.public.String())(next)
}

// Vocabulary is the site's words for what the shared decoder refuses
// (shared/content/auth.json), for small endpoints of the site's own pages
// (internal/theme) that have no table of their own.
func Vocabulary() *exchange.Vocabulary { return vocabulary }
