// Package newsletter stores newsletter subscriptions:
// POST /api/v1/news-letter/subscribe with {"emailaddress": "..."}.
//
// The footer's form posted without JavaScript (application/x-www-form-urlencoded,
// field emailaddress) goes to the page it is on (internal/forms), which hands
// it to the same handler: a subscription is answered with a 303 back to that
// page at the footer's #newsletter anchor with ?newsletter=subscribed, a
// refusal with the page itself showing the address and the reason's words
// (forms.Refuse; reason codes are the keys of messages in
// shared/content/newsletter.json, which the JSON answers use too). A form
// posted to the endpoint itself (optional returnTo) is answered the same on
// success and with JSON on refusal.
package newsletter

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm/clause"

	"omnibus/edge/internal/exchange"
	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/token"
	"omnibus/edge/internal/validation"
	"omnibus/shared"
)

// MaxBody is the largest request body the endpoint reads (16 KB); a larger
// one is answered 413.
const MaxBody = exchange.MaxBody

// Subscription is one subscribed address, stored trimmed and lower-cased so
// each address is stored once (table made by storage migration 2).
type Subscription struct {
	ID        uint64 `gorm:"primaryKey"`
	Email     string
	CreatedAt time.Time
	// Double opt-in (migration 91): pending until the mailed link is opened.
	ConfirmedAt      *time.Time
	ConfirmSentAt    *time.Time
	ConfirmTokenHash *string
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
	reasonCrossSite   = "crossSite"
	reasonUnsupported = "unsupportedType"
	reasonConfirmed   = "confirmed"
	reasonConfirmBad  = "confirmInvalid"
)

// confirmTTL is how long a confirmation link works; resendAfter is how soon
// another subscribe for a pending address mails a new one.
const (
	confirmTTL  = 7 * 24 * time.Hour
	resendAfter = 10 * time.Minute
)

// messages are the texts for each reason code, read once from the shared content.
var messages = func() map[string]string {
	var c struct {
		Messages     map[string]string `json:"messages"`
		ConfirmEmail struct {
			Subject string `json:"subject"`
			Body    string `json:"body"`
		} `json:"confirmEmail"`
	}
	if err := json.Unmarshal(shared.NewsletterJSON, &c); err != nil {
		panic("newsletter: shared/content/newsletter.json: " + err.Error())
	}
	if c.ConfirmEmail.Subject == "" || !strings.Contains(c.ConfirmEmail.Body, "{link}") {
		panic("newsletter: shared/content/newsletter.json: confirmEmail needs a subject and a body with {link}")
	}
	confirmSubject, confirmBody = c.ConfirmEmail.Subject, c.ConfirmEmail.Body
	for _, k := range []string{reasonEmpty, reasonInvalid, reasonMalformed, reasonTooLarge, reasonRateLimited, reasonUnavailable,
		reasonCrossSite, reasonUnsupported, reasonConfirmed, reasonConfirmBad} {
		if c.Messages[k] == "" {
			panic("newsletter: shared/content/newsletter.json has no message " + k)
		}
	}
	return c.Messages
}()

// The confirmation mail (newsletter.json's confirmEmail).
var confirmSubject, confirmBody string

// Service is the subscribe endpoint.
type Service struct {
	db *storage.DB
	// Mail sends the confirmation link (double opt-in); PublicURL is the
	// base of that link and the origin the cross-site check trusts.
	Mail      mail.Sender
	PublicURL string
	// Background runs work the answer does not wait for (tests run it inline).
	Background func(func())
	// Limit bounds subscriptions per client IP. The default allows a burst
	// of 10, then one more every 6 seconds.
	Limit *ratelimit.Limiter
}

// New returns the service on db, its limit keyed by keys.
func New(db *storage.DB, keys ratelimit.Keys) *Service {
	return &Service{db: db, Limit: keys.For(db, "newsletter_ip", 10, 6*time.Second), Background: func(f func()) { go f() }}
}

// Register adds POST /news-letter/subscribe and GET /news-letter/confirm
// (the mailed link) to g (the /api/v1 group).
func (s *Service) Register(g *echo.Group) {
	g.POST("/news-letter/subscribe", s.Submit())
	g.GET("/news-letter/confirm", s.confirm)
}

// Submit is the subscribe handler, which every page with the footer takes
// its form posts with too (internal/forms). Cross-site posts are refused
// with 403 (the check the account endpoints use).
func (s *Service) Submit() echo.HandlerFunc {
	return vocabulary.Guard(s.PublicURL)(s.subscribe)
}

// vocabulary is newsletter.json's messages as the shared decoder and
// answers use them (internal/exchange).
var vocabulary = &exchange.Vocabulary{
	CrossSite: reasonCrossSite, UnsupportedType: reasonUnsupported, TooLarge: reasonTooLarge, Malformed: reasonMalformed,
	RateLimited: reasonRateLimited, Words: func(code string) string { return messages[code] },
}

// fields: the address, which a JSON client may send as any scalar (a
// number is simply not an address: "invalid"); returnTo comes with forms.
var fields = exchange.Fields{"emailaddress": exchange.Number}

func (s *Service) subscribe(c echo.Context) error {
	req := c.Request()
	f, p := vocabulary.Decode(c, fields)
	if p != nil {
		return vocabulary.Refuse(c, p, pageOf(""))
	}
	raw, returnTo := f["emailaddress"], f["returnTo"]
	if forms.OnPage(c) {
		returnTo = req.URL.RequestURI() // the page it was posted to
	}
	page := pageOf(raw)
	if ok, wait := s.Limit.Allow(c.Request().Context(), s.Limit.Client(c.Request())); !ok {
		return vocabulary.Limited(c, wait, page)
	}

	email, reason := Normalise(raw)
	if reason != "" {
		p := &exchange.Refusal{Status: http.StatusBadRequest, Code: reason}
		p.Add("emailaddress", reason)
		return vocabulary.Refuse(c, p, page)
	}
	// Stored as pending; the address's owner confirms by the mailed link.
	// Subscribing twice is a success: the second insert does nothing.
	now := time.Now().UTC()
	err := s.db.WithContext(req.Context()).
		Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "email"}}, DoNothing: true}).
		Create(&Subscription{Email: email, CreatedAt: now}).Error
	if err != nil && !storage.IsUniqueViolation(err) {
		slog.ErrorContext(c.Request().Context(), "newsletter: store subscription", "err", err)
		return vocabulary.Refuse(c, &exchange.Refusal{Status: http.StatusServiceUnavailable, Code: reasonUnavailable}, page)
	}
	reqCtx := c.Request().Context()
	s.Background(func() { s.sendConfirmation(reqCtx, email) })
	if exchange.IsForm(c) {
		return exchange.SeeOther(c, backTo(c, returnTo))
	}
	return exchange.Done(c, http.StatusOK, map[string]any{"data": map[string]bool{"subscribed": true}}, "")
}

// pageOf is the footer's box showing raw again (a refused post to a page
// without JavaScript).
func pageOf(raw string) exchange.Form {
	st := forms.State{Form: forms.Newsletter}
	if v := validation.Shown("email", raw); v != "" {
		st.Values = map[string]string{"emailaddress": v}
	}
	return exchange.Form{State: st}
}

// Normalise trims and lower-cases an address, or says why it is refused:
// "empty" for an empty or blank one, "invalid" for one that breaks the
// e-mail rule of shared/validation.json.
func Normalise(raw string) (email, reason string) {
	e, p := validation.Email(raw)
	switch p {
	case validation.OK:
		return e, ""
	case validation.Required:
		return "", reasonEmpty
	}
	return "", reasonInvalid
}

// backTo is where a subscription posted as a form is sent (303): the page it
// came from, returnTo when it is a path on this site, else the Referer when
// it is this host, else "/", with ?newsletter=subscribed at #newsletter.
func backTo(c echo.Context, returnTo string) string {
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
	q.Del("reason")
	q.Set("newsletter", "subscribed")
	u.RawQuery = q.Encode()
	u.Fragment = "newsletter"
	return u.String()
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

// sendConfirmation mails a fresh confirmation link to a pending address,
// at most once per resendAfter (the claim is one UPDATE, so concurrent
// subscribes send one mail). A confirmed address gets nothing.
func (s *Service) sendConfirmation(reqCtx context.Context, email string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(reqCtx), time.Minute)
	defer cancel()
	now := time.Now().UTC()
	secret := token.New()
	h := token.Hash(secret)
	res := s.db.WithContext(ctx).Model(&Subscription{}).
		Where("email = ? AND confirmed_at IS NULL AND (confirm_sent_at IS NULL OR confirm_sent_at < ?)", email, now.Add(-resendAfter)).
		Updates(map[string]any{"confirm_token_hash": h, "confirm_sent_at": now})
	if res.Error != nil {
		slog.ErrorContext(ctx, "newsletter: confirmation link", "err", res.Error)
		return
	}
	if res.RowsAffected != 1 {
		return
	}
	if s.Mail == nil {
		slog.ErrorContext(ctx, "newsletter: no mail sender; confirmation not sent")
		return
	}
	base, err := url.Parse(s.PublicURL)
	if err != nil || base.Host == "" {
		base = &url.URL{Scheme: "http", Host: "localhost:8080"}
	}
	link := base.JoinPath("/api/v1/news-letter/confirm")
	link.RawQuery = url.Values{"token": {secret}}.Encode()
	body := mail.Fill(confirmBody, map[string]string{"link": link.String()})
	if err := s.Mail.Send(ctx, mail.Message{To: email, Subject: confirmSubject, Text: body}); err != nil {
		slog.ErrorContext(ctx, "newsletter: send confirmation", "err", err)
	}
}

// confirm: GET /news-letter/confirm?token=… (the mailed link). Confirms the
// subscription once and answers 303 to /?newsletter=confirmed#newsletter
// (or ?newsletter=error&reason=confirmInvalid).
func (s *Service) confirm(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	c.Response().Header().Set("Referrer-Policy", "no-referrer")
	secret := c.QueryParam("token")
	now := time.Now().UTC()
	back := func(outcome string) error {
		q := url.Values{"newsletter": {outcome}}
		if outcome != reasonConfirmed {
			q = url.Values{"newsletter": {"error"}, "reason": {outcome}}
		}
		return c.Redirect(http.StatusSeeOther, "/?"+q.Encode()+"#newsletter")
	}
	if len(secret) != token.Len {
		return back(reasonConfirmBad)
	}
	res := s.db.WithContext(c.Request().Context()).Model(&Subscription{}).
		Where("confirm_token_hash = ? AND confirmed_at IS NULL AND confirm_sent_at > ?", token.Hash(secret), now.Add(-confirmTTL)).
		Updates(map[string]any{"confirmed_at": now, "confirm_token_hash": nil})
	if res.Error != nil {
		slog.ErrorContext(c.Request().Context(), "newsletter: confirm", "err", res.Error)
		return back(reasonUnavailable)
	}
	if res.RowsAffected != 1 {
		return back(reasonConfirmBad)
	}
	return back(reasonConfirmed)
}
