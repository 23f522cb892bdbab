// Package ogcard keeps the preview cards (og:image, 1200×630 JPEG) of
// published articles whose words the build did not know: a new article, or
// one staff retitled (decision 0066). When such an article is published the
// edge asks the renderer to draw its card (the renderer's one drawing,
// ssr/app/lib/og-card.server.ts), stores the JPEG in the database under a
// hash of its words and the card's look, and serves it at an immutable
// address every edge answers. A page request carries the card's address in
// its content (content.PageContent's Card) once it is stored.
//
// What an outsider can make it spend: nothing. A card is drawn only for a
// published item's words (Ensure, called on a publish), once per distinct
// words: concurrent asks join one drawing and the database keeps it. A
// visitor's page request only looks a card up (Lookup), and the address
// only serves what is stored.
package ogcard

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image/jpeg"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/sync/singleflight"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"omnibus/edge/internal/content"
	"omnibus/edge/internal/httpx/response"
	"omnibus/edge/internal/storage"
	"omnibus/shared"
)

// Width and Height are the card's size (the renderer draws it so; a card of
// another size is refused, not stored).
const (
	Width  = 1200
	Height = 630
)

// PathPrefix is where cards are served: PathPrefix + key + ".jpg".
const PathPrefix = "/media/og/"

// RendererPath is the renderer's drawing endpoint (ssr/app/lib/og-card.server.ts CARD_PATH).
const RendererPath = "/__renderer/og-card"

// maxCard bounds a drawn card's bytes read from the renderer (they are ~50-100 KB).
const maxCard = 2 << 20

// drawTimeout bounds one drawing, however long its askers wait.
const drawTimeout = 30 * time.Second

// maxRemembered bounds the keys remembered in memory (known, failed).
const maxRemembered = 4096

// card is migration 266's table (storage/migrate_0266_og_cards.go).
type card struct {
	Hash      string `gorm:"primaryKey"`
	Body      []byte
	CreatedAt time.Time
}

func (card) TableName() string { return "og_cards" }

// Options configure New.
type Options struct {
	// Renderer is the renderer's origin, asked per drawing (the active child
	// changes when its standby takes over).
	Renderer func() *url.URL
	Logger   *slog.Logger
}

// Cards draws, stores and serves the cards.
type Cards struct {
	db       *storage.DB
	renderer func() *url.URL
	client   *http.Client
	log      *slog.Logger
	flights  singleflight.Group

	mu     sync.Mutex
	known  map[string]bool // keys stored in the database (a stored card never goes)
	failed map[string]bool // keys whose drawing failed, logged once
}

// New makes the cards on db (migrated).
func New(db *storage.DB, opts Options) *Cards {
	c := &Cards{db: db, renderer: opts.Renderer, log: opts.Logger, client: &http.Client{Timeout: drawTimeout},
		known: map[string]bool{}, failed: map[string]bool{}}
	if c.log == nil {
		c.log = slog.Default()
	}
	return c
}

// Key is the card's key: a hash of its words and the card's look
// (shared/http.json's cardVersion), so new words or a new look are a new
// card, and a key's bytes never change.
func Key(t content.CardText) string {
	h := sha256.New()
	for _, s := range []string{shared.HTTP.CardVersion, t.Section, t.Title, t.Description} {
		fmt.Fprintf(h, "%d:%s", len(s), s)
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// Path is the card's address.
func Path(key string) string { return PathPrefix + key + ".jpg" }

// Lookup is the address of t's card when one is stored, else "" (the page
// shows the build's card or the site's generic one). Never draws.
func (c *Cards) Lookup(ctx context.Context, t content.CardText) string {
	key := Key(t)
	if c.remembered(c.known, key) {
		return Path(key)
	}
	var n int64
	if err := c.db.WithContext(ctx).Model(&card{}).Where("hash = ?", key).Count(&n).Error; err != nil {
		c.log.WarnContext(ctx, "ogcard: lookup", "err", err)
		return ""
	}
	if n == 0 {
		return ""
	}
	c.remember(c.known, key)
	return Path(key)
}

// Ensure makes sure t's card is stored, drawing it when it is not, and
// answers its address. It waits for the drawing only as long as ctx
// allows: past it, it answers ctx's error while the drawing goes on (a
// later Ensure of the same words joins it). A failed drawing is logged
// once per words and answered as an error: the page keeps its earlier card.
func (c *Cards) Ensure(ctx context.Context, t content.CardText) (string, error) {
	key := Key(t)
	if p := c.Lookup(ctx, t); p != "" {
		return p, nil
	}
	ch := c.flights.DoChan(key, func() (any, error) {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), drawTimeout)
		defer cancel()
		// An ask that missed the lookup above while the card was being drawn may
		// join a flight that starts only after that drawing ended: look again.
		if c.Lookup(dctx, t) != "" {
			return nil, nil
		}
		err := c.draw(dctx, key, t)
		if err != nil && !c.remembered(c.failed, key) {
			c.remember(c.failed, key)
			c.log.Error("ogcard: the renderer did not draw a card; the page keeps the generic one", "title", t.Title, "err", err)
		}
		return nil, err
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			return "", res.Err
		}
		return Path(key), nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// draw asks the renderer for t's card and stores it under key.
func (c *Cards) draw(ctx context.Context, key string, t content.CardText) error {
	if c.renderer == nil {
		return errors.New("no renderer")
	}
	words, err := json.Marshal(t)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.renderer().JoinPath(RendererPath).String(), nil)
	if err != nil {
		return err
	}
	req.Header.Set(shared.HTTP.CardHeader, base64.RawURLEncoding.EncodeToString(words))
	res, err := c.client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxCard+1))
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("renderer answered %s: %.200s", res.Status, body)
	}
	if len(body) > maxCard {
		return fmt.Errorf("the card is over %d bytes", maxCard)
	}
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("the card is no JPEG: %w", err)
	}
	if cfg.Width != Width || cfg.Height != Height {
		return fmt.Errorf("the card is %d×%d, not %d×%d", cfg.Width, cfg.Height, Width, Height)
	}
	// Another edge may have stored the same words' card meanwhile: same bytes' worth.
	row := card{Hash: key, Body: body, CreatedAt: time.Now().UTC()}
	if err := c.db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&row).Error; err != nil {
		return err
	}
	c.remember(c.known, key)
	return nil
}

func (c *Cards) remembered(set map[string]bool, key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return set[key]
}

func (c *Cards) remember(set map[string]bool, key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(set) >= maxRemembered {
		clear(set) // looked up again from the database
	}
	set[key] = true
}

// Routes is where the handler goes.
type Routes interface {
	GET(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) *echo.Route
}

// Register serves the cards: GET PathPrefix + key + ".jpg", immutable.
func (c *Cards) Register(routes Routes) {
	routes.GET(PathPrefix+":file", c.serve)
}

func (c *Cards) serve(e echo.Context) error {
	key, ok := strings.CutSuffix(e.Param("file"), ".jpg")
	if _, err := hex.DecodeString(key); !ok || err != nil || len(key) != 32 {
		return e.NoContent(http.StatusNotFound)
	}
	return response.Immutable(e, `"`+key+`"`, "ogcard", func(ctx context.Context) ([]byte, string, error) {
		var row card
		err := c.db.WithContext(ctx).Where("hash = ?", key).Take(&row).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, "", nil
		}
		return row.Body, "image/jpeg", err
	})
}
