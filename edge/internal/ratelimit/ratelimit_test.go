package ratelimit

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

func TestBurstThenRefusedThenRefilled(t *testing.T) {
	now := time.Unix(1000, 0)
	l := New(2, 10*time.Second)
	l.now = func() time.Time { return now }
	for i := 0; i < 2; i++ {
		if ok, _ := l.Allow(context.Background(), "a"); !ok {
			t.Fatalf("event %d refused within the burst", i)
		}
	}
	ok, wait := l.Allow(context.Background(), "a")
	if ok || wait <= 0 || wait > 10*time.Second {
		t.Fatalf("third event: ok=%v wait=%v, want refused with a wait up to 10s", ok, wait)
	}
	if ok, _ := l.Allow(context.Background(), "b"); !ok {
		t.Fatal("another key was refused")
	}
	now = now.Add(10 * time.Second)
	if ok, _ := l.Allow(context.Background(), "a"); !ok {
		t.Fatal("still refused after the refill interval")
	}
}

func TestByIPAnswers429WithRetryAfter(t *testing.T) {
	e := echo.New()
	l := New(1, time.Minute)
	e.POST("/x", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) }, l.ByIP())
	do := func() *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/x", nil)
		req.RemoteAddr = "192.0.2.1:1234"
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		return rec
	}
	if rec := do(); rec.Code != http.StatusNoContent {
		t.Fatalf("first request: %d", rec.Code)
	}
	rec := do()
	if rec.Code != http.StatusTooManyRequests {
		t.Fatalf("second request: %d, want 429", rec.Code)
	}
	if ra := rec.Header().Get("Retry-After"); ra == "" || ra == "0" {
		t.Fatalf("Retry-After = %q", ra)
	}
	if body := rec.Body.String(); !strings.Contains(body, `"errorDetail"`) {
		t.Fatalf("body %s lacks errorDetail", body)
	}
}
