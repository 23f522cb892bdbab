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
// message is stored, 400 {"errorDetail", "field"} for an invalid field, 413,
// 429 or 503 {"errorDetail"}. The page's form posted without JavaScript
// (application/x-www-form-urlencoded) is answered with a 303 back to its own
// page — the path is derived from the topic, so it can never leave the site —
// carrying ?outcome=<code> (and &field=<name> for an invalid field), at the
// #contact-form anchor; the page renders the code's message.
package contact

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	netmail "net/mail"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/http/response"
	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/storage"
	"omnibus/shared"
)

// MaxBody is the largest request body the endpoint reads (16 KB); a larger
// one is answered 413.
const MaxBody = 16 << 10

// Outcome codes carried by the no-JavaScript redirect (?outcome=): the keys
// of "outcomes" in shared/content/contact.json.
const (
	OutcomeSent        = "sent"
	OutcomeInvalid     = "invalid"
	OutcomeTooLarge    = "too-large"
	OutcomeRateLimited = "rate-limited"
	OutcomeUnavailable = "unavailable"
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
	for _, k := range []string{OutcomeSent, OutcomeInvalid, OutcomeTooLarge, OutcomeRateLimited, OutcomeUnavailable} {
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
}

// New returns the service on db.
func New(db *storage.DB) *Service {
	return &Service{db: db, Limit: ratelimit.New(5, 2*time.Minute), Now: time.Now}
}

// Register adds POST /omnibus/contact-us to g (the /api/v1 group).
func (s *Service) Register(g *echo.Group) {
	g.POST("/omnibus/contact-us", s.create)
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

func (s *Service) create(c echo.Context) error {
	req := c.Request()
	isForm := formPost(req)
	if req.ContentLength > MaxBody {
		return s.refuse(c, isForm, "", http.StatusRequestEntityTooLarge, OutcomeTooLarge, "")
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, MaxBody+1))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return s.refuse(c, isForm, "", http.StatusRequestEntityTooLarge, OutcomeTooLarge, "")
		}
		return s.refuse(c, isForm, "", http.StatusBadRequest, OutcomeInvalid, "")
	}
	if len(body) > MaxBody {
		return s.refuse(c, isForm, "", http.StatusRequestEntityTooLarge, OutcomeTooLarge, "")
	}

	var in Input
	if isForm {
		v, err := url.ParseQuery(string(body))
		if err != nil {
			return s.refuse(c, isForm, "", http.StatusBadRequest, OutcomeInvalid, "")
		}
		in = Input{Topic: v.Get("topic"), Name: v.Get("name"), Email: v.Get("email"),
			Company: v.Get("company"), Phone: v.Get("phone"), Message: v.Get("message"), CVURL: v.Get("cvUrl")}
	} else if err := json.Unmarshal(body, &in); err != nil {
		// Not a JSON object, or a field that is not a string.
		return response.Error(c, http.StatusBadRequest, content.GenericError)
	}

	msg, badField := Validate(in)
	if badField != "" {
		return s.refuse(c, isForm, in.Topic, http.StatusBadRequest, OutcomeInvalid, badField)
	}

	if ok, wait := s.Limit.Allow(c.RealIP()); !ok {
		if isForm {
			return redirect(c, msg.Topic, OutcomeRateLimited, "")
		}
		return ratelimit.Refuse(c, wait)
	}

	msg.CreatedAt = s.Now().UTC()
	if err := s.db.WithContext(req.Context()).Create(&msg).Error; err != nil {
		slog.Error("contact: store message", "err", err, "topic", msg.Topic)
		return s.refuse(c, isForm, msg.Topic, http.StatusServiceUnavailable, OutcomeUnavailable, "")
	}
	s.notify(msg)
	if isForm {
		return redirect(c, msg.Topic, OutcomeSent, "")
	}
	return c.JSON(http.StatusCreated, map[string]any{"data": map[string]bool{"sent": true}})
}

// notify e-mails a stored message to the team, in the background.
func (s *Service) notify(m Message) {
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
		ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
		defer cancel()
		if err := s.Notify.Send(ctx, mm); err != nil {
			slog.Error("contact: notify the team (the message is stored)", "err", err, "id", m.ID)
		}
	}()
}

// notifyTimeout bounds one notification e-mail.
const notifyTimeout = 30 * time.Second

// refuse answers a failed submission: JSON with the field's or the
// outcome's message, or the form's redirect.
func (s *Service) refuse(c echo.Context, isForm bool, topic string, status int, outcome, badField string) error {
	if isForm {
		return redirect(c, topic, outcome, badField)
	}
	if badField != "" {
		return c.JSON(status, struct {
			ErrorDetail string `json:"errorDetail"`
			Field       string `json:"field"`
		}{ErrorMessage(badField), badField})
	}
	if outcome == OutcomeInvalid {
		return response.Error(c, status, content.GenericError)
	}
	return response.Error(c, status, content.Outcomes[outcome])
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
// returns the message to store, or the name of the first invalid field
// ("topic", "name", "email", "company", "phone" or "message").
func Validate(in Input) (Message, string) {
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
	if _, ok := content.Pages[m.Topic]; !ok {
		return Message{}, "topic"
	}
	values := map[string]string{"name": m.Name, "email": m.Email, "company": m.Company, "phone": m.Phone, "cvUrl": m.CVURL, "message": m.Message}
	for _, name := range fieldOrder {
		v := values[name]
		f := content.Fields[name]
		n := utf8.RuneCountInString(v)
		switch {
		case v == "" && !f.Required:
			continue
		case v == "", n < f.MinLength, n > f.MaxLength, !utf8.ValidString(v), hasControl(v, name == "message"):
			return Message{}, name
		}
		if name == "email" && !validEmail(v) || name == "phone" && !validPhone(v) || name == "cvUrl" && !validLink(v) {
			return Message{}, name
		}
	}
	return m, ""
}

// validEmail accepts a plain addr-spec with a dotted domain.
func validEmail(e string) bool {
	a, err := netmail.ParseAddress(e)
	if err != nil || a.Name != "" || a.Address != e {
		return false
	}
	domain := e[strings.LastIndexByte(e, '@')+1:]
	return strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
}

// validPhone accepts 7 to 15 digits (E.164's maximum), optionally led by +
// and grouped with spaces, dots, hyphens or brackets.
// validLink accepts an absolute http(s) link with a host (a CV, a LinkedIn
// profile, a portfolio): nothing a mail client or the admin could be tricked
// into running (javascript:, data:).
func validLink(v string) bool {
	u, err := url.Parse(v)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && u.User == nil
}

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

// hasControl reports control characters other than line breaks and tabs
// in a multi-line field.
func hasControl(s string, multiline bool) bool {
	for _, r := range s {
		if unicode.IsControl(r) && !(multiline && (r == '\n' || r == '\t')) {
			return true
		}
	}
	return false
}

// redirect answers a form post with 303 to the topic's own page (a known
// topic id, so always a path on this site; /contact-us for an unknown one)
// with ?outcome= and, for an invalid field, &field=.
func redirect(c echo.Context, topic, outcome, badField string) error {
	if _, ok := content.Pages[topic]; !ok {
		topic = "contact-us"
	}
	q := url.Values{"outcome": {outcome}}
	if badField != "" {
		q.Set("field", badField)
	}
	return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/%s?%s#contact-form", topic, q.Encode()))
}

func formPost(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	return err == nil && mt == echo.MIMEApplicationForm
}
