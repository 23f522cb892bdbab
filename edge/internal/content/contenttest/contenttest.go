// Package contenttest puts a content store in the states other packages'
// tests start from, through the store's own calls (as the studio would).
//
//	s, cat := contenttest.CategoryEditedOn(t, db, day)
package contenttest

import (
	"context"
	"slices"
	"testing"
	"time"

	"omnibus/edge/internal/content"
	"omnibus/edge/internal/storage"
)

// Editor is who the edits of this package are made by.
const Editor = "editor@example.com"

// CategoryEditedOn returns a store seeded from the repository whose clock
// reads at, in which the first help category's introduction was edited in
// the studio and published then, and that category.
func CategoryEditedOn(t testing.TB, db *storage.DB, at time.Time) (*content.Store, content.Category) {
	t.Helper()
	ctx := context.Background()
	s := content.New(db, content.Options{Now: func() time.Time { return at }})
	if err := s.Seed(ctx); err != nil {
		t.Fatal(err)
	}
	cats, err := s.Categories(ctx)
	if err != nil || len(cats) == 0 {
		t.Fatalf("%d categories, %v", len(cats), err)
	}
	items, _, err := s.List(ctx, content.Filter{Type: content.TypeHelpCategory, Limit: 200})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(items, func(it content.Item) bool { return it.Slug == cats[0].Slug })
	if i < 0 {
		t.Fatalf("no category %s in the studio's list", cats[0].Slug)
	}
	it, err := s.Get(ctx, items[i].ID)
	if err != nil {
		t.Fatal(err)
	}
	d := content.Draft{Slug: it.Revision.Slug, Fields: map[string]string{}, Body: it.Revision.Body}
	for k, v := range it.Revision.Fields {
		d.Fields[k] = v
	}
	d.Fields["intro"] += " Edited in the studio."
	if it, err = s.Save(ctx, it.ID, it.Revision.ID, Editor, d); err != nil {
		t.Fatal(err)
	}
	if _, err = s.Publish(ctx, it.ID, it.Revision.ID, Editor); err != nil {
		t.Fatal(err)
	}
	return s, cats[0]
}
