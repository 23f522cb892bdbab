package search

import (
	"context"
	"strings"
	"testing"

	"omnibus/edge/internal/content"
	"omnibus/edge/internal/storage/storagetest"
	"omnibus/shared"
)

func seeded(t testing.TB) *Index {
	t.Helper()
	syn, err := ParseSynonyms(shared.SearchSynonymsJSON)
	if err != nil {
		t.Fatal(err)
	}
	// A fresh content store holds the repository's articles, as a new
	// edge's does.
	ctx := context.Background()
	store := content.New(storagetest.SQLite(t), content.Options{})
	if err := store.Seed(ctx); err != nil {
		t.Fatal(err)
	}
	ix := NewIndex(syn)
	if err := Seed(ctx, ix, store); err != nil {
		t.Fatal(err)
	}
	return ix
}

func first(t *testing.T, ix *Index, q string) Hit {
	t.Helper()
	hits, _ := ix.Search(Normalise(q), 10)
	if len(hits) == 0 {
		t.Fatalf("%q: no result", q)
	}
	return hits[0]
}

func marked(segs []Segment) []string {
	var m []string
	for _, s := range segs {
		if s.Mark {
			m = append(m, strings.ToLower(s.Text))
		}
	}
	return m
}

// A visitor who mistypes "refund" still lands on the refunds article, and
// sees where it speaks of refunds.
func TestTypoFindsTheRefundsArticleWithAMarkedSnippet(t *testing.T) {
	ix := seeded(t)
	h := first(t, ix, "refnd")
	if h.Doc.Slug != "returns-cancellations-and-refunds" {
		t.Fatalf("first result %q, want the refunds article", h.Doc.Slug)
	}
	if m := marked(h.Snippet); len(m) == 0 || !strings.HasPrefix(m[0], "refund") {
		t.Errorf("snippet marks %v, want the word refund marked: %+v", m, h.Snippet)
	}
	if h.Doc.Category != "Orders and shipping" {
		t.Errorf("category %q, want the help topic's title", h.Doc.Category)
	}
}

// "refunds", "refunding" and "refund" are one word to a visitor.
func TestWordFormsMatch(t *testing.T) {
	ix := seeded(t)
	for _, q := range []string{"refunding", "refunded", "Refunds!"} {
		if h := first(t, ix, q); h.Doc.Slug != "returns-cancellations-and-refunds" {
			t.Errorf("%q: first result %q, want the refunds article", q, h.Doc.Slug)
		}
	}
}

// A visitor still typing "refu" already sees the refunds article.
func TestAnUnfinishedLastWordMatchesAsAPrefix(t *testing.T) {
	ix := seeded(t)
	if h := first(t, ix, "refu"); h.Doc.Slug != "returns-cancellations-and-refunds" {
		t.Errorf("first result %q, want the refunds article", h.Doc.Slug)
	}
}

// One edit is forgiven from five letters on, never below: "shop" must not
// find "ship", and two edits are not one.
func TestTypoToleranceIsOneEditFromFiveLetters(t *testing.T) {
	ix := NewIndex(nil)
	ix.Upsert(Doc{Type: TypeHelp, Slug: "a", Title: "Shipping labels", Text: "Print a label."})
	ix.Upsert(Doc{Type: TypeHelp, Slug: "b", Title: "Invoices", Text: "Every invoice is numbered."})
	for q, want := range map[string]int{"invoce": 1, "invoicse": 1, "inovice": 1, "invxce": 0, "lable": 1, "labl": 0, "shop": 0} {
		if _, n := ix.Search(Normalise(q), 10); n != want {
			t.Errorf("%q: %d results, want %d", q, n, want)
		}
	}
}

// Synonyms are content: a query for "return" finds an article that only
// says "refund", and one for "tax invoice" finds the GST article.
func TestSynonymsFromTheContentFile(t *testing.T) {
	syn, err := ParseSynonyms([]byte(`{"synonyms": ["return ~ refund", "GST ~ tax invoice"]}`))
	if err != nil {
		t.Fatal(err)
	}
	ix := NewIndex(syn)
	ix.Upsert(Doc{Type: TypeHelp, Slug: "money-back", Title: "Money back", Text: "How a refund reaches the customer."})
	ix.Upsert(Doc{Type: TypeHelp, Slug: "gst", Title: "GST on orders", Text: "Each order gets its GST."})
	if h := first(t, ix, "returns"); h.Doc.Slug != "money-back" {
		t.Errorf("returns: %q", h.Doc.Slug)
	}
	if h := first(t, ix, "tax invoice"); h.Doc.Slug != "gst" {
		t.Errorf("tax invoice: %q", h.Doc.Slug)
	}
	if _, err := ParseSynonyms([]byte(`{"synonyms": ["lonely"]}`)); err == nil {
		t.Error("a line without ~ was accepted")
	}
}

// A word in the title outranks the same word in another page's body.
func TestTitleRanksAboveBody(t *testing.T) {
	ix := NewIndex(nil)
	ix.Upsert(Doc{Type: TypeBlog, Slug: "body", Title: "Festive checklist", Text: "Domains, domains, domains: connect your domain early, the domain matters."})
	ix.Upsert(Doc{Type: TypeHelp, Slug: "title", Title: "Connect your domain", Text: "Point the records at Omnibus."})
	if h := first(t, ix, "domain"); h.Doc.Slug != "title" {
		t.Errorf("first %q, want the page with domain in its title", h.Doc.Slug)
	}
}

// A published, changed or unpublished article is found, or no longer
// found, by the very next search.
func TestChangesAreSeenByTheNextSearch(t *testing.T) {
	ix := seeded(t)
	load := func(title, text string) func(string, string) (Published, bool, error) {
		return func(string, string) (Published, bool, error) {
			return Published{Title: title, Category: "Getting started", Text: text}, true, nil
		}
	}
	if _, n := ix.Search("zanzibar", 10); n != 0 {
		t.Fatal("the word is already on the site")
	}
	gen := ix.Generation()
	if err := ix.Apply(Change{Type: TypeHelp, Slug: "zanzibar", State: "published"}, load("Selling from Zanzibar", "Ship anywhere.")); err != nil {
		t.Fatal(err)
	}
	if h := first(t, ix, "zanzibar"); h.Doc.URL != "/help/category/article/zanzibar" {
		t.Errorf("url %q", h.Doc.URL)
	}
	if ix.Generation() == gen {
		t.Error("the generation did not move: cached results would be answered again")
	}
	ix.Apply(Change{Type: TypeHelp, Slug: "island-selling", OldSlug: "zanzibar", State: "published"}, load("Selling from islands", "Ship anywhere."))
	if _, n := ix.Search("zanzibar", 10); n != 0 {
		t.Error("the renamed article's old words are still found")
	}
	ix.Apply(Change{Type: TypeHelp, Slug: "island-selling", State: "unpublished"}, nil)
	if _, n := ix.Search("islands", 10); n != 0 {
		t.Error("an unpublished article is still found")
	}
	ix.Apply(Change{Type: "redirect", Slug: "x", State: "published"}, nil) // not searched: no load
}

// The snippet is text with marks, whatever the article holds: markup in
// an article reaches the page as text for the renderer to escape.
func TestSnippetsAreTextSegments(t *testing.T) {
	ix := NewIndex(nil)
	ix.Upsert(Doc{Type: TypeBlog, Slug: "x", Title: "Scripts", Text: strings.Repeat("filler words here. ", 30) + `<script>alert(1)</script> refunds are quick.`})
	hits, _ := ix.Search("refund", 10)
	if len(hits) != 1 {
		t.Fatal("no hit")
	}
	var all string
	for _, s := range hits[0].Snippet {
		all += s.Text
	}
	if !strings.Contains(all, "<script>") || !strings.HasPrefix(all, "… ") {
		t.Errorf("snippet %q: want the text as it is, cut before the match", all)
	}
	if m := marked(hits[0].Snippet); len(m) != 1 || m[0] != "refunds" {
		t.Errorf("marks %v", m)
	}
	if len([]rune(all)) > snippetRunes+10 {
		t.Errorf("snippet of %d characters", len([]rune(all)))
	}
}

// Queries are cut and normalised before anything reads them.
func TestNormalise(t *testing.T) {
	for in, want := range map[string]string{"  GST   Invoice?! ": "gst invoice", "Ünïcode—Dash": "ünïcode dash", strings.Repeat("a", 500): strings.Repeat("a", MaxQueryRunes)} {
		if got := Normalise(in); got != want {
			t.Errorf("Normalise(%q) = %q, want %q", in, got, want)
		}
	}
}

// An article's text keeps its blocks one to a line: headings, emphasis,
// link targets and list marks go.
func TestMarkdownAsText(t *testing.T) {
	got := TextFromMarkdown("## Refunds\n\nRefunds go back through **the [gateway](https://x.example)**.\n\n- one\n- two?\n")
	if want := "Refunds\nRefunds go back through the gateway.\none\ntwo?"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A snippet shows where a heading ends: searching "refund" read
// "… Refunds Refunds go back …", the heading run into the paragraph under
// it as if one sentence. The article's text comes from its HTML (what the
// content store renders), whose inline tags are no gap in a sentence.
func TestSnippetsKeepAHeadingApartFromItsParagraph(t *testing.T) {
	html := "<p>" + strings.Repeat("Filler words about shipping. ", 12) + "</p>\n" +
		"<h2>Refunds</h2><p>Refunds go back to the card within a week. Press <strong>Refund</strong>.</p>" +
		"<ul><li>Cards</li><li>Wallets</li></ul><h3>Notes:</h3><p>None.</p>"
	ix := NewIndex(nil)
	ix.Upsert(ArticleDoc(TypeHelp, "refunds", "Money back", "", "Orders", TextFromHTML(html)))
	hits, _ := ix.Search("refund", 10)
	if len(hits) != 1 {
		t.Fatalf("%d hits", len(hits))
	}
	var snippet string
	for _, s := range hits[0].Snippet {
		snippet += s.Text
	}
	for _, want := range []string{"Refunds · Refunds go back", "Press Refund. Cards · Wallets · Notes: None."} {
		if !strings.Contains(snippet, want) {
			t.Errorf("snippet %q, want it to read %q", snippet, want)
		}
	}
}

// Another edge hears of a change as the purge of the article's page: it
// reads the article again, and finds it, or no longer finds it.
func TestAnotherEdgeFollowsThePurgedPage(t *testing.T) {
	ix := seeded(t)
	published := true
	load := func(typ, slug string) (Published, bool, error) {
		if typ != TypeBlog || slug != "zanzibar" {
			t.Errorf("read %s %s", typ, slug)
		}
		return Published{Title: "Selling from Zanzibar", Category: "Blog", Text: "Spice."}, published, nil
	}
	ix.ApplyPath("/blog/article/zanzibar", load)
	if h := first(t, ix, "zanzibar"); h.Doc.URL != "/blog/article/zanzibar" {
		t.Errorf("url %q", h.Doc.URL)
	}
	published = false
	ix.ApplyPath("/blog/article/zanzibar", load)
	if _, n := ix.Search("zanzibar", 10); n != 0 {
		t.Error("still found after its page was purged as unpublished")
	}
	ix.ApplyPath("/features", load) // not an article: nothing read
}
