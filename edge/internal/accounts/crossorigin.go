package accounts

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"
)

// sameOrigin refuses a state-changing request sent by another site (403),
// on top of the SameSite=Lax cookie. The check is Go's
// http.CrossOriginProtection (Sec-Fetch-Site, else Origin against the Host)
// with PUBLIC_URL's origin also trusted (a proxy in front may rewrite Host);
// when a browser sends neither header, a Referer from another host is
// refused too. Requests with none of the three (curl, server-to-server) carry
// no ambient browser credentials and pass.
func (s *Service) sameOrigin(next echo.HandlerFunc) echo.HandlerFunc {
	cop := http.NewCrossOriginProtection()
	if err := cop.AddTrustedOrigin(s.public.Scheme + "://" + s.public.Host); err != nil {
		panic("accounts: PUBLIC_URL origin: " + err.Error())
	}
	return func(c echo.Context) error {
		r := c.Request()
		if err := cop.Check(r); err != nil || !refererAllowed(r, s.public.Host) {
			return refuse(c, "/login", nil, fail(http.StatusForbidden, codeCrossSite))
		}
		return next(c)
	}
}

func refererAllowed(r *http.Request, publicHost string) bool {
	if r.Header.Get("Sec-Fetch-Site") != "" || r.Header.Get("Origin") != "" || r.Referer() == "" {
		return true
	}
	u, err := url.Parse(r.Referer())
	return err == nil && (u.Host == r.Host || u.Host == publicHost)
}

// Guard is the same cross-site check for other packages' state-changing
// endpoints (billing).
func (s *Service) Guard(next echo.HandlerFunc) echo.HandlerFunc { return s.sameOrigin(next) }
