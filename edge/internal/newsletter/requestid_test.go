package newsletter_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"omnibus/edge/internal/http/request"
	"omnibus/edge/internal/logging"
	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

type failingSender struct{}

func (failingSender) Send(context.Context, mail.Message) error {
	return errors.New("smtp: 451 try again later")
}

// The confirmation mail is sent after the visitor was answered, outside the
// handler: its error line still names the request that caused it, so an
// on-call engineer can find the visitor's request.
func TestBackgroundMailErrorCarriesTheRequestID(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		var out bytes.Buffer
		prev := slog.Default()
		slog.SetDefault(logging.New(&out, "json", slog.LevelInfo))
		t.Cleanup(func() { slog.SetDefault(prev) })

		e, s := newServer(db)
		s.Mail, s.PublicURL = failingSender{}, "https://omnibus.example"
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(`{"emailaddress":"ada@example.com"}`))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, request.With(req, "req-newsletter-7", "192.0.2.9", false))
		if rec.Code != http.StatusOK {
			t.Fatalf("subscribe: %d %s", rec.Code, rec.Body)
		}
		line := ""
		for _, l := range strings.Split(out.String(), "\n") {
			if strings.Contains(l, "newsletter: send confirmation") {
				line = l
			}
		}
		if line == "" {
			t.Fatalf("no error line for the failed mail in:\n%s", out.String())
		}
		if !strings.Contains(line, `"request_id":"req-newsletter-7"`) {
			t.Fatalf("error line without the request's id: %s", line)
		}
	})
}
