package ogcard_test

import (
	"context"
	"image"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"omnibus/edge/internal/content"
	"omnibus/edge/internal/ogcard"
	"omnibus/edge/internal/poll"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// Twenty asks for one article's card at once (a publish and its edges'
// warm-ups, say) make one drawing, and the database keeps it: a later ask,
// from a fresh edge on the same database, draws nothing.
func TestConcurrentAsksForOneCardDrawItOnce(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		var drawn atomic.Int32
		release := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			drawn.Add(1)
			<-release
			w.Header().Set("Content-Type", "image/jpeg")
			jpeg.Encode(w, image.NewRGBA(image.Rect(0, 0, ogcard.Width, ogcard.Height)), nil)
		}))
		t.Cleanup(srv.Close)
		u, _ := url.Parse(srv.URL)
		at := func() *url.URL { return u }
		cards := ogcard.New(db, ogcard.Options{Renderer: at})
		words := content.CardText{Title: "Asked for twenty times", Section: "Blog", Description: "d"}

		var wg sync.WaitGroup
		paths := make([]string, 20)
		for i := range paths {
			wg.Add(1)
			go func() {
				defer wg.Done()
				paths[i], _ = cards.Ensure(context.Background(), words)
			}()
		}
		poll.Until(t, 5*time.Second, func() bool { return drawn.Load() > 0 }, "no drawing began")
		close(release)
		wg.Wait()
		for _, p := range paths {
			if p != ogcard.Path(ogcard.Key(words)) {
				t.Fatalf("an ask answered %q", p)
			}
		}
		if p, err := ogcard.New(db, ogcard.Options{Renderer: at}).Ensure(context.Background(), words); err != nil || p != paths[0] {
			t.Fatalf("another edge's ask: %q %v", p, err)
		}
		if n := drawn.Load(); n != 1 {
			t.Errorf("%d drawings of one card; want 1", n)
		}
	})
}

// A card's key follows every word it shows and the card's look: a new
// title or description is a new card, never the old one's address.
func TestACardsKeyChangesWithItsWords(t *testing.T) {
	a := content.CardText{Title: "T", Section: "Blog", Description: "D"}
	for _, b := range []content.CardText{{Title: "T2", Section: "Blog", Description: "D"}, {Title: "T", Section: "Help centre", Description: "D"}, {Title: "T", Section: "Blog", Description: "D2"}, {Title: "TB", Section: "log", Description: "D"}} {
		if ogcard.Key(a) == ogcard.Key(b) {
			t.Errorf("%+v and %+v share a key", a, b)
		}
	}
}
