package cache

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/httpx/response"
	"omnibus/edge/internal/ratelimit"
)

// PurgePath is the admin endpoint that purges pages.
const PurgePath = "/api/v1/admin/cache/purge"

// maxPurgeBody bounds the purge request body.
const maxPurgeBody = 4 << 10

// Validate checks that exactly one of path, prefix and all is given and that
// paths are absolute.
func (t Target) Validate() error {
	n := 0
	for _, set := range []bool{t.Path != "", t.Prefix != "", t.All} {
		if set {
			n++
		}
	}
	if n != 1 {
		return errors.New(`give exactly one of "path", "prefix" or "all": true`)
	}
	for _, p := range []string{t.Path, t.Prefix} {
		if p != "" && (!strings.HasPrefix(p, "/") || len(p) > 2048) {
			return errors.New("paths start with / and are at most 2048 characters")
		}
	}
	return nil
}

func (t Target) String() string {
	switch {
	case t.All:
		return "everything"
	case t.Prefix != "":
		return "prefix " + t.Prefix
	}
	return "path " + t.Path
}

// Purge removes the target's pages here and, on PostgreSQL, sends the purge
// to every other edge instance, and to the caches in front (SetCDN). It returns how many pages it removed here;
// the error says the other instances could not be told.
func (c *Cache) Purge(t Target) (int, error) {
	if err := t.Validate(); err != nil {
		return 0, err
	}
	n := c.apply([]Target{t}, "", "", time.Time{})
	var errs []error
	if c.fanout != nil {
		if err := c.fanout.send(purgeMessage{Origin: c.fanout.origin, Target: t}); err != nil {
			errs = append(errs, fmt.Errorf("cache: purge not sent to other edge instances: %w", err))
		}
	}
	if err := c.purgeCDN(t); err != nil {
		errs = append(errs, fmt.Errorf("cache: purge not sent to every cache in front: %w", err))
	}
	return n, errors.Join(errs...)
}

// purgeLocal removes the target's pages from this instance. Renders already
// running are not stored afterwards (they may predate what the purge is for).
func (c *Cache) purgeLocal(t Target) int {
	c.gen.Add(1)
	n := c.store.removeIf(t.matcher())
	c.log.Info("cache: purged", "target", t.String(), "pages", n)
	c.kickWarming()
	return n
}

// PurgeResult is the purge endpoint's answer: the acknowledgement (every
// edge that applied the purge, and when it warmed its new copies).
type PurgeResult struct {
	Ack
	// Broadcast is true when the purge was also sent to the other instances
	// (PostgreSQL); false when this instance is the only one (SQLite).
	Broadcast bool `json:"broadcast"`
}

// purgeBody is the purge endpoint's body: one target, and how long to
// wait for every edge's acknowledgement (default DefaultPurgeTimeout, at
// most a minute).
type purgeBody struct {
	Target
	WaitSeconds float64 `json:"waitSeconds,omitempty"`
}

// Register mounts POST /api/v1/admin/cache/purge on e, authorised by
// "Authorization: Bearer <token>". With an empty token purging over HTTP is
// off and the endpoint answers 404. keys are the edge's rate-limit keys.
func (c *Cache) Register(e interface {
	POST(string, echo.HandlerFunc, ...echo.MiddlewareFunc) *echo.Route
}, token string, keys ratelimit.Keys) {
	limiter := keys.For(nil, "cache_purge_ip", 30, 2*time.Second) // per instance: the token holder is trusted
	e.POST(PurgePath, c.purgeHandler(token), limitByClient(limiter))
}

// limitByClient refuses a client over limiter's limit with 429 before the
// handler reads anything.
func limitByClient(limiter *ratelimit.Limiter) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if ok, wait := limiter.Allow(c.Request().Context(), limiter.ClientKey(c.RealIP())); !ok {
				return response.TooManyRequests(c, wait)
			}
			return next(c)
		}
	}
}

func (c *Cache) purgeHandler(token string) echo.HandlerFunc {
	return func(ctx echo.Context) error {
		if token == "" {
			return response.Error(ctx, http.StatusNotFound, "Not found")
		}
		given, ok := strings.CutPrefix(ctx.Request().Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(given)), []byte(token)) != 1 {
			ctx.Response().Header().Set("WWW-Authenticate", `Bearer realm="cache purge"`)
			return response.Error(ctx, http.StatusUnauthorized, "A valid purge token is required.")
		}
		var pr purgeBody
		body := http.MaxBytesReader(ctx.Response(), ctx.Request().Body, maxPurgeBody)
		dec := json.NewDecoder(body)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&pr); err != nil {
			return response.Error(ctx, http.StatusBadRequest, `The body must be JSON: {"path": "/x"}, {"prefix": "/blog"} or {"all": true}, with "waitSeconds" if wanted.`)
		}
		if err := pr.Target.Validate(); err != nil {
			return response.Error(ctx, http.StatusBadRequest, "Invalid purge: "+err.Error()+".")
		}
		if pr.WaitSeconds < 0 || pr.WaitSeconds > 60 {
			return response.Error(ctx, http.StatusBadRequest, "Invalid purge: waitSeconds is between 0 and 60.")
		}
		wait := DefaultPurgeTimeout
		if pr.WaitSeconds > 0 {
			wait = time.Duration(pr.WaitSeconds * float64(time.Second))
		}
		wctx, cancel := context.WithTimeout(ctx.Request().Context(), wait)
		defer cancel()
		a, err := c.PurgeTargets(wctx, pr.Target)
		var late *PurgeNotApplied
		switch {
		case errors.As(err, &late):
			// Not applied everywhere in time: the answer names the edges.
			return ctx.JSON(http.StatusGatewayTimeout, map[string]any{
				"errorDetail": fmt.Sprintf("Purged here, but not applied within %s by %s.", wait, strings.Join(late.Edges, ", ")),
				"ack":         a,
			})
		case err != nil:
			c.log.ErrorContext(ctx.Request().Context(), "cache: purge fan-out", "err", err)
			return response.Error(ctx, http.StatusServiceUnavailable,
				fmt.Sprintf("Purged %d pages on this instance, but could not reach every other cache (edge instances, CDN); try again.", a.Purged))
		}
		return response.OK(ctx, PurgeResult{Ack: a, Broadcast: c.fanout != nil})
	}
}

// OnPurge calls fn once for every purge of this instance's pages, local or
// fanned out from another edge, with all of its targets (a publish purges
// about six pages in one), before the pages are removed and warming starts:
// the content store reloads which pages exist there, once per purge.
func (c *Cache) OnPurge(fn func([]Target)) { c.onPurge.Store(&fn) }

// beforePurge calls OnPurge's function with ts: before the pages go, what
// re-renders them reads the new state.
func (c *Cache) beforePurge(ts []Target) {
	if fn := c.onPurge.Load(); fn != nil {
		(*fn)(ts)
	}
}
