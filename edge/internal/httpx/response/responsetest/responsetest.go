// Package responsetest checks answers the way a client of the API reads
// them: a refusal carries {"errorDetail": "..."} (package response).
package responsetest

import (
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// RequireErrorDetail fails t unless rec's body is JSON with a non-empty
// errorDetail.
func RequireErrorDetail(t testing.TB, rec *httptest.ResponseRecorder) {
	t.Helper()
	var b struct {
		ErrorDetail string `json:"errorDetail"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &b); err != nil || b.ErrorDetail == "" {
		t.Fatalf("%d without errorDetail: %q", rec.Code, rec.Body)
	}
}

// RequireAnswerOrRefusal fails t unless rec's status is one of ok, or a 4xx
// with an errorDetail: what an endpoint that decodes a body may answer
// whatever arrives (the fuzz targets' rule: never a 5xx).
func RequireAnswerOrRefusal(t testing.TB, rec *httptest.ResponseRecorder, ok ...int) {
	t.Helper()
	if slices.Contains(ok, rec.Code) {
		return
	}
	if rec.Code >= 400 && rec.Code < 500 {
		RequireErrorDetail(t, rec)
		return
	}
	t.Fatalf("%d %q", rec.Code, strings.TrimSpace(rec.Body.String()))
}
