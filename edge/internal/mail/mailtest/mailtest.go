// Package mailtest runs a real SMTP server (github.com/emersion/go-smtp) on
// loopback for tests, so e-mail is checked as it arrives over the wire.
package mailtest

import (
	"errors"
	"io"
	"net"
	"net/mail"
	"net/url"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Received is one delivered message.
type Received struct {
	From string
	To   []string
	// Data is the raw message, headers and body.
	Data []byte
}

// Server is an SMTP server that accepts user/pass and keeps what it receives.
type Server struct {
	// URL is smtp://user:pass@127.0.0.1:port.
	URL      string
	messages chan Received
}

// Start listens on a random loopback port until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{messages: make(chan Received, 16)}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &session{srv: s}, nil
	}))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true // loopback, no TLS
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	s.URL = (&url.URL{Scheme: "smtp", User: url.UserPassword("mailer", "secret"), Host: ln.Addr().String()}).String()
	return s
}

// Next waits up to 10 s for the next message.
func (s *Server) Next(t testing.TB) Received {
	t.Helper()
	select {
	case m := <-s.messages:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no e-mail arrived within 10s")
		return Received{}
	}
}

// None fails when a message is already waiting.
func (s *Server) None(t testing.TB) {
	t.Helper()
	select {
	case m := <-s.messages:
		t.Fatalf("unexpected e-mail to %v", m.To)
	default:
	}
}

// Parse reads the message's headers and decoded body.
func (r Received) Parse(t testing.TB) (*mail.Message, string) {
	t.Helper()
	m, err := mail.ReadMessage(bytesReader(r.Data))
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(decoder(m))
	if err != nil {
		t.Fatal(err)
	}
	return m, string(body)
}

type session struct {
	srv    *Server
	authed bool
	cur    Received
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, user, pass string) error {
		if user != "mailer" || pass != "secret" {
			return errors.New("bad credentials")
		}
		s.authed = true
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if !s.authed {
		return smtp.ErrAuthRequired
	}
	s.cur = Received{From: from}
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.cur.To = append(s.cur.To, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.cur.Data = b
	s.srv.messages <- s.cur
	return nil
}

func (s *session) Reset()        { s.cur = Received{} }
func (s *session) Logout() error { return nil }
