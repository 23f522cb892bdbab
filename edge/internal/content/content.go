// Package content serves the site's articles from the Markdown files
// embedded in the shared module (shared/content/blog/*.md and
// shared/content/help/*.md):
//
//	GET /api/v1/help/slug/{slug}             one help article
//	GET /api/v1/{product}-blog/slug/{slug}   one blog article (product: omnibus)
//	GET /api/v1/{product}-blog/list          the blog's articles, newest first
//
// Answers are {"data": ...}; an unknown slug is 404 {"errorDetail"}. An
// article is its front matter (slug, title, description, date, category,
// optionally updated) and its Markdown body; the renderer turns the
// Markdown into HTML.
package content

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/httpx/response"
	"omnibus/shared"
)

// Products are the blogs served at /api/v1/{product}-blog/...
var Products = []string{"omnibus"}

// Summary is an article without its body, as listed.
type Summary struct {
	Slug        string `json:"slug"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Date        string `json:"date"`
	// Updated is the day the article's content was last revised
	// (front matter's optional updated:, YYYY-MM-DD, not before Date).
	Updated  string `json:"updated,omitempty"`
	Category string `json:"category"`
}

// Modified is the day the article last changed: Updated, or Date when it
// was never revised. The sitemap's lastmod and the feeds' updated say it.
func (s Summary) Modified() string {
	if s.Updated != "" {
		return s.Updated
	}
	return s.Date
}

// Article is a whole article: its front matter and its Markdown body.
type Article struct {
	Summary
	Body string `json:"body"`
}

// Library is a set of articles by slug, and their list newest first.
type Library struct {
	bySlug map[string]Article
	list   []Summary
}

// Get returns the article with slug.
func (l *Library) Get(slug string) (Article, bool) {
	a, ok := l.bySlug[slug]
	return a, ok
}

// List returns the articles' summaries, newest first (then by title).
func (l *Library) List() []Summary { return l.list }

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Load reads every *.md file of dir in fsys. Each must have front matter
// with a slug (lower-case words joined by hyphens, unique), title,
// description, date (YYYY-MM-DD) and category, and may have updated (a
// later YYYY-MM-DD); anything missing or malformed is an error, so a broken article fails the edge's tests, not a visitor's page.
func Load(fsys fs.FS, dir string) (*Library, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.md"))
	if err != nil {
		return nil, err
	}
	lib := &Library{bySlug: map[string]Article{}}
	for _, name := range names {
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		a, err := Parse(src)
		if err != nil {
			return nil, fmt.Errorf("content: %s: %w", name, err)
		}
		if _, dup := lib.bySlug[a.Slug]; dup {
			return nil, fmt.Errorf("content: %s: slug %q used twice", name, a.Slug)
		}
		lib.bySlug[a.Slug] = a
		lib.list = append(lib.list, a.Summary)
	}
	sort.Slice(lib.list, func(i, j int) bool {
		a, b := lib.list[i], lib.list[j]
		if a.Date != b.Date {
			return a.Date > b.Date
		}
		return a.Title < b.Title
	})
	return lib, nil
}

// Parse splits an article into its front matter and body. The front matter
// is the block between two "---" lines at the top, one "key: value" per
// line; a value may be wrapped in double quotes.
func Parse(src []byte) (Article, error) {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	rest, ok := bytes.CutPrefix(src, []byte("---\n"))
	if !ok {
		return Article{}, fmt.Errorf("no front matter (the file must start with ---)")
	}
	head, body, ok := bytes.Cut(rest, []byte("\n---\n"))
	if !ok {
		return Article{}, fmt.Errorf("front matter is not closed with ---")
	}
	fields := map[string]string{}
	for _, line := range strings.Split(string(head), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return Article{}, fmt.Errorf("front matter line %q is not key: value", line)
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
			v = v[1 : len(v)-1]
		}
		fields[strings.TrimSpace(k)] = v
	}
	a := Article{
		Summary: Summary{
			Slug:        fields["slug"],
			Title:       fields["title"],
			Description: fields["description"],
			Date:        fields["date"],
			Category:    fields["category"],
		},
		Body: strings.TrimSpace(string(body)) + "\n",
	}
	for k, v := range map[string]string{"slug": a.Slug, "title": a.Title, "description": a.Description, "date": a.Date, "category": a.Category} {
		if v == "" {
			return Article{}, fmt.Errorf("front matter has no %s", k)
		}
	}
	if !slugPattern.MatchString(a.Slug) {
		return Article{}, fmt.Errorf("slug %q is not lower-case words joined by hyphens", a.Slug)
	}
	if _, err := time.Parse(time.DateOnly, a.Date); err != nil {
		return Article{}, fmt.Errorf("date %q is not YYYY-MM-DD", a.Date)
	}
	if updated, ok := fields["updated"]; ok {
		if _, err := time.Parse(time.DateOnly, updated); err != nil {
			return Article{}, fmt.Errorf("updated %q is not YYYY-MM-DD", updated)
		}
		if updated < a.Date {
			return Article{}, fmt.Errorf("updated %s is before date %s", updated, a.Date)
		}
		a.Updated = updated
	}
	return a, nil
}

// Category is a help-centre category (shared/content/help/categories.json).
type Category struct {
	Slug        string `json:"slug"`
	Title       string `json:"title"`
	Description string `json:"description"`
}

// Categories reads the help categories.
func Categories(fsys fs.FS) ([]Category, error) {
	b, err := fs.ReadFile(fsys, "content/help/categories.json")
	if err != nil {
		return nil, err
	}
	var doc struct {
		Categories []Category `json:"categories"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("content: help/categories.json: %w", err)
	}
	return doc.Categories, nil
}

// Shared loads the embedded help and blog libraries and checks that every
// help article names a known category.
func Shared() (help, blog *Library, err error) {
	if help, err = Load(shared.Articles, "content/help"); err != nil {
		return nil, nil, err
	}
	if blog, err = Load(shared.Articles, "content/blog"); err != nil {
		return nil, nil, err
	}
	cats, err := Categories(shared.Articles)
	if err != nil {
		return nil, nil, err
	}
	known := map[string]bool{}
	for _, c := range cats {
		known[c.Slug] = true
	}
	for _, a := range help.List() {
		if !known[a.Category] {
			return nil, nil, fmt.Errorf("content: help article %q has unknown category %q", a.Slug, a.Category)
		}
	}
	return help, blog, nil
}

// Register adds the article endpoints to the /api/v1 group. Unknown
// products fall through to the server's JSON 404.
func Register(api *echo.Group) error {
	help, blog, err := Shared()
	if err != nil {
		return err
	}
	api.GET("/help/slug/:slug", article(help))
	for _, p := range Products {
		api.GET("/"+p+"-blog/slug/:slug", article(blog))
		api.GET("/"+p+"-blog/list", func(c echo.Context) error {
			cacheable(c)
			return response.OK(c, map[string]any{"data": blog.List()})
		})
	}
	return nil
}

func article(lib *Library) echo.HandlerFunc {
	return func(c echo.Context) error {
		a, ok := lib.Get(c.Param("slug"))
		if !ok {
			return response.Error(c, http.StatusNotFound, "Article not found")
		}
		cacheable(c)
		return response.OK(c, map[string]any{"data": a})
	}
}

// cacheable lets browsers keep an answer briefly: articles change only
// with a deploy.
func cacheable(c echo.Context) {
	c.Response().Header().Set("Cache-Control", "public, max-age=300")
}

// Paths lists the page of every article and help topic (/blog/article/{slug},
// /help/category/{slug}, /help/category/article/{slug}), for the sitemap:
// the route table knows these routes only as patterns.
func Paths() ([]string, error) {
	help, blog, err := Shared()
	if err != nil {
		return nil, err
	}
	cats, err := Categories(shared.Articles)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, a := range blog.List() {
		paths = append(paths, "/blog/article/"+a.Slug)
	}
	for _, c := range cats {
		paths = append(paths, "/help/category/"+c.Slug)
	}
	for _, a := range help.List() {
		paths = append(paths, "/help/category/article/"+a.Slug)
	}
	return paths, nil
}
