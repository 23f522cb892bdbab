package shared

import _ "embed"

// NewsletterJSON is content/newsletter.json: the newsletter box's words and
// the messages the edge answers /api/v1/news-letter/subscribe with.
//
//go:embed content/newsletter.json
var NewsletterJSON []byte
