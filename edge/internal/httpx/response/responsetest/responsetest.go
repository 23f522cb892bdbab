// Package responsetest checks answers the way a client of the API reads
// them: a refusal carries {"errorDetail": "..."} (package response).
package responsetest

import (
	"encoding/json"
	"net/http/httptest"
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
