// Package response writes the edge's JSON API answers. Every error has the
// shape the site reads: {"errorDetail": "..."}.
package response

import (
	"net/http"

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
