// Package newsletter stores newsletter subscriptions:
// POST /api/v1/news-letter/subscribe with {"emailaddress": "..."}.
//
// The same endpoint takes the footer's form posted without JavaScript
// (application/x-www-form-urlencoded, field emailaddress, optional returnTo)
// and answers it with a 303 back to the page it came from, at the footer's
// #newsletter anchor, with ?newsletter=subscribed or
// ?newsletter=error&reason=<code>; the renderer turns the code into the same
// words the JSON answer carries (shared/content/newsletter.json).
package newsletter

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm/clause"

	"omnibus/edge/internal/http/response"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/storage"
	"omnibus/shared"
)

// MaxBody is the largest request body the endpoint reads (16 KB); a larger
// one is answered 413.
const MaxBody = 16 << 10

// Subscription is one subscribed address, stored trimmed and lower-cased so
// each address is stored once (table made by storage migration 2).
type Subscription struct {
	ID        uint64 `gorm:"primaryKey"`
	Email     string
	CreatedAt time.Time
}

// TableName keeps the model on migration 2's table.
func (Subscription) TableName() string { return "newsletter_subscriptions" }

// Reason codes: the keys of messages in shared/content/newsletter.json.
const (
	reasonEmpty       = "empty"
	reasonInvalid     = "invalid"
	reasonMalformed   = "malformed"
	reasonTooLarge    = "tooLarge"
	reasonRateLimited = "rateLimited"
	reasonUnavailable = "unavailable"
)

// messages are the texts for each reason code, read once from the shared content.
var messages = func() map[string]string {
	var c struct {
		Messages map[string]string `json:"messages"`
	}
	if err := json.Unmarshal(shared.NewsletterJSON, &c); err != nil {
		panic("newsletter: shared/content/newsletter.json: " + err.Error())
	}
	for _, k := range []string{reasonEmpty, reasonInvalid, reasonMalformed, reasonTooLarge, reasonRateLimited, reasonUnavailable} {
		if c.Messages[k] == "" {
			panic("newsletter: shared/content/newsletter.json has no message " + k)
		}
	}
	return c.Messages
}()

// Service is the subscribe endpoint.
type Service struct {
	db *storage.DB
	// Limit bounds subscriptions per client IP. The default allows a burst
	// of 10, then one more every 6 seconds.
	Limit *ratelimit.Limiter
}

// New returns the service on db.
func New(db *storage.DB) *Service {
	return &Service{db: db, Limit: ratelimit.For(db, "newsletter_ip", 10, 6*time.Second)}
}

// Register adds POST /news-letter/subscribe to g (the /api/v1 group).
func (s *Service) Register(g *echo.Group) {
	g.POST("/news-letter/subscribe", s.subscribe)
}

func (s *Service) subscribe(c echo.Context) error {
	req := c.Request()
	form := isForm(req)
	if ok, wait := s.Limit.Allow(c.RealIP()); !ok {
		if form {
			return redirect(c, "", reasonRateLimited)
		}
		return ratelimit.Refuse(c, wait)
	}
	if req.ContentLength > MaxBody {
		return response.Error(c, http.StatusRequestEntityTooLarge, messages[reasonTooLarge])
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, MaxBody+1))
	var tooBig *http.MaxBytesError // the server's own API body limit
	if errors.As(err, &tooBig) || len(body) > MaxBody {
		return response.Error(c, http.StatusRequestEntityTooLarge, messages[reasonTooLarge])
	}
	if err != nil {
		return fail(c, form, "", reasonMalformed)
	}

	var raw, returnTo string
	if form {
		v, err := url.ParseQuery(string(body))
		if err != nil {
			return fail(c, form, "", reasonMalformed)
		}
		raw, returnTo = v.Get("emailaddress"), v.Get("returnTo")
	} else {
		var reason string
		if raw, reason = decodeJSON(body); reason != "" {
			return fail(c, form, "", reason)
		}
	}

	email, reason := Normalise(raw)
	if reason != "" {
		return fail(c, form, returnTo, reason)
	}
	// Subscribing twice is a success: the second insert does nothing.
	err = s.db.WithContext(req.Context()).
		Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "email"}}, DoNothing: true}).
		Create(&Subscription{Email: email, CreatedAt: time.Now().UTC()}).Error
	if err != nil && !storage.IsUniqueViolation(err) {
		slog.Error("newsletter: store subscription", "err", err)
		if form {
			return redirect(c, returnTo, reasonUnavailable)
		}
		return response.Error(c, http.StatusServiceUnavailable, messages[reasonUnavailable])
	}
	if form {
		return redirect(c, returnTo, "")
	}
	return response.OK(c, map[string]any{"data": map[string]bool{"subscribed": true}})
}

// decodeJSON reads {"emailaddress": "..."}. A missing or null address is
// empty; an address that is not a string is invalid; anything that is not a
// JSON object is malformed.
func decodeJSON(body []byte) (email, reason string) {
	var p struct {
		EmailAddress json.RawMessage `json:"emailaddress"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return "", reasonMalformed
	}
	if len(p.EmailAddress) == 0 || string(p.EmailAddress) == "null" {
		return "", ""
	}
	if err := json.Unmarshal(p.EmailAddress, &email); err != nil {
		return "", reasonInvalid
	}
	return email, ""
}

// Normalise trims and lower-cases an address, or says why it is refused:
// "empty" for an empty or blank one, "invalid" for one that is not a plain
// addr-spec with a dotted domain.
func Normalise(raw string) (email, reason string) {
	e := strings.TrimSpace(raw)
	if e == "" {
		return "", reasonEmpty
	}
	if len(e) > 254 {
		return "", reasonInvalid
	}
	a, err := mail.ParseAddress(e)
	if err != nil || a.Name != "" || a.Address != e {
		return "", reasonInvalid
	}
	domain := e[strings.LastIndexByte(e, '@')+1:]
	if !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
		return "", reasonInvalid
	}
	return strings.ToLower(e), ""
}

func fail(c echo.Context, form bool, returnTo, reason string) error {
	if form {
		return redirect(c, returnTo, reason)
	}
	return response.Error(c, http.StatusBadRequest, messages[reason])
}

// redirect answers a form post with 303 to the page it came from: returnTo
// when it is a path on this site, else the Referer when it is this host,
// else "/". reason "" means subscribed.
func redirect(c echo.Context, returnTo, reason string) error {
	u := localPath(returnTo)
	if u == nil {
		if ref, err := url.Parse(c.Request().Referer()); err == nil && ref.Host != "" && ref.Host == c.Request().Host {
			u = localPath(ref.RequestURI())
		}
	}
	if u == nil {
		u = &url.URL{Path: "/"}
	}
	q := u.Query()
	q.Del("newsletter")
	q.Del("reason")
	if reason == "" {
		q.Set("newsletter", "subscribed")
	} else {
		q.Set("newsletter", "error")
		q.Set("reason", reason)
	}
	u.RawQuery = q.Encode()
	u.Fragment = "newsletter"
	return c.Redirect(http.StatusSeeOther, u.String())
}

// localPath accepts only a path on this site ("/x?y"), never "//host",
// "/\host" or anything with a scheme, so the redirect cannot leave the site.
func localPath(s string) *url.URL {
	if s == "" || s[0] != '/' || strings.HasPrefix(s, "//") || strings.ContainsAny(s, "\\\r\n\t") {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return nil
	}
	return &url.URL{Path: u.Path, RawPath: u.RawPath, RawQuery: u.RawQuery}
}

func isForm(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	return err == nil && mt == echo.MIMEApplicationForm
}

