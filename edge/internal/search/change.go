package search

import "strings"

// Change is what the content store tells its subscribers after every
// committed change (content.Change), the fields search reads.
type Change struct {
	// Type is the item's type: "blog" and "help" are searched; any other
	// type (help-category, policy, campaign-link, redirect) is not.
	Type string
	Slug string
	// OldSlug is the slug before a rename ("" when unchanged).
	OldSlug string
	// State is the item's state after the change: only "published" is
	// found.
	State string
}

// Published is the searchable form of a published item, read from the
// content store by the adapter: its title, description, the category label
// a result shows (the help topic's title; "Blog") and its body as text
// (TextFromHTML of the sanitised HTML, or TextFromMarkdown).
type Published struct {
	Title, Description, Category, Text string
}

// Apply brings the index in line with one change: a published blog or
// help article is (re)indexed, read through load; anything else of those
// types (a draft, scheduled, unpublished or deleted item) is removed, as
// is the old slug of a renamed one. The next search on this edge sees it;
// results cached before it are not answered again (Generation moved).
// load returns ok false when the item is gone.
func (ix *Index) Apply(ch Change, load func(typ, slug string) (Published, bool, error)) error {
	if ch.Type != TypeHelp && ch.Type != TypeBlog {
		return nil
	}
	if ch.OldSlug != "" && ch.OldSlug != ch.Slug {
		ix.Remove(ch.Type, ch.OldSlug)
	}
	if ch.State != "published" {
		ix.Remove(ch.Type, ch.Slug)
		return nil
	}
	p, ok, err := load(ch.Type, ch.Slug)
	if err != nil {
		return err
	}
	if !ok {
		ix.Remove(ch.Type, ch.Slug)
		return nil
	}
	ix.Upsert(ArticleDoc(ch.Type, ch.Slug, p.Title, p.Description, p.Category, p.Text))
	return nil
}

// ApplyPath brings the index in line with a purged page of another edge's
// change (the content store calls its subscribers only on the edge that
// committed; the others hear of it as the page-cache purge of the changed
// pages): a help or blog article's page is read again through load,
// indexed when published and removed when not. Other paths are ignored.
func (ix *Index) ApplyPath(path string, load func(typ, slug string) (Published, bool, error)) error {
	typ, slug := "", ""
	switch {
	case strings.HasPrefix(path, "/help/category/article/"):
		typ, slug = TypeHelp, strings.TrimPrefix(path, "/help/category/article/")
	case strings.HasPrefix(path, "/blog/article/"):
		typ, slug = TypeBlog, strings.TrimPrefix(path, "/blog/article/")
	default:
		return nil
	}
	if slug == "" || strings.Contains(slug, "/") {
		return nil
	}
	p, ok, err := load(typ, slug)
	if err != nil {
		return err
	}
	if !ok {
		ix.Remove(typ, slug)
		return nil
	}
	ix.Upsert(ArticleDoc(typ, slug, p.Title, p.Description, p.Category, p.Text))
	return nil
}
