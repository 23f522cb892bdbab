// Package crossorigin refuses state-changing requests sent by another site
// and bodies of a type an endpoint does not take. Every POST of the JSON API
// (accounts, newsletter, contact) goes through the same check.
//
// The check is Go's http.CrossOriginProtection (Sec-Fetch-Site, else Origin
// against the Host) with PUBLIC_URL's origin also trusted (a proxy in front
// may rewrite Host); when a browser sends neither header, a Referer from
// another host is refused too. Requests with none of the three (curl,
// server-to-server) carry no ambient browser credentials and pass.
package crossorigin

import (
	"mime"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"
)

// Guard returns middleware that calls refuse for a cross-site request
// instead of the handler. publicURL may be empty (only the Host is trusted).
func Guard(publicURL string, refuse echo.HandlerFunc) echo.MiddlewareFunc {
	cop := http.NewCrossOriginProtection()
	publicHost := ""
	if u, err := url.Parse(publicURL); err == nil && u.Host != "" {
		publicHost = u.Host
		if err := cop.AddTrustedOrigin(u.Scheme + "://" + u.Host); err != nil {
			panic("crossorigin: PUBLIC_URL origin: " + err.Error())
		}
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			if err := cop.Check(r); err != nil || !refererAllowed(r, publicHost) {
				return refuse(c)
			}
			return next(c)
		}
	}
}

func refererAllowed(r *http.Request, publicHost string) bool {
	if r.Header.Get("Sec-Fetch-Site") != "" || r.Header.Get("Origin") != "" || r.Referer() == "" {
		return true
	}
	u, err := url.Parse(r.Referer())
	return err == nil && (u.Host == r.Host || (publicHost != "" && u.Host == publicHost))
}

// BodyType is the kind of request body: a form post (a page without
// JavaScript), JSON, or anything else (which the API does not take: 415).
type BodyType int

const (
	Unsupported BodyType = iota
	JSON
	Form
)

// TypeOf reads the request's Content-Type.
func TypeOf(r *http.Request) BodyType {
	mt, _, err := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	switch {
	case err != nil:
		return Unsupported
	case mt == echo.MIMEApplicationForm:
		return Form
	case mt == echo.MIMEApplicationJSON:
		return JSON
	}
	return Unsupported
}
