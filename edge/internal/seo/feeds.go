package seo

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/gorilla/feeds"

	"omnibus/edge/internal/content"
	"omnibus/shared"
)

// The blog's feeds. The blog pages announce them with <link rel="alternate">
// (the renderer's ssr/app/lib/seo.server.ts names the same paths).
const (
	RSSPath  = "/rss.xml"
	AtomPath = "/atom.xml"
)

type builtFeeds struct {
	rss, atom    []byte
	cacheControl string
}

// buildFeeds writes the blog's articles, newest first, as RSS 2.0 and Atom
// (github.com/gorilla/feeds) from the same Markdown front matter the pages
// show: title, description, date and category, each linking to its page on
// origin. The feed's title and description are the /blog page's, and it is
// cached as that page is (its route-table cache policy).
func buildFeeds(origin string) (*builtFeeds, error) {
	_, blog, err := content.Shared()
	if err != nil {
		return nil, err
	}
	routes, err := routeTable()
	if err != nil {
		return nil, err
	}
	var page *route
	for i := range routes {
		if routes[i].ID == "blog" {
			page = &routes[i]
		}
	}
	if page == nil {
		return nil, fmt.Errorf("seo: routes.json has no blog route")
	}
	var policy struct{ Fresh, Stale int }
	if err := json.Unmarshal(page.Cache, &policy); err != nil {
		return nil, fmt.Errorf("seo: the blog route's cache policy: %w", err)
	}
	var site struct {
		Name      string `json:"name"`
		LegalName string `json:"legalName"`
	}
	if err := json.Unmarshal(shared.SiteJSON, &site); err != nil {
		return nil, fmt.Errorf("seo: site.json: %w", err)
	}

	list := blog.List()
	f := &feeds.Feed{
		Title:       page.Title,
		Link:        &feeds.Link{Href: origin + page.Path},
		Description: page.Desc,
		Author:      &feeds.Author{Name: site.Name},
		Id:          origin + page.Path,
		Copyright:   site.LegalName,
	}
	for _, a := range list {
		day, err := time.Parse(time.DateOnly, a.Date)
		if err != nil {
			return nil, err
		}
		if day.After(f.Updated) {
			f.Updated = day
		}
		url := origin + "/blog/article/" + a.Slug
		f.Items = append(f.Items, &feeds.Item{
			Title:       a.Title,
			Link:        &feeds.Link{Href: url},
			Description: a.Description,
			Id:          url,
			Created:     day,
			Updated:     day,
		})
	}

	rss := (&feeds.Rss{Feed: f}).RssFeed()
	// RSS names an editor by e-mail address, which the site has none of
	// to publish (Atom's author is the site's name).
	rss.ManagingEditor = ""
	for i, item := range rss.Items {
		item.Category = list[i].Category
	}
	rssXML, err := feeds.ToXML(rss)
	if err != nil {
		return nil, err
	}
	atomXML, err := feeds.ToXML(&feeds.Atom{Feed: f})
	if err != nil {
		return nil, err
	}
	return &builtFeeds{
		rss:          []byte(rssXML),
		atom:         []byte(atomXML),
		cacheControl: fmt.Sprintf("public, max-age=%d, stale-while-revalidate=%d", policy.Fresh, policy.Stale),
	}, nil
}
