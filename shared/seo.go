package shared

import _ "embed"

// ContentDatesJSON is content-dates.json: the day each content file last
// changed ({"files": {"content/pages.json": "2026-11-23", ...}}), written at
// build time from git's history by scripts/content-dates.mjs (committed, so a
// build without git keeps the last refreshed dates). The sitemap's <lastmod>
// of pages without a date of their own comes from it (edge/internal/seo).
//
//go:embed content-dates.json
var ContentDatesJSON []byte

// SiteJSON is content/site.json: the company's name, address and logo.
//
//go:embed content/site.json
var SiteJSON []byte

// LandingJSON is content/landing.json: the home page's copy and hero image.
//
//go:embed content/landing.json
var LandingJSON []byte
