package shared

import (
	"embed"
	_ "embed"
)

// ContactJSON is content/contact.json: the seven contact-form pages (their
// keys are the form's topics), the form fields with their limits and error
// messages, and the outcome messages (?outcome=sent after a form post without
// JavaScript, a refused post's own error). The edge
// validates POST /api/v1/omnibus/contact-us against it.
//
//go:embed content/contact.json
var ContactJSON []byte

// Articles holds the blog and help-centre articles (Markdown with front
// matter: slug, title, description, date, category) and the help categories:
// content/blog/*.md, content/help/*.md and content/help/categories.json,
// and the policy pages, content/policies/*.md. They are the seed of the
// edge's content store (edge/internal/content), imported on first start.
// The edge serves them at /api/v1/help/slug/{slug} and
// /api/v1/omnibus-blog/{slug,list}.
//
//go:embed content/blog/*.md content/help/*.md content/help/categories.json content/policies/*.md
var Articles embed.FS

// PlansJSON is content/plans.json: the plans and add-ons with their prices in
// paise and the GST rate. The pricing pages show it; the edge's licence
// orders (internal/billing) charge from it.
//
//go:embed content/plans.json
var PlansJSON []byte

// JourneyJSON is content/journey.json: the words of the merchant's journey
// past sign-up (welcome, plan choice, test-mode payment, merchant home,
// PetPawlor) and of the edge's billing answers.
//
//go:embed content/journey.json
var JourneyJSON []byte

// SearchJSON is content/search.json: the words of site search and the
// product pages it searches (edge/internal/search).
//
//go:embed content/search.json
var SearchJSON []byte

// SearchSynonymsJSON is content/search-synonyms.json: the groups of
// phrases search treats as one ("return ~ refund").
//
//go:embed content/search-synonyms.json
var SearchSynonymsJSON []byte

// PagesJSON is content/pages.json and FeaturesPageJSON
// content/features-page.json: the copy of the product pages, which search
// indexes.
//
//go:embed content/pages.json
var PagesJSON []byte

//go:embed content/features-page.json
var FeaturesPageJSON []byte
