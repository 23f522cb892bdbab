// Package mail sends the edge's e-mail (password reset links). With SMTP_URL
// set it talks SMTP (github.com/emersion/go-smtp); without, each message is
// written to the mail_outbox table and to the log, so a developer can follow
// a reset link without a mail server.
//
// SMTP_URL forms:
//
//	smtp://user:pass@host:587   STARTTLS when the server offers it
//	smtps://user:pass@host:465  TLS from the first byte
//
// Credentials are never sent over an unencrypted connection, except to a
// loopback host (a local relay or a test server).
package mail

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/validation"
)

// Message is one plain-text e-mail to one recipient.
type Message struct {
	To      string
	Subject string
	Text    string
}

// Sender delivers messages.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// New returns the SMTP sender when smtpURL is set, else the outbox on db.
// from is the From header (MAIL_FROM), e.g. "Omnibus <no-reply@example.com>".
func New(smtpURL, from string, db *storage.DB) (Sender, error) {
	if _, err := mail.ParseAddress(from); err != nil {
		return nil, fmt.Errorf("mail: MAIL_FROM %q: %w", from, err)
	}
	if smtpURL == "" {
		slog.Warn("mail: SMTP_URL is not set: NO E-MAIL LEAVES THIS MACHINE; messages (sign-up confirmations, reset links) are kept in the mail_outbox table: read them with `edge mail`")
		return &Outbox{DB: db, From: from}, nil
	}
	return NewSMTP(smtpURL, from)
}

// OutboxMessage is one row of mail_outbox (table made by storage migration 6).
type OutboxMessage struct {
	ID        uint64 `gorm:"primaryKey"`
	Recipient string
	Subject   string
	Body      string
	CreatedAt time.Time
}

// TableName keeps the model on migration 6's table.
func (OutboxMessage) TableName() string { return "mail_outbox" }

// Outbox keeps messages in the database and logs them instead of sending.
type Outbox struct {
	DB   *storage.DB
	From string
}

// Send stores m and logs it.
func (o *Outbox) Send(ctx context.Context, m Message) error {
	if err := checkHeader(m.To, m.Subject); err != nil {
		return err
	}
	row := OutboxMessage{Recipient: m.To, Subject: m.Subject, Body: m.Text, CreatedAt: time.Now().UTC()}
	if err := o.DB.WithContext(ctx).Create(&row).Error; err != nil {
		return fmt.Errorf("mail: outbox: %w", err)
	}
	// Never the body: it carries single-use links (reset, confirmation).
	slog.Info("mail: no SMTP_URL, message kept in mail_outbox (read it with `edge mail`)", "id", row.ID, "subject", m.Subject)
	return nil
}

// SMTP sends through an SMTP server.
type SMTP struct {
	addr        string // host:port
	host        string
	implicitTLS bool
	user, pass  string
	from        string
	fromAddr    string
	// Timeout bounds one delivery (default 30s).
	Timeout time.Duration
	// TLSConfig is used for STARTTLS and smtps (nil: system roots, host name checked).
	TLSConfig *tls.Config
}

// NewSMTP parses an smtp:// or smtps:// URL.
func NewSMTP(smtpURL, from string) (*SMTP, error) {
	u, err := url.Parse(smtpURL)
	if err != nil {
		return nil, fmt.Errorf("mail: SMTP_URL: %w", err)
	}
	a, err := mail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("mail: MAIL_FROM %q: %w", from, err)
	}
	s := &SMTP{host: u.Hostname(), from: from, fromAddr: a.Address, Timeout: 30 * time.Second}
	port := u.Port()
	switch u.Scheme {
	case "smtp":
		if port == "" {
			port = "587"
		}
	case "smtps":
		s.implicitTLS = true
		if port == "" {
			port = "465"
		}
	default:
		return nil, fmt.Errorf("mail: SMTP_URL scheme %q: want smtp or smtps", u.Scheme)
	}
	if s.host == "" {
		return nil, errors.New("mail: SMTP_URL has no host")
	}
	s.addr = net.JoinHostPort(s.host, port)
	if u.User != nil {
		s.user = u.User.Username()
		s.pass, _ = u.User.Password()
	}
	return s, nil
}

// Send delivers m.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	if err := checkHeader(m.To, m.Subject); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	c, err := s.dial(ctx)
	if err != nil {
		return fmt.Errorf("mail: connect %s: %w", s.addr, err)
	}
	defer c.Close()
	if s.user != "" {
		if _, isTLS := c.TLSConnectionState(); !isTLS && !isLoopback(s.host) {
			return fmt.Errorf("mail: %s offers no TLS; refusing to send the password in clear", s.addr)
		}
		if err := c.Auth(sasl.NewPlainClient("", s.user, s.pass)); err != nil {
			return fmt.Errorf("mail: auth: %w", err)
		}
	}
	if err := c.SendMail(s.fromAddr, []string{m.To}, bytes.NewReader(s.format(m))); err != nil {
		return fmt.Errorf("mail: send: %w", err)
	}
	return c.Quit()
}

// dial connects with implicit TLS (smtps), or plainly and then with STARTTLS
// when the server offers it.
func (s *SMTP) dial(ctx context.Context) (*smtp.Client, error) {
	d := net.Dialer{}
	deadline, _ := ctx.Deadline()
	conn, err := d.DialContext(ctx, "tcp", s.addr)
	if err != nil {
		return nil, err
	}
	conn.SetDeadline(deadline)
	if s.implicitTLS {
		tc := tls.Client(conn, s.tlsConfig())
		return smtp.NewClient(tc), nil
	}
	c := smtp.NewClient(conn)
	if err := c.Hello("localhost"); err != nil {
		c.Close()
		return nil, err
	}
	if ok, _ := c.Extension("STARTTLS"); !ok {
		return c, nil
	}
	// go-smtp upgrades only a fresh connection: start again with STARTTLS.
	c.Close()
	conn, err = d.DialContext(ctx, "tcp", s.addr)
	if err != nil {
		return nil, err
	}
	conn.SetDeadline(deadline)
	return smtp.NewClientStartTLS(conn, s.tlsConfig())
}

func (s *SMTP) tlsConfig() *tls.Config {
	if s.TLSConfig != nil {
		return s.TLSConfig
	}
	return &tls.Config{ServerName: s.host, MinVersion: tls.VersionTLS12}
}

// format renders m as an RFC 5322 message: UTF-8 text, quoted-printable.
func (s *SMTP) format(m Message) []byte {
	var b bytes.Buffer
	id := make([]byte, 12)
	rand.Read(id)
	domain := s.fromAddr[strings.LastIndexByte(s.fromAddr, '@')+1:]
	h := func(k, v string) { b.WriteString(k + ": " + v + "\r\n") }
	h("From", s.from)
	h("To", m.To)
	h("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	h("Date", time.Now().Format(time.RFC1123Z))
	h("Message-ID", "<"+hex.EncodeToString(id)+"@"+domain+">")
	h("MIME-Version", "1.0")
	h("Content-Type", "text/plain; charset=utf-8")
	h("Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	qp.Write([]byte(strings.ReplaceAll(strings.ReplaceAll(m.Text, "\r\n", "\n"), "\n", "\r\n")))
	qp.Close()
	return b.Bytes()
}

// checkHeader refuses values that could inject headers.
func checkHeader(to, subject string) error {
	if strings.ContainsAny(to+subject, "\r\n") {
		return errors.New("mail: line break in a header")
	}
	if _, err := mail.ParseAddress(to); err != nil {
		return fmt.Errorf("mail: recipient %q: %w", to, err)
	}
	return nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Fill replaces {key} in a template with vars[key]. A value cannot break out
// of its place: control characters (line breaks included) and bidi
// overrides are dropped from it, and it is not scanned for further {keys}.
func Fill(template string, vars map[string]string) string {
	pairs := make([]string, 0, 2*len(vars))
	for k, v := range vars {
		pairs = append(pairs, "{"+k+"}", validation.Clean(v))
	}
	return strings.NewReplacer(pairs...).Replace(template)
}
