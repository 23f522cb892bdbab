package seo

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"strings"
	"time"

	"github.com/gorilla/feeds"

	"omnibus/edge/internal/content"
	"omnibus/shared"
)

// The feeds: the blog's, and the help centre's. Their pages announce them
// with <link rel="alternate"> (the renderer's ssr/app/lib/seo.server.tsx
// names the same paths).
const (
	RSSPath      = "/rss.xml"
	AtomPath     = "/atom.xml"
	HelpRSSPath  = "/help/rss.xml"
	HelpAtomPath = "/help/atom.xml"
)

// feedSpec is one feed: the item type it carries, the route whose page it
// follows (title, description, cache policy) and its two addresses.
type feedSpec struct {
	typ, route string
	rss, atom  string
	// aliases are other names readers and people guess for it: 301 to rss.
	aliases []string
}

var feedSpecs = []feedSpec{
	// /feed.xml is the name a crawler review tried first; /feed is
	// WordPress's, the address most feed readers probe.
	{typ: content.TypeBlog, route: "blog", rss: RSSPath, atom: AtomPath, aliases: []string{"/feed.xml", "/feed"}},
	{typ: content.TypeHelp, route: "help", rss: HelpRSSPath, atom: HelpAtomPath, aliases: []string{"/help/feed.xml"}},
}

// builtFeeds are a feed's RSS and Atom files, cached as its page is and
// dated by its newest article's change.
type builtFeeds struct {
	rss, atom *file
}

// siteFacts are what the feeds say of the site (shared/content/site.json):
// its name (the author), legal name (copyright) and locale (the language).
type siteFacts struct {
	Name      string `json:"name"`
	LegalName string `json:"legalName"`
	Locale    string `json:"locale"`
}

// buildFeeds writes a feed's articles, newest first, as RSS 2.0 and Atom
// (github.com/gorilla/feeds) from what their pages show: title,
// description, date (published), updated (last revised), category and the
// whole article (the store's sanitised HTML), each linking to its page on
// origin, in the site's language, by the site (the articles name no
// person). The feed's title and description are its page's, and it is
// cached as that page is (its route-table cache policy). Each feed names
// its own address (rel="self", as RFC 4287 and the RSS Advisory Board's
// best practices ask): a reader that got it through a redirect or a copy
// knows where to poll.
func buildFeeds(origin string, spec feedSpec, list []content.Article) (*builtFeeds, error) {
	routes := shared.Routes.Routes
	var page, about *shared.Route
	for i := range routes {
		switch routes[i].ID {
		case spec.route:
			page = &routes[i]
		case "about":
			about = &routes[i]
		}
	}
	if page == nil || about == nil {
		return nil, fmt.Errorf("seo: routes.json has no %s or about route", spec.route)
	}
	policy := page.Cache
	if policy.Private {
		return nil, fmt.Errorf("seo: the %s route's cache policy is private, but the feeds are public", spec.route)
	}
	var site siteFacts
	if err := json.Unmarshal(shared.SiteJSON, &site); err != nil {
		return nil, fmt.Errorf("seo: site.json: %w", err)
	}
	if site.Locale == "" {
		return nil, fmt.Errorf("seo: site.json has no locale")
	}
	author := &feeds.Author{Name: site.Name}

	f := &feeds.Feed{
		Title:       page.Title,
		Link:        &feeds.Link{Href: origin + page.Path},
		Description: page.Description,
		Author:      author,
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
		url := origin + content.PagePath(spec.typ, a.Slug)
		f.Items = append(f.Items, &feeds.Item{
			Title:       a.Title,
			Link:        &feeds.Link{Href: url},
			Description: a.Description,
			Content:     a.HTML,
			Author:      author,
			Id:          url,
			IsPermaLink: "true", // the guid is the article's address
			Created:     day,
			Updated:     modified,
		})
	}

	rss := (&feeds.Rss{Feed: f}).RssFeed()
	// RSS names an editor and an item's author by e-mail address, which the
	// site has none of to publish: the author is Dublin Core's creator (a
	// name), as the RSS Advisory Board advises (Atom's author is the name).
	rss.ManagingEditor = ""
	rss.Language = strings.ToLower(site.Locale) // RSS's language codes: en-us
	items := make([]rssItem, len(rss.Items))
	for i, item := range rss.Items {
		item.Author = ""
		item.Category = list[i].Category
		if list[i].CategoryTitle != "" {
			item.Category = list[i].CategoryTitle
		}
		items[i] = rssItem{RssItem: item, Creator: site.Name}
	}
	rssXML, err := toXML(rssDoc{
		Version:   "2.0",
		ContentNS: "http://purl.org/rss/1.0/modules/content/",
		AtomNS:    atomNS,
		DCNS:      "http://purl.org/dc/elements/1.1/",
		Channel:   rssChannel{Self: selfLink{Href: origin + spec.rss, Rel: "self", Type: "application/rss+xml"}, RssFeed: rss, Items: items},
	})
	if err != nil {
		return nil, err
	}
	atom := (&feeds.Atom{Feed: f}).AtomFeed()
	// The author's page, as the articles' article:author names it (the renderer's lib/seo.server.tsx).
	atom.Author.Uri = origin + about.Path
	for i, entry := range atom.Entries {
		entry.Published = f.Items[i].Created.Format(time.RFC3339)
		entry.Author = nil // the feed's author is every entry's
		if list[i].CategoryTitle != "" {
			entry.Category = list[i].CategoryTitle
		}
	}
	atomXML, err := toXML(atomDoc{
		Lang:     site.Locale,
		Links:    []feeds.AtomLink{{Href: atom.Link.Href, Rel: "alternate", Type: "text/html"}, {Href: origin + spec.atom, Rel: "self", Type: "application/atom+xml"}},
		AtomFeed: atom,
	})
	if err != nil {
		return nil, err
	}
	cacheControl := fmt.Sprintf("public, max-age=%d, stale-while-revalidate=%d", int(policy.Fresh.Seconds()), int(policy.Stale.Seconds()))
	return &builtFeeds{rss: newFile(rssXML, cacheControl, f.Updated), atom: newFile(atomXML, cacheControl, f.Updated)}, nil
}

const atomNS = "http://www.w3.org/2005/Atom"

// rssDoc is gorilla/feeds' RSS document with the Atom namespace, for the
// channel's <atom:link rel="self"> (gorilla writes no self link).
type rssDoc struct {
	XMLName   xml.Name `xml:"rss"`
	Version   string   `xml:"version,attr"`
	ContentNS string   `xml:"xmlns:content,attr"`
	AtomNS    string   `xml:"xmlns:atom,attr"`
	DCNS      string   `xml:"xmlns:dc,attr"`
	Channel   rssChannel
}

type rssChannel struct {
	XMLName xml.Name `xml:"channel"`
	Self    selfLink `xml:"atom:link"`
	*feeds.RssFeed
	Items []rssItem `xml:"item"` // hides the embedded feed's items
}

// rssItem is gorilla/feeds' item with its author as dc:creator.
type rssItem struct {
	*feeds.RssItem
	Creator string `xml:"dc:creator"`
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
	Lang    string           `xml:"xml:lang,attr"`
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
