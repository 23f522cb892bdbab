package content

import (
	"encoding/json"
	"strings"
	"time"
)

// The item types of the store (docs/studio-api.md).
const (
	TypeBlog         = "blog"
	TypeHelp         = "help"
	TypeHelpCategory = "help-category"
	TypePolicy       = "policy"
	TypeCampaignLink = "campaign-link"
	TypeRedirect     = "redirect"
)

// Types lists every item type, in the studio's order.
var Types = []string{TypeBlog, TypeHelp, TypeHelpCategory, TypePolicy, TypeCampaignLink, TypeRedirect}

// The states of an item.
const (
	StateDraft       = "draft"
	StateScheduled   = "scheduled"
	StatePublished   = "published"
	StateUnpublished = "unpublished"
)

// States lists every state.
var States = []string{StateDraft, StateScheduled, StatePublished, StateUnpublished}

// RepositoryAuthor authors the revisions imported from the repository's files.
const RepositoryAuthor = "repository"

// SystemAuthor authors what the store makes by itself (the redirect that
// keeps a renamed article's old address).
const SystemAuthor = "system"

// FieldSpec describes one field of a type, for the studio's form.
type FieldSpec struct {
	Name     string `json:"name"`
	Required bool   `json:"required"`
	// Kind: text, textarea, date, category, status, path, number.
	Kind string `json:"kind"`
	// Rule is the field of shared/validation.json that checks it.
	Rule string `json:"rule"`
}

// TypeSpec is a type's fields and whether it has a Markdown body.
type TypeSpec struct {
	Type   string      `json:"type"`
	Fields []FieldSpec `json:"fields"`
	Body   bool        `json:"body"`
	// SlugRule is the validation.json field that checks the slug.
	SlugRule string `json:"slugRule"`
}

var articleFields = []FieldSpec{
	{Name: "title", Required: true, Kind: "text", Rule: "contentTitle"},
	{Name: "description", Required: true, Kind: "textarea", Rule: "contentDescription"},
	{Name: "date", Required: true, Kind: "date", Rule: "contentDate"},
	{Name: "updated", Kind: "date", Rule: "contentDate"},
}

// Specs are the types' fields.
var Specs = map[string]TypeSpec{
	TypeBlog: {Type: TypeBlog, Body: true, SlugRule: "contentSlug",
		Fields: append(append([]FieldSpec{}, articleFields...), FieldSpec{Name: "category", Required: true, Kind: "text", Rule: "contentCategory"})},
	TypeHelp: {Type: TypeHelp, Body: true, SlugRule: "contentSlug",
		Fields: append(append([]FieldSpec{}, articleFields...), FieldSpec{Name: "category", Required: true, Kind: "category", Rule: "contentCategory"})},
	TypeHelpCategory: {Type: TypeHelpCategory, SlugRule: "contentSlug", Fields: []FieldSpec{
		{Name: "title", Required: true, Kind: "text", Rule: "contentTitle"},
		{Name: "description", Required: true, Kind: "textarea", Rule: "contentDescription"},
		{Name: "intro", Kind: "textarea", Rule: "contentDescription"},
		{Name: "position", Kind: "number"},
	}},
	TypePolicy: {Type: TypePolicy, Body: true, SlugRule: "contentSlug", Fields: articleFields[:3]},
	TypeCampaignLink: {Type: TypeCampaignLink, SlugRule: "linkName", Fields: []FieldSpec{
		{Name: "target", Required: true, Kind: "path", Rule: "contentPath"},
		{Name: "utmSource", Kind: "text", Rule: "utmValue"},
		{Name: "utmMedium", Kind: "text", Rule: "utmValue"},
		{Name: "utmCampaign", Required: true, Kind: "text", Rule: "utmValue"},
	}},
	TypeRedirect: {Type: TypeRedirect, SlugRule: "contentPath", Fields: []FieldSpec{
		{Name: "target", Kind: "path", Rule: "contentPath"},
		{Name: "status", Required: true, Kind: "status"},
	}},
}

// PagePath is the public page of an item of typ with slug ("" for types
// without a page of their own).
func PagePath(typ, slug string) string {
	switch typ {
	case TypeBlog:
		return "/blog/article/" + slug
	case TypeHelp:
		return "/help/category/article/" + slug
	case TypeHelpCategory:
		return "/help/category/" + slug
	case TypePolicy:
		return "/" + slug
	case TypeCampaignLink:
		return "/go/" + slug
	case TypeRedirect:
		return slug
	}
	return ""
}

// Revision is one saved version of an item.
type Revision struct {
	ID        uint64            `json:"id"`
	ItemID    uint64            `json:"itemId"`
	Number    int               `json:"number"`
	Slug      string            `json:"slug"`
	Fields    map[string]string `json:"fields"`
	Body      string            `json:"body"`
	HTML      string            `json:"html,omitempty"`
	Author    string            `json:"author"`
	Note      string            `json:"note"`
	CreatedAt time.Time         `json:"createdAt"`
}

// Item is a piece of content with its latest revision.
type Item struct {
	ID                  uint64     `json:"id"`
	Type                string     `json:"type"`
	Slug                string     `json:"slug"`
	State               string     `json:"state"`
	Changed             bool       `json:"changed"`
	ScheduledAt         *time.Time `json:"scheduledAt"`
	ScheduledRevisionID *uint64    `json:"scheduledRevisionId"`
	PublishedAt         *time.Time `json:"publishedAt"`
	Path                string     `json:"path"`
	Revision            *Revision  `json:"revision"`
	PublishedRevisionID *uint64    `json:"publishedRevisionId"`
	PendingRepository   *Revision  `json:"pendingRepository"`
	CreatedAt           time.Time  `json:"createdAt"`
	UpdatedAt           time.Time  `json:"updatedAt"`
}

// Draft is what a save sends: the slug, the fields and the body.
type Draft struct {
	Slug   string            `json:"slug"`
	Fields map[string]string `json:"fields"`
	Body   string            `json:"body"`
	Note   string            `json:"note"`
}

// Change is what one committed change did, for the subscribers (page cache,
// search).
type Change struct {
	Type    string
	ID      uint64
	Slug    string
	OldSlug string
	State   string
	// Paths are the public pages whose output changed.
	Paths []string
	// Live: the change touched what visitors see.
	Live bool
}

// FieldErrors are refused fields, by field name (422).
type FieldErrors map[string]string

func (f FieldErrors) Error() string {
	var names []string
	for k := range f {
		names = append(names, k)
	}
	return "content: refused fields: " + strings.Join(names, ", ")
}

// ConflictError refuses a save or publish based on a revision that is no
// longer the latest (409): Current is the item as it now is.
type ConflictError struct{ Current Item }

func (*ConflictError) Error() string { return "content: the item was changed since" }

// notFound is an unknown item, revision or preview.
type notFoundError struct{ what string }

func (e notFoundError) Error() string { return "content: no such " + e.what }

// IsNotFound reports an unknown item, revision or preview.
func IsNotFound(err error) bool {
	_, ok := err.(notFoundError)
	return ok
}

func fieldsJSON(f map[string]string) string {
	b, _ := json.Marshal(f)
	return string(b)
}
