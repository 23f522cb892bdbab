package cache

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/ratelimit"
)

// A client over the purge endpoint's limit is told to wait, in the API's
// error shape, before its request is read (the limiter decides, this
// package answers).
func TestPurgeLimitAnswers429WithRetryAfter(t *testing.T) {
	e := echo.New()
	l := ratelimit.New(1, time.Minute)
	e.POST("/x", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) }, limitByClient(l))
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
