// Package shared holds the contracts that both the edge (Go) and the renderer
// (Node) read: the route table, the site content and the API shapes. The Go
// side embeds the same JSON files the renderer imports, so the two can never
// disagree about which pages exist.
package shared

import _ "embed"

// FeaturesJSON is content/features.json: the platform's claimed features
// ({"features": [{icon, title, text, color, link}, ...]}), served by the edge
// at GET /api/v1/platform-features.
//
//go:embed content/features.json
var FeaturesJSON []byte

// ValidationJSON is validation.json: every form field's rule (lengths, the
// e-mail pattern, the characters no text field takes), read by the edge's
// validator and the renderer's zod schemas.
//
//go:embed validation.json
var ValidationJSON []byte

// ValidationCasesJSON is validation-cases.json, the table of cases both
// sides' tests run.
//
//go:embed validation-cases.json
var ValidationCasesJSON []byte

// FrontMatterCasesJSON is front-matter-cases.json, the table of article
// front-matter cases both parsers' tests run (edge/internal/content,
// ssr/app/lib/front-matter.ts).
//
//go:embed front-matter-cases.json
var FrontMatterCasesJSON []byte

// CampaignLinksJSON is content/campaign-links.json: the /go/<name> short
// links the edge redirects and counts (edge/internal/analytics).
//
//go:embed content/campaign-links.json
var CampaignLinksJSON []byte

// BotsJSON is bots.json: isbot's pattern list (the renderer's bot test) and
// the crawler names the edge's visit counter shows apart.
//
//go:embed bots.json
var BotsJSON []byte
