package mail_test

import (
	"context"
	"strings"
	"testing"

	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/mail/mailtest"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// With SMTP_URL the message crosses a real SMTP conversation (AUTH PLAIN on
// loopback) and arrives with its headers and UTF-8 body intact.
func TestSMTPDelivers(t *testing.T) {
	srv := mailtest.Start(t)
	s, err := mail.New(srv.URL, "Omnibus <no-reply@omnibus.test>", nil)
	if err != nil {
		t.Fatal(err)
	}
	err = s.Send(context.Background(), mail.Message{To: "ana@example.com", Subject: "Réinitialiser", Text: "Hello Ana,\nopen https://example.com/reset-password?token=abc=def\n"})
	if err != nil {
		t.Fatal(err)
	}
	got := srv.Next(t)
	if got.From != "no-reply@omnibus.test" || len(got.To) != 1 || got.To[0] != "ana@example.com" {
		t.Fatalf("envelope %q -> %v", got.From, got.To)
	}
	m, body := got.Parse(t)
	if m.Header.Get("From") != "Omnibus <no-reply@omnibus.test>" || m.Header.Get("To") != "ana@example.com" {
		t.Fatalf("headers %v", m.Header)
	}
	if !strings.Contains(body, "https://example.com/reset-password?token=abc=def") || !strings.HasPrefix(body, "Hello Ana,\r\n") {
		t.Fatalf("body %q", body)
	}
}

func TestSMTPWrongPasswordFails(t *testing.T) {
	srv := mailtest.Start(t)
	s, err := mail.New(strings.Replace(srv.URL, "secret", "wrong", 1), "no-reply@omnibus.test", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(context.Background(), mail.Message{To: "ana@example.com", Subject: "x", Text: "x"}); err == nil {
		t.Fatal("sent with a wrong password")
	}
	srv.None(t)
}

func TestHeaderInjectionRefused(t *testing.T) {
	srv := mailtest.Start(t)
	s, _ := mail.New(srv.URL, "no-reply@omnibus.test", nil)
	if err := s.Send(context.Background(), mail.Message{To: "ana@example.com", Subject: "x\r\nBcc: eve@example.com", Text: "x"}); err == nil {
		t.Fatal("a subject with a line break was sent")
	}
	srv.None(t)
}

func TestBadConfig(t *testing.T) {
	for _, u := range []string{"http://host", "smtp://", "::"} {
		if _, err := mail.New(u, "no-reply@omnibus.test", nil); err == nil {
			t.Errorf("SMTP_URL %q accepted", u)
		}
	}
	if _, err := mail.New("", "not an address", nil); err == nil {
		t.Error("MAIL_FROM without an address accepted")
	}
}

// Without SMTP_URL the message is kept in the outbox table.
func TestOutboxKeepsMessage(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		s, err := mail.New("", "no-reply@omnibus.test", db)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Send(context.Background(), mail.Message{To: "ana@example.com", Subject: "Reset", Text: "link"}); err != nil {
			t.Fatal(err)
		}
		var rows []mail.OutboxMessage
		if err := db.Find(&rows).Error; err != nil {
			t.Fatal(err)
		}
		if len(rows) != 1 || rows[0].Recipient != "ana@example.com" || rows[0].Subject != "Reset" || rows[0].Body != "link" {
			t.Fatalf("outbox %+v", rows)
		}
	})
}
