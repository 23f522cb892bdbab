// Package response writes the edge's JSON API answers. Every error has the
// shape the site reads: {"errorDetail": "..."}.
package response

import (
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
