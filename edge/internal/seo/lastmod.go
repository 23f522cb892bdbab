package seo

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"omnibus/edge/internal/content"
	"omnibus/shared"
)

// Page is one URL of the sitemap: its path, the day its content last changed
// (W3C date, YYYY-MM-DD) and the paths of the pictures it shows.
type Page struct {
	Path    string
	LastMod string
	Images  []string
}

// sources are the content files (paths in shared/, as content-dates.json
// names them) each page module is made of; "{id}" is the route's id. A page
// whose module is not listed here gets the date of routes.json, where its
// title and description live.
var sources = map[string][]string{
	"_marketing/home.tsx":      {"content/landing.json", "content/features.json", "content/logos.json"},
	"_marketing/contact.tsx":   {"content/contact.json"},
	"_marketing/features.tsx":  {"content/features-page.json", "content/features.json"},
	"_marketing/page.tsx":      {"content/pages.json"},
	"_marketing/shop-page.tsx": {"content/pages.json", "content/plans.json"},
	"_marketing/policy.tsx":    {"content/site.json"}, // and the policy's own date, from the content store
}

// Pages lists the sitemap's pages with their lastmod and images: the route
// table's indexed pages, then every blog article, help topic and help article.
func Pages(ctx context.Context, src Source) ([]Page, error) {
	var dates struct {
		Files map[string]string `json:"files"`
	}
	if err := json.Unmarshal(shared.ContentDatesJSON, &dates); err != nil {
		return nil, fmt.Errorf("seo: content-dates.json: %w", err)
	}
	changed := func(files ...string) (string, error) {
		last := ""
		for _, f := range files {
			d, ok := dates.Files[f]
			if !ok {
				return "", fmt.Errorf("seo: content-dates.json has no date for %s (run scripts/content-dates.mjs)", f)
			}
			last = max(last, d)
		}
		return last, nil
	}
	blog, err := src.Articles(ctx, content.TypeBlog)
	if err != nil {
		return nil, err
	}
	help, err := src.Articles(ctx, content.TypeHelp)
	if err != nil {
		return nil, err
	}
	cats, err := src.Categories(ctx)
	if err != nil {
		return nil, err
	}
	policies, err := src.Policies(ctx)
	if err != nil {
		return nil, err
	}
	policyDates := map[string]string{}
	for _, p := range policies {
		policyDates[p.Slug] = p.Date
	}
	newest := func(list []content.Summary) string {
		last := ""
		for _, a := range list {
			last = max(last, a.Modified())
		}
		return last
	}
	routes := shared.Routes.Routes
	hero, err := heroImage()
	if err != nil {
		return nil, err
	}

	var pages []Page
	for _, r := range routes {
		if !indexed(r) {
			continue
		}
		files := []string{"routes.json"}
		if list, ok := sources[r.Module]; ok {
			files = nil
			for _, f := range list {
				files = append(files, strings.ReplaceAll(f, "{id}", r.ID))
			}
		}
		day, err := changed(files...)
		if err != nil {
			return nil, fmt.Errorf("%w (page %s)", err, r.Path)
		}
		p := Page{Path: r.Path, LastMod: day}
		if r.Module == "_marketing/policy.tsx" {
			p.LastMod = max(day, policyDates[r.Path[1:]])
		}
		switch r.ID {
		case "home":
			p.Images = []string{hero}
		case "blog": // lists the articles: new when one is
			p.LastMod = max(day, newest(blog))
		case "help", "help-centre": // and the categories' texts
			p.LastMod = max(day, newest(help))
			for _, c := range cats {
				p.LastMod = max(p.LastMod, c.Changed)
			}
		}
		pages = append(pages, p)
	}
	for _, a := range blog {
		pages = append(pages, Page{Path: "/blog/article/" + a.Slug, LastMod: a.Modified()})
	}
	newestIn := map[string]string{} // by category
	for _, a := range help {
		newestIn[a.Category] = max(newestIn[a.Category], a.Modified())
	}
	for _, c := range cats {
		// its title and introduction (c.Changed), and its newest article
		pages = append(pages, Page{Path: "/help/category/" + c.Slug, LastMod: max(c.Changed, newestIn[c.Slug])})
	}
	for _, a := range help {
		pages = append(pages, Page{Path: "/help/category/article/" + a.Slug, LastMod: a.Modified()})
	}
	for _, p := range pages {
		if _, err := time.Parse(time.DateOnly, p.LastMod); err != nil {
			return nil, fmt.Errorf("seo: %s: lastmod %q is not a date", p.Path, p.LastMod)
		}
	}
	return pages, nil
}

// heroImage is the home page's main picture (landing.json's screenshot).
func heroImage() (string, error) {
	var landing struct {
		Hero struct {
			Screenshot struct {
				Src string `json:"src"`
			} `json:"screenshot"`
		} `json:"hero"`
	}
	if err := json.Unmarshal(shared.LandingJSON, &landing); err != nil {
		return "", fmt.Errorf("seo: landing.json: %w", err)
	}
	if landing.Hero.Screenshot.Src == "" {
		return "", fmt.Errorf("seo: landing.json has no hero.screenshot.src")
	}
	return landing.Hero.Screenshot.Src, nil
}
