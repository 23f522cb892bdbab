// Package platform serves the platform's marketing facts:
// GET /api/v1/platform-features, the feature list from
// shared/content/features.json, for API clients (SPEC §7). The renderer's
// /features page reads the same file itself: a render asks the edge nothing.
package platform

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"omnibus/shared"
)

// Feature is one feature item (SPEC §3).
type Feature struct {
	Icon  string `json:"icon"`
	Title string `json:"title"`
	Text  string `json:"text"`
	Color string `json:"color"`
	Link  string `json:"link"`
}

// Features parses the embedded feature list. It fails only if the shared
// file is malformed, which a test catches.
func Features() ([]Feature, error) {
	var doc struct {
		Features []Feature `json:"features"`
	}
	if err := json.Unmarshal(shared.FeaturesJSON, &doc); err != nil {
		return nil, fmt.Errorf("platform: content/features.json: %w", err)
	}
	return doc.Features, nil
}

// Register adds GET /platform-features to the /api/v1 group. The answer is
// {"data": [feature, ...]}, encoded once at start.
func Register(api *echo.Group) error {
	fs, err := Features()
	if err != nil {
		return err
	}
	body, err := json.Marshal(struct {
		Data []Feature `json:"data"`
	}{fs})
	if err != nil {
		return err
	}
	api.GET("/platform-features", func(c echo.Context) error {
		// The list changes only with a deploy; let browsers and the page
		// cache keep it briefly.
		c.Response().Header().Set("Cache-Control", "public, max-age=300")
		return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, body)
	})
	return nil
}
