// Package theme is the visitor's colour theme as the server knows it: the
// theme cookie (shared/http.json themeCookie), light or dark, absent for
// system. The System/Light/Dark buttons post to POST /api/v1/theme without
// JavaScript (with it, the switcher's script sets the same cookie), which
// sets the cookie and sends the browser back to the page it came from; the
// renderer then puts the dark class on <html>, so the page is right without
// JavaScript and has no flash with it. The page cache keeps one copy of a
// page per value (Of): three at most, whatever a visitor sends.
package theme

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/exchange"
	"omnibus/shared"
)

// Cookie is the theme cookie's name (shared/http.json).
var Cookie = shared.HTTP.ThemeCookie

// The values a page can differ by; system is the absence of a value.
const (
	Light  = "light"
	Dark   = "dark"
	System = "system"
)

// maxAge is how long the browser keeps a chosen theme.
const maxAge = 365 * 24 * time.Hour

// Of is the request's theme: Light, Dark or "" (system: no cookie, or a
// value that is neither, so a made-up value is the system page, never a
// page or cache entry of its own).
func Of(r *http.Request) string {
	c, err := r.Cookie(Cookie)
	if err != nil {
		return ""
	}
	switch c.Value {
	case Light, Dark:
		return c.Value
	}
	return ""
}

// Register adds POST /theme to g, the /api/v1 group, read and answered
// with v (the site's words, internal/exchange: the one decoder and its
// cross-site guard): a form post {theme, back} (or JSON {theme}) sets the
// cookie (system clears it) and answers 303 to back, a path of this site
// (anything else: /), or 204 to a JSON request; another value is 400.
func Register(g *echo.Group, publicURL string, v *exchange.Vocabulary) {
	secure := strings.HasPrefix(publicURL, "https:")
	g.POST("/theme", func(c echo.Context) error {
		f, p := v.Decode(c, exchange.Fields{"theme": exchange.Text, "back": exchange.Text})
		if p != nil {
			return v.Refuse(c, p, exchange.Form{})
		}
		ck := &http.Cookie{Name: Cookie, Value: f["theme"], Path: "/", MaxAge: int(maxAge / time.Second), Secure: secure, SameSite: http.SameSiteLaxMode}
		switch f["theme"] {
		case Light, Dark:
		case System:
			ck.Value, ck.MaxAge = "", -1
		default:
			return v.Refuse(c, &exchange.Refusal{Status: http.StatusBadRequest, Code: v.Malformed}, exchange.Form{})
		}
		http.SetCookie(c.Response(), ck)
		if exchange.IsForm(c) {
			return exchange.SeeOther(c, Back(f["back"]))
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.NoContent(http.StatusNoContent)
	}, v.Guard(publicURL))
}

// Back is where the theme buttons send the browser: back, when it is a
// path of this site (relative, so on the canonical origin the request came
// to), else the home page. Never another host ("//evil", "/\evil", a scheme).
func Back(back string) string {
	if len(back) > 2048 || !strings.HasPrefix(back, "/") || strings.HasPrefix(back, "//") || strings.ContainsAny(back, "\\\r\n\t") {
		return "/"
	}
	u, err := url.Parse(back)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return "/"
	}
	u.Fragment = ""
	return u.String()
}
