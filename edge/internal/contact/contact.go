// Package contact stores messages from the seven contact-form pages
// (/contact-us, /general-enquiry, /data-entry, /custom-website, /custom-logo,
// /custom-banners, /career): POST /api/v1/omnibus/contact-us with
// {"topic", "name", "email", "company", "phone", "message"}.
//
// topic is the page's id. The topics, the field limits and every message
// come from shared/content/contact.json, which the contact pages render from
// too, so the browser's inline validation and the edge's answers agree.
//
// A JSON request is answered with JSON: 201 {"data": {"sent": true}} once the
// message is stored, 400 {"errorDetail", "field", "fieldErrors"} for invalid
// fields (errorDetail and field the first), 413, 415, 429 or 503
// {"errorDetail"} (internal/exchange). The page's form posted without
// JavaScript (application/x-www-form-urlencoded, to the page itself:
// internal/forms) is answered with a 303 to its own page — the path is
// derived from the topic, so it can never leave the site — with
// ?outcome=sent at the #contact-form anchor once stored; a refusal is the
// page again with what was typed and every invalid field (forms.Refuse).
package contact

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/exchange"
	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/validation"
	"omnibus/shared"
)

// MaxBody is the largest request body the endpoint reads (16 KB); a larger
// one is answered 413.
const MaxBody = exchange.MaxBody

// Outcome codes: the keys of "outcomes" in shared/content/contact.json; sent
// comes back in the no-JavaScript redirect (?outcome=sent), the others are a
// refused form's own error (forms.State).
const (
	OutcomeSent        = "sent"
	OutcomeInvalid     = "invalid"
	OutcomeTooLarge    = "too-large"
	OutcomeRateLimited = "rate-limited"
	OutcomeUnavailable = "unavailable"

	outcomeCrossSite       = "cross-site"
	outcomeUnsupportedType = "unsupported-type"
)

// Message is one stored contact message (table made by storage migration 20).
type Message struct {
	ID        uint64 `gorm:"primaryKey"`
	Topic     string
	Name      string
	Email     string
	Company   string
	Phone     string
	Message   string
	CVURL     string `gorm:"column:cv_url"`
	CreatedAt time.Time
}

// TableName keeps the model on migration 20's table.
func (Message) TableName() string { return "contact_messages" }

// field is one form field's rules, as contact.json states them.
type field struct {
	Required  bool   `json:"required"`
	MinLength int    `json:"minLength"`
	MaxLength int    `json:"maxLength"`
	Error     string `json:"error"`
}

// form is the part of contact.json the edge needs.
type form struct {
	Fields       map[string]field    `json:"fields"`
	GenericError string              `json:"genericError"`
	TopicError   string              `json:"topicError"`
	Outcomes     map[string]string   `json:"outcomes"`
	Pages        map[string]struct{} `json:"pages"`
}

// fieldOrder is the order fields are checked in, so the first error named
// is the first wrong field on the page.
var fieldOrder = []string{"name", "email", "company", "phone", "cvUrl", "message"}

// content is contact.json, read and checked once.
var content = func() form {
	var f form
	if err := json.Unmarshal(shared.ContactJSON, &f); err != nil {
		panic("contact: shared/content/contact.json: " + err.Error())
	}
	for _, k := range fieldOrder {
		if fd, ok := f.Fields[k]; !ok || fd.Error == "" || fd.MaxLength <= 0 {
			panic("contact: shared/content/contact.json: field " + k + " needs an error and a maxLength")
		}
	}
	for _, k := range []string{OutcomeSent, OutcomeInvalid, OutcomeTooLarge, OutcomeRateLimited, OutcomeUnavailable, outcomeCrossSite, outcomeUnsupportedType} {
		if f.Outcomes[k] == "" {
			panic("contact: shared/content/contact.json has no outcome " + k)
		}
	}
	if f.GenericError == "" || f.TopicError == "" || len(f.Pages) == 0 {
		panic("contact: shared/content/contact.json needs genericError, topicError and pages")
	}
	return f
}()

// Topics reports the accepted topics (the contact pages' ids).
func Topics() []string {
	ts := make([]string, 0, len(content.Pages))
	for t := range content.Pages {
		ts = append(ts, t)
	}
	return ts
}

// Service is the contact endpoint.
type Service struct {
	db *storage.DB
	// Notify, when set with NotifyTo, e-mails each stored message to the
	// team (CONTACT_NOTIFY_EMAIL). It runs after the answer: the message is
	// already stored, so a mail failure is logged and loses nothing.
	Notify   mail.Sender
	NotifyTo string
	// Limit bounds stored messages per client IP: by default a burst of 5,
	// then one more every 2 minutes. Invalid submissions are not counted, so
	// a visitor correcting a typo is never locked out.
	Limit *ratelimit.Limiter
	// Now is the clock (tests replace it).
	Now func() time.Time
	// PublicURL is the site's origin, trusted by the cross-site check
	// besides the request's Host (PUBLIC_URL).
	PublicURL string
}

// New returns the service on db, its limit keyed by keys.
func New(db *storage.DB, keys ratelimit.Keys) *Service {
	return &Service{db: db, Limit: keys.For(db, "contact_ip", 5, 2*time.Minute), Now: time.Now}
}

// Register adds POST /omnibus/contact-us to g (the /api/v1 group).
func (s *Service) Register(g *echo.Group) { g.POST("/omnibus/contact-us", s.Submit()) }

// Submit is the endpoint's handler, which the contact pages take their form
// posts with too (internal/forms). Cross-site posts are refused with 403
// (exchange.Guard, the check every form-or-JSON endpoint uses).
func (s *Service) Submit() echo.HandlerFunc {
	return vocabulary.Guard(s.PublicURL)(s.create)
}

// Input is a submission as received.
type Input struct {
	Topic   string `json:"topic"`
	Name    string `json:"name"`
	Email   string `json:"email"`
	Company string `json:"company"`
	Phone   string `json:"phone"`
	Message string `json:"message"`
	CVURL   string `json:"cvUrl"`
}

// vocabulary is contact.json's outcomes as the shared decoder and answers
// use them (internal/exchange); an invalid field's words are its own.
var vocabulary = &exchange.Vocabulary{
	CrossSite: outcomeCrossSite, UnsupportedType: outcomeUnsupportedType, TooLarge: OutcomeTooLarge, Malformed: OutcomeInvalid,
	RateLimited: OutcomeRateLimited,
	Words: func(code string) string {
		if code == OutcomeInvalid {
			return content.GenericError
		}
		return content.Outcomes[code]
	},
	FieldWords: func(field, _ string) string { return ErrorMessage(field) },
}

// inputFields are the JSON fields of a submission.
var inputFields = exchange.Fields{
	"topic": exchange.Text, "name": exchange.Text, "email": exchange.Text, "company": exchange.Text,
	"phone": exchange.Text, "message": exchange.Text, "cvUrl": exchange.Text,
}

func (s *Service) create(c echo.Context) error {
	req := c.Request()
	f, p := vocabulary.Decode(c, inputFields)
	in := Input{Topic: f["topic"], Name: f["name"], Email: f["email"], Company: f["company"], Phone: f["phone"], Message: f["message"], CVURL: f["cvUrl"]}
	page := pageOf(in)
	if p != nil {
		return vocabulary.Refuse(c, p, page)
	}

	msg, bad := Validate(in)
	if len(bad) > 0 {
		p := &exchange.Refusal{Status: http.StatusBadRequest, Code: OutcomeInvalid}
		for _, name := range bad {
			p.Add(name, OutcomeInvalid)
		}
		return vocabulary.Refuse(c, p, page)
	}

	if ok, wait := s.Limit.Allow(c.Request().Context(), s.Limit.Client(c.Request())); !ok {
		return vocabulary.Limited(c, wait, page)
	}

	msg.CreatedAt = s.Now().UTC()
	if err := s.db.WithContext(req.Context()).Create(&msg).Error; err != nil {
		slog.ErrorContext(c.Request().Context(), "contact: store message", "err", err, "topic", msg.Topic)
		return vocabulary.Refuse(c, &exchange.Refusal{Status: http.StatusServiceUnavailable, Code: OutcomeUnavailable}, page)
	}
	s.notify(c.Request().Context(), msg)
	// Posted as a form: 303 to the topic's own page (a known topic id, so
	// always a path on this site) with ?outcome=sent.
	return exchange.Done(c, http.StatusCreated, map[string]any{"data": map[string]bool{"sent": true}},
		"/"+msg.Topic+"?outcome="+OutcomeSent+"#contact-form")
}

// notify e-mails a stored message to the team, in the background.
func (s *Service) notify(reqCtx context.Context, m Message) {
	if s.Notify == nil || s.NotifyTo == "" {
		return
	}
	mm := mail.Message{
		To:      s.NotifyTo,
		Subject: fmt.Sprintf("Contact form (%s): %s", m.Topic, m.Name),
		Text: fmt.Sprintf("Page: /%s\nName: %s\nE-mail: %s\nCompany: %s\nPhone: %s\nCV: %s\nReceived: %s\nMessage #%d\n\n%s\n",
			m.Topic, m.Name, m.Email, m.Company, m.Phone, m.CVURL, m.CreatedAt.Format(time.RFC3339), m.ID, m.Message),
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(reqCtx), notifyTimeout)
		defer cancel()
		if err := s.Notify.Send(ctx, mm); err != nil {
			slog.ErrorContext(ctx, "contact: notify the team (the message is stored)", "err", err, "id", m.ID)
		}
	}()
}

// notifyTimeout bounds one notification e-mail.
const notifyTimeout = 30 * time.Second

// pageOf is the contact page's form showing in again (a refused post to
// its page without JavaScript): what was typed, as validation.Shown bounds it.
func pageOf(in Input) exchange.Form {
	st := forms.State{Form: "contact", Values: map[string]string{}}
	raw := map[string]string{"name": in.Name, "email": in.Email, "company": in.Company, "phone": in.Phone, "cvUrl": in.CVURL, "message": in.Message}
	for _, name := range fieldOrder {
		if v := validation.Shown(name, raw[name]); v != "" {
			st.Values[name] = v
		}
	}
	return exchange.Form{State: st, Hidden: []string{"topic"}} // the topic is the page's own
}

// ErrorMessage is the errorDetail for an invalid field ("topic" or one of
// the form fields); the generic message for anything else.
func ErrorMessage(name string) string {
	if name == "topic" {
		return content.TopicError
	}
	if f, ok := content.Fields[name]; ok {
		return f.Error
	}
	return content.GenericError
}

// Validate trims a submission and checks it against contact.json. It
// returns the message to store, or the names of every invalid field
// ("topic", then "name", "email", "company", "phone", "cvUrl", "message" in
// the page's order).
func Validate(in Input) (Message, []string) {
	m := Message{
		Topic:   strings.TrimSpace(in.Topic),
		Name:    strings.TrimSpace(in.Name),
		Email:   strings.TrimSpace(in.Email),
		Company: strings.TrimSpace(in.Company),
		Phone:   strings.TrimSpace(in.Phone),
		CVURL:   strings.TrimSpace(in.CVURL),
		// Keep the message's own line breaks; only trim its ends.
		Message: strings.TrimSpace(strings.ReplaceAll(in.Message, "\r\n", "\n")),
	}
	var bad []string
	if _, ok := content.Pages[m.Topic]; !ok {
		bad = append(bad, "topic")
	}
	values := map[string]*string{"name": &m.Name, "email": &m.Email, "company": &m.Company, "phone": &m.Phone, "cvUrl": &m.CVURL, "message": &m.Message}
	for _, name := range fieldOrder {
		// Lengths, required fields, the e-mail pattern and the characters
		// no field takes: shared/validation.json.
		v, p := validation.Check(name, *values[name])
		if p != validation.OK || name == "phone" && v != "" && !validPhone(v) || name == "cvUrl" && v != "" && !validLink(v) {
			bad = append(bad, name)
			continue
		}
		if name != "email" {
			*values[name] = v
		}
	}
	if len(bad) > 0 {
		return Message{}, bad
	}
	return m, nil
}

// validLink accepts an absolute http(s) link with a host (a CV, a LinkedIn
// profile, a portfolio): nothing a mail client or the admin could be tricked
// into running (javascript:, data:).
func validLink(v string) bool {
	u, err := url.Parse(v)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && u.User == nil
}

// validPhone accepts 7 to 15 digits (E.164's maximum), optionally led by +
// and grouped with spaces, dots, hyphens or brackets.
func validPhone(p string) bool {
	digits := 0
	for i, r := range p {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '+' && i == 0, r == ' ', r == '-', r == '.', r == '(', r == ')':
		default:
			return false
		}
	}
	return digits >= 7 && digits <= 15
}
