package seo

import (
	"encoding/json"
	"encoding/xml"
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

// Other names readers and people guess for the blog's feed: 301 to RSSPath.
// /feed.xml is the name a crawler review tried first; /feed is WordPress's, the address
// most feed readers probe.
var feedAliases = []string{"/feed.xml", "/feed"}

// buildFeeds writes the blog's articles, newest first, as RSS 2.0 and Atom
// (github.com/gorilla/feeds) from the same Markdown front matter the pages
// show: title, description, date (published), updated (last revised) and
// category, each linking to its page on origin. The feed's title and
// description are the /blog page's, and it is cached as that page is (its
// route-table cache policy). Each feed names its own address (rel="self",
// as RFC 4287 and the RSS Advisory Board's best practices ask): a reader
// that got it through a redirect or a copy knows where to poll.
func buildFeeds(origin string, list []content.Summary) (*builtFeeds, error) {
	routes := shared.Routes.Routes
	var page, about *shared.Route
	for i := range routes {
		switch routes[i].ID {
		case "blog":
			page = &routes[i]
		case "about":
			about = &routes[i]
		}
	}
	if page == nil || about == nil {
		return nil, fmt.Errorf("seo: routes.json has no blog or about route")
	}
	policy := page.Cache
	if policy.Private {
		return nil, fmt.Errorf("seo: the blog route's cache policy is private, but the feeds are public")
	}
	var site struct {
		Name      string `json:"name"`
		LegalName string `json:"legalName"`
	}
	if err := json.Unmarshal(shared.SiteJSON, &site); err != nil {
		return nil, fmt.Errorf("seo: site.json: %w", err)
	}

	f := &feeds.Feed{
		Title:       page.Title,
		Link:        &feeds.Link{Href: origin + page.Path},
		Description: page.Description,
		Author:      &feeds.Author{Name: site.Name},
		Id:          origin + page.Path,
		Copyright:   site.LegalName,
	}
	for _, a := range list {
		day, err := time.Parse(time.DateOnly, a.Date)
		if err != nil {
			return nil, err
		}
		modified, err := time.Parse(time.DateOnly, a.Modified())
		if err != nil {
			return nil, err
		}
		if modified.After(f.Updated) {
			f.Updated = modified
		}
		url := origin + "/blog/article/" + a.Slug
		f.Items = append(f.Items, &feeds.Item{
			Title:       a.Title,
			Link:        &feeds.Link{Href: url},
			Description: a.Description,
			Id:          url,
			IsPermaLink: "true", // the guid is the article's address
			Created:     day,
			Updated:     modified,
		})
	}

	rss := (&feeds.Rss{Feed: f}).RssFeed()
	// RSS names an editor by e-mail address, which the site has none of
	// to publish (Atom's author is the site's name).
	rss.ManagingEditor = ""
	for i, item := range rss.Items {
		item.Category = list[i].Category
	}
	rssXML, err := toXML(rssDoc{
		Version:   "2.0",
		ContentNS: "http://purl.org/rss/1.0/modules/content/",
		AtomNS:    atomNS,
		Channel:   rssChannel{Self: selfLink{Href: origin + RSSPath, Rel: "self", Type: "application/rss+xml"}, RssFeed: rss},
	})
	if err != nil {
		return nil, err
	}
	atom := (&feeds.Atom{Feed: f}).AtomFeed()
	// The author's page, as the articles' article:author names it (the renderer's lib/seo.server.tsx).
	atom.Author.Uri = origin + about.Path
	for i, entry := range atom.Entries {
		entry.Published = f.Items[i].Created.Format(time.RFC3339)
	}
	atomXML, err := toXML(atomDoc{
		Links:    []feeds.AtomLink{{Href: atom.Link.Href, Rel: "alternate", Type: "text/html"}, {Href: origin + AtomPath, Rel: "self", Type: "application/atom+xml"}},
		AtomFeed: atom,
	})
	if err != nil {
		return nil, err
	}
	return &builtFeeds{
		rss:          rssXML,
		atom:         atomXML,
		cacheControl: fmt.Sprintf("public, max-age=%d, stale-while-revalidate=%d", int(policy.Fresh.Seconds()), int(policy.Stale.Seconds())),
	}, nil
}

const atomNS = "http://www.w3.org/2005/Atom"

// rssDoc is gorilla/feeds' RSS document with the Atom namespace, for the
// channel's <atom:link rel="self"> (gorilla writes no self link).
type rssDoc struct {
	XMLName   xml.Name `xml:"rss"`
	Version   string   `xml:"version,attr"`
	ContentNS string   `xml:"xmlns:content,attr"`
	AtomNS    string   `xml:"xmlns:atom,attr"`
	Channel   rssChannel
}

type rssChannel struct {
	XMLName xml.Name `xml:"channel"`
	Self    selfLink `xml:"atom:link"`
	*feeds.RssFeed
}

type selfLink struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr"`
	Type string `xml:"type,attr"`
}

// atomDoc is gorilla/feeds' Atom feed with two links, its page
// (rel="alternate") and itself (rel="self"): gorilla writes one.
type atomDoc struct {
	XMLName xml.Name         `xml:"feed"`
	Links   []feeds.AtomLink `xml:"link"` // before the embedded feed's one Link, which it hides
	*feeds.AtomFeed
}

func toXML(doc any) ([]byte, error) {
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), b...), nil
}
