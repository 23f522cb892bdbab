package content_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"omnibus/edge/internal/content"
	"omnibus/edge/internal/storage/storagetest"
)

// fixturePath is what the edge sends the renderer for each content page of
// a fresh store (the repository's files): the renderer's unit tests read it
// instead of bundling articles, so they test the renderer against the
// edge's real output. UPDATE_FIXTURES=1 rewrites it.
const fixturePath = "../../../shared/testdata/content-pages.json"

func TestTheRenderersContentFixtureIsTheEdgesOutput(t *testing.T) {
	ctx := context.Background()
	s := seeded(t, storagetest.SQLite(t))
	if err := s.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	paths := []string{"/blog", "/help", "/help-centre", "/blog/post", "/blog/posts-2", "/blocks", "/terms-of-use", "/privacy-policy", "/cookie-policy", "/disclaimer"}
	paths = append(paths, s.PagePaths()...)
	sort.Strings(paths)
	pages := map[string]*content.PageContent{}
	for _, p := range paths {
		pc, err := s.PageContentFor(ctx, p)
		if err != nil || pc == nil {
			t.Fatalf("%s: %v %v", p, pc, err)
		}
		pages[p] = pc
	}
	got, err := json.MarshalIndent(map[string]any{
		"$comment": "What the edge sends the renderer (the content header, decoded) for each content page of a fresh content store: written by edge/internal/content's TestTheRenderersContentFixtureIsTheEdgesOutput (UPDATE_FIXTURES=1), read by the renderer's unit tests.",
		"pages":    pages,
	}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if os.Getenv("UPDATE_FIXTURES") == "1" {
		if err := os.WriteFile(filepath.Clean(fixturePath), got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(fixturePath)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("shared/testdata/content-pages.json is not what the edge sends (%v): run UPDATE_FIXTURES=1 go test ./internal/content -run Fixture", err)
	}
}
