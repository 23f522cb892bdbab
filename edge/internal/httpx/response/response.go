// Package response writes the edge's JSON API answers. Every error has the
// shape the site reads: {"errorDetail": "..."}.
package response

import (
	"context"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
)

// ErrorBody is the API's error shape (SPEC §3).
type ErrorBody struct {
	ErrorDetail string `json:"errorDetail"`
}

// Error answers with status and {"errorDetail": detail}.
func Error(c echo.Context, status int, detail string) error {
	return c.JSON(status, ErrorBody{ErrorDetail: detail})
}

// OK answers 200 with v as JSON.
func OK(c echo.Context, v any) error { return c.JSON(http.StatusOK, v) }

// TooManyRequests answers 429 with Retry-After and the wait in words: the
// answer to a refusal of a rate limit (internal/ratelimit decides, its
// caller answers).
func TooManyRequests(c echo.Context, retryAfter time.Duration) error {
	secs := RetryAfter(c, retryAfter)
	return Error(c, http.StatusTooManyRequests, "Too many requests. Please try again in "+strconv.Itoa(secs)+" seconds.")
}

// RetryAfter sets the answer's Retry-After (whole seconds, at least 1) and
// returns it; a page answering 429 (internal/forms) sets it here too.
func RetryAfter(c echo.Context, retryAfter time.Duration) int {
	secs := int(math.Ceil(retryAfter.Seconds()))
	if secs < 1 {
		secs = 1
	}
	c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
	return secs
}

// Immutable answers a file whose address names its bytes (a content hash,
// or an id with a size), which may therefore be kept for a year: 304 when
// the client has etag, else load's body with its content type. A file load
// finds none of (nil body) is 404, kept a minute; one it cannot read now is
// 503, kept nowhere, logged with what it is.
func Immutable(c echo.Context, etag, what string, load func(ctx context.Context) (body []byte, contentType string, err error)) error {
	h := c.Response().Header()
	if c.Request().Header.Get("If-None-Match") == etag {
		h.Set("ETag", etag)
		return c.NoContent(http.StatusNotModified)
	}
	body, contentType, err := load(c.Request().Context())
	switch {
	case err != nil:
		slog.WarnContext(c.Request().Context(), what+": serve", "err", err)
		h.Set("Cache-Control", "no-store")
		h.Set("Retry-After", "5")
		return c.NoContent(http.StatusServiceUnavailable)
	case body == nil:
		h.Set("Cache-Control", "public, max-age=60")
		return c.NoContent(http.StatusNotFound)
	}
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("ETag", etag)
	return c.Blob(http.StatusOK, contentType, body)
}
