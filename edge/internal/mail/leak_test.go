package mail_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// The development outbox never writes a message's body (and
// its single-use link) to the log; `edge mail` prints it from the database.
func TestOutboxLinkNeverLogged(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		var logs bytes.Buffer
		prev := slog.Default()
		slog.SetDefault(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
		defer slog.SetDefault(prev)
		s, err := mail.New("", "no-reply@omnibus.test", db)
		if err != nil {
			t.Fatal(err)
		}
		const link = "http://localhost:8080/reset-password?token=SECRET-TOKEN-123"
		if err := s.Send(context.Background(), mail.Message{To: "ana@example.com", Subject: "Reset", Text: "Open " + link}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(logs.String(), "SECRET-TOKEN-123") || !strings.Contains(logs.String(), "edge mail") {
			t.Fatalf("log: %s", logs.String())
		}
		var out, errOut bytes.Buffer
		if code := mail.RunOutboxCommand([]string{"-to", "ana@example.com"}, db, &out, &errOut); code != 0 || !strings.Contains(out.String(), link) || !strings.Contains(out.String(), "Subject: Reset") {
			t.Fatalf("edge mail: %d %q %q", code, out.String(), errOut.String())
		}
	})
}

// A value filled into a mail template cannot add lines,
// control characters or bidi overrides to the body.
func TestFillCannotBreakOut(t *testing.T) {
	got := mail.Fill("Hello {name},\n\n{link}\n", map[string]string{
		"name": "Ana\r\n\r\nYour account is locked: call +1 555\u202e{link}\x00",
		"link": "https://omnibus.example/reset-password?token=abc",
	})
	want := "Hello AnaYour account is locked: call +1 555{link},\n\nhttps://omnibus.example/reset-password?token=abc\n"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
