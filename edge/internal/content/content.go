// Package content is the site's content store (store.go: articles, help
// topics and categories, policies, campaign links and redirects, with every
// revision, in the edge's database; docs/studio-api.md), seeded from the
// repository's files (seed.go), and serves the spec's article endpoints
// from it, published items only:
//
//	GET /api/v1/help/slug/{slug}             one help article
//	GET /api/v1/{product}-blog/slug/{slug}   one blog article (product: omnibus)
//	GET /api/v1/{product}-blog/list          the blog's articles, newest first
//
// Answers are {"data": ...}; an unknown slug is 404 {"errorDetail"}. An
// article is its front matter (slug, title, description, date, category,
// optionally updated), its Markdown body and its sanitised HTML.
package content

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/httpx/response"
)

// Products are the blogs served at /api/v1/{product}-blog/...
var Products = []string{"omnibus"}

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

// Register adds the spec's article endpoints to the /api/v1 group, answered
// from the store, published items only. Unknown products fall through to
// the server's JSON 404.
func Register(api *echo.Group, s *Store) {
	api.GET("/help/slug/:slug", s.articleHandler(TypeHelp))
	for _, p := range Products {
		api.GET("/"+p+"-blog/slug/:slug", s.articleHandler(TypeBlog))
		api.GET("/"+p+"-blog/list", func(c echo.Context) error {
			list, err := s.Articles(c.Request().Context(), TypeBlog)
			if err != nil {
				return response.Error(c, http.StatusServiceUnavailable, "The articles cannot be read right now. Please try again.")
			}
			cacheable(c)
			return response.OK(c, map[string]any{"data": list})
		})
	}
}

func (s *Store) articleHandler(typ string) echo.HandlerFunc {
	return func(c echo.Context) error {
		a, ok, err := s.Article(c.Request().Context(), typ, c.Param("slug"))
		if err != nil {
			return response.Error(c, http.StatusServiceUnavailable, "The article cannot be read right now. Please try again.")
		}
		if !ok {
			if s.IsGone(PagePath(typ, c.Param("slug"))) {
				return response.Error(c, http.StatusGone, "This article was taken down")
			}
			return response.Error(c, http.StatusNotFound, "Article not found")
		}
		cacheable(c)
		return response.OK(c, map[string]any{"data": a})
	}
}

// cacheable lets browsers keep an answer for a minute: a publish reaches
// them within it.
func cacheable(c echo.Context) {
	c.Response().Header().Set("Cache-Control", "public, max-age=60")
}
