package search

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"omnibus/edge/internal/content"
	"omnibus/shared"
)

// Copy is shared/content/search.json, the parts the edge reads.
type Copy struct {
	// Types are the category labels of a blog article and a product page.
	Types map[string]string `json:"types"`
	// Pages are the product pages searched: route ids of pages.json (and
	// "features", features-page.json).
	Pages []string `json:"pages"`
}

// ReadCopy parses shared/content/search.json.
func ReadCopy() (Copy, error) {
	var c Copy
	if err := json.Unmarshal(shared.SearchJSON, &c); err != nil {
		return c, fmt.Errorf("search: search.json: %w", err)
	}
	return c, nil
}

// HelpURL, BlogURL and PageURL are the pages of the documents.
func HelpURL(slug string) string { return "/help/category/article/" + slug }
func BlogURL(slug string) string { return "/blog/article/" + slug }

// pageURL is the path of the route with id (shared.Routes).
func pageURL(id string) (string, bool) {
	for _, r := range shared.Routes.Routes {
		if r.ID == id && !r.HasParam() {
			return r.Path, true
		}
	}
	return "", false
}

// ArticleDoc is the document of a help or blog article: its body as
// plain text (TextFromMarkdown, TextFromHTML) after its description.
// category is the help topic's title (help) or Label(TypeBlog).
func ArticleDoc(typ, slug, title, description, category, text string) Doc {
	url := BlogURL(slug)
	if typ == TypeHelp {
		url = HelpURL(slug)
	}
	return Doc{Type: typ, Slug: slug, URL: url, Title: title, Category: category,
		Text: strings.TrimSpace(description + "\n" + text)}
}

// Label is the category a result of type typ shows when it has no topic
// of its own ("Blog", "Product": shared/content/search.json).
func Label(typ string) string {
	c, _ := ReadCopy()
	return c.Types[typ]
}

// Seed fills ix with what visitors can find now: the content store's
// published help and blog articles and the product pages (ProductPages).
// After it, Apply (this edge's changes) and ApplyPath (another edge's,
// heard as its page purge) keep the index in line with the store.
func Seed(ctx context.Context, ix *Index, store *content.Store) error {
	var docs []Doc
	for _, typ := range []string{TypeHelp, TypeBlog} {
		list, err := store.Articles(ctx, typ)
		if err != nil {
			return err
		}
		load := Loader(ctx, store)
		for _, sm := range list {
			p, ok, err := load(typ, sm.Slug)
			if err != nil {
				return err
			}
			if ok {
				docs = append(docs, ArticleDoc(typ, sm.Slug, p.Title, p.Description, p.Category, p.Text))
			}
		}
	}
	pages, err := ProductPages()
	if err != nil {
		return err
	}
	ix.UpsertAll(append(docs, pages...))
	return nil
}

// Loader reads a published article of the content store as search finds
// it (Apply's and ApplyPath's load): its title, description, its help
// topic's title (or "Blog") and the text of its sanitised HTML.
func Loader(ctx context.Context, store *content.Store) func(typ, slug string) (Published, bool, error) {
	return func(typ, slug string) (Published, bool, error) {
		a, ok, err := store.Article(ctx, typ, slug)
		if err != nil || !ok {
			return Published{}, false, err
		}
		category := a.CategoryTitle
		if typ == TypeBlog {
			category = Label(TypeBlog)
		}
		text := TextFromHTML(a.HTML)
		if text == "" {
			text = TextFromMarkdown(a.Body)
		}
		return Published{Title: a.Title, Description: a.Description, Category: category, Text: text}, true, nil
	}
}

// ProductPages are the documents of the product pages search.json names
// (their copy in pages.json and features-page.json).
func ProductPages() ([]Doc, error) {
	c, err := ReadCopy()
	if err != nil {
		return nil, err
	}
	return productPages(c)
}

// pageCopy is the searchable part of a page of pages.json or
// features-page.json: every string of it, in order.
type pageCopy struct {
	Eyebrow string `json:"eyebrow"`
	Heading string `json:"heading"`
	Intro   string `json:"intro"`
	// Sections hold headings, paragraphs, cards and FAQs: their text is
	// collected whatever their shape.
	Sections []json.RawMessage `json:"sections"`
}

// productPages are the documents of Copy.Pages.
func productPages(c Copy) ([]Doc, error) {
	var doc struct {
		Pages map[string]pageCopy `json:"pages"`
	}
	if err := json.Unmarshal(shared.PagesJSON, &doc); err != nil {
		return nil, fmt.Errorf("search: pages.json: %w", err)
	}
	var features pageCopy
	if err := json.Unmarshal(shared.FeaturesPageJSON, &features); err != nil {
		return nil, fmt.Errorf("search: features-page.json: %w", err)
	}
	doc.Pages["features"] = features
	var out []Doc
	for _, id := range c.Pages {
		p, ok := doc.Pages[id]
		url, routed := pageURL(id)
		if !ok || !routed {
			return nil, fmt.Errorf("search: search.json names page %q, which pages.json or the route table does not have", id)
		}
		var text []string
		text = append(text, p.Heading, p.Intro)
		for _, s := range p.Sections {
			var v any
			if json.Unmarshal(s, &v) == nil {
				text = appendStrings(text, v)
			}
		}
		out = append(out, Doc{Type: TypePage, Slug: id, URL: url, Title: p.Eyebrow, Category: c.Types[TypePage],
			Text: strings.Join(text, "\n")})
	}
	return out, nil
}

// appendStrings adds every string of a JSON value except identifiers
// (ids, links, icons, colours, "from" references).
func appendStrings(out []string, v any) []string {
	switch v := v.(type) {
	case string:
		return append(out, v)
	case []any:
		for _, x := range v {
			out = appendStrings(out, x)
		}
	case map[string]any:
		for _, k := range []string{"heading", "title", "question", "text", "answer", "items", "faqs", "points", "name", "description"} {
			if x, ok := v[k]; ok {
				out = appendStrings(out, x)
			}
		}
	}
	return out
}
