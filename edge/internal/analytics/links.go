package analytics

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Link is one campaign short link of shared/content/campaign-links.json.
type Link struct {
	Name   string `json:"name"`
	Target string `json:"target"` // a route's path, optionally with #anchor
	UTM    struct {
		Source   string `json:"source"`
		Medium   string `json:"medium"`
		Campaign string `json:"campaign"`
	} `json:"utm"`
	campaign campaign
}

// LinkPrefix is where short links live: /go/<name>.
const LinkPrefix = "/go/"

var (
	linkName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)
	anchor   = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)
)

// ParseLinks reads and checks the links file: names unique and simple,
// each target a path of the route table (ri) with an optional #anchor, tags
// already in their normalised form. (Whether the target page renders the
// anchor is checked against the rendered page by ssr/e2e/campaign-links.spec.ts.)
func ParseLinks(linksJSON []byte, ri routeIndex) ([]Link, error) {
	var f struct {
		Links []Link `json:"links"`
	}
	if err := json.Unmarshal(linksJSON, &f); err != nil {
		return nil, fmt.Errorf("analytics: campaign-links.json: %w", err)
	}
	seen := map[string]bool{}
	for i := range f.Links {
		l := &f.Links[i]
		if seen[l.Name] {
			return nil, fmt.Errorf("analytics: campaign link %q: the name must be unique, lower-case letters, digits and -", l.Name)
		}
		seen[l.Name] = true
		if err := checkLink(l, ri); err != nil {
			return nil, err
		}
	}
	return f.Links, nil
}

// checkLink checks one link and normalises its campaign.
func checkLink(l *Link, ri routeIndex) error {
	if !linkName.MatchString(l.Name) {
		return fmt.Errorf("analytics: campaign link %q: the name must be unique, lower-case letters, digits and -", l.Name)
	}
	path, frag, hasFrag := strings.Cut(l.Target, "#")
	if strings.ContainsAny(path, "?") || ri.of(path) < 0 || strings.HasSuffix(path, ".data") {
		return fmt.Errorf("analytics: campaign link %q: target %q is not a page of shared/routes.json", l.Name, l.Target)
	}
	if hasFrag && !anchor.MatchString(frag) {
		return fmt.Errorf("analytics: campaign link %q: anchor %q is not an element id", l.Name, frag)
	}
	l.campaign = campaign{Source: normalise(l.UTM.Source), Medium: normalise(l.UTM.Medium), Campaign: normalise(l.UTM.Campaign)}
	if l.campaign != (campaign{l.UTM.Source, l.UTM.Medium, l.UTM.Campaign}) || l.campaign.Campaign == "" {
		return fmt.Errorf("analytics: campaign link %q: utm campaign is required, and source, medium and campaign must be lower case a-z 0-9 . _ - (at most %d)", l.Name, maxValue)
	}
	return nil
}

// linkTable is the short links being served, swapped whole when staff
// publish a change (SetLinks).
type linkTable struct {
	links []Link
	idx   map[string]int
}

func newLinkTable(links []Link) *linkTable {
	lt := &linkTable{links: links, idx: make(map[string]int, len(links))}
	for i, l := range links {
		lt.idx[l.Name] = i
	}
	return lt
}

// SetLinks replaces the short links served (the content store's published
// campaign links, as staff change them). A link that does not pass the
// file's checks is left out and logged: the studio checked it already, so
// one that fails here points at a route that has since gone. Clicks are
// counted by name and target, so a click counted before the change keeps
// its link.
func (t *Tracker) SetLinks(links []Link) {
	kept := make([]Link, 0, len(links))
	seen := map[string]bool{}
	for _, l := range links {
		if seen[l.Name] {
			continue
		}
		if err := checkLink(&l, t.routes); err != nil {
			t.log.Warn("analytics: a campaign link left out", "err", err)
			continue
		}
		seen[l.Name] = true
		kept = append(kept, l)
	}
	t.linkTable.Store(newLinkTable(kept))
}
