package cache

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"omnibus/edge/internal/httpx/request"
)

// Warming: at start and after every purge (local, over HTTP or the command
// line, or fanned out from another edge: all go through purgeLocal) the
// cache renders the route table's cacheable pages in the background, one at
// a time, so the first visitor after a deploy or a purge gets a hit. It
// never competes with a visitor: before each render it waits until no
// visitor is waiting for one (fetch), and a visitor asking for the page
// being warmed joins that render. Each render stores the page in every
// encoding (identity, gzip, brotli), as a visitor's render does.

// WarmOptions configure StartWarming.
type WarmOptions struct {
	// Paths are the pages to warm (Policies.CacheablePaths).
	Paths []string
	// PathsFunc, when set, gives the pages to warm at the start of each
	// warm-up, in place of Paths (the content store's pages change while
	// the edge runs).
	PathsFunc func() []string
	// Origin is the site's origin (PUBLIC_URL): the warm requests are made
	// as a visitor's request for it, through the TLS proxy when https.
	Origin string
	// Ready reports the renderer ready; warming waits for it (nil: ready).
	Ready func(ctx context.Context) error
	// Done is called when a warm-up ends with every page stored, with how
	// long it took (the metric); optional.
	Done func(d time.Duration)
}

// warmState is the warmer's state, read by WarmState.
type warmState struct {
	kick    chan struct{} // a purge asks for a warm-up (buffered: one pending)
	done    atomic.Bool   // the last warm-up finished and nothing purged since
	last    atomic.Int64  // duration of the last complete warm-up, ns
	waiting atomic.Int64  // visitors waiting for a render now (fetch)
	rounds  atomic.Int64  // complete warm-ups so far
	pause   time.Duration // poll interval while visitors wait
	onPause func()        // test hook: warming is waiting for visitors
	next    http.Handler  // the page proxy (Wrap's next)
	opts    WarmOptions
}

// warmRetries bounds the renders of one page in one warm-up (the renderer
// restarting answers 503 for a moment).
const warmRetries = 3

// StartWarming warms the cache now and after every purge until ctx ends.
// Call it after Wrap.
func (c *Cache) StartWarming(ctx context.Context, opts WarmOptions) {
	w := &c.warm
	w.opts = opts
	w.kick = make(chan struct{}, 1)
	w.kick <- struct{}{}
	c.warming.Store(true)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-w.kick:
			}
			c.warmAll(ctx)
		}
	}()
}

// WarmState reports whether the last warm-up is done (every cacheable page
// stored, nothing purged since) and how long it took.
func (c *Cache) WarmState() (done bool, took time.Duration) {
	return c.warm.done.Load(), time.Duration(c.warm.last.Load())
}

// WarmUps is how many warm-ups have completed (tests wait for one).
func (c *Cache) WarmUps() int64 { return c.warm.rounds.Load() }

// kickWarming asks for a warm-up after a purge.
func (c *Cache) kickWarming() {
	if !c.warming.Load() {
		return
	}
	c.warm.done.Store(false)
	select {
	case c.warm.kick <- struct{}{}:
	default: // one is pending already
	}
}

// warmAll renders every page not stored fresh. A purge during the warm-up
// (a new generation) starts it over: what was rendered before it is stale.
func (c *Cache) warmAll(ctx context.Context) {
	w := &c.warm
	start := time.Now()
	if w.opts.Ready != nil {
		for w.opts.Ready(ctx) != nil {
			if !sleepCtx(ctx, 200*time.Millisecond) {
				return
			}
		}
	}
	gen := c.gen.Load()
	rendered, failed := 0, 0
	paths := w.opts.Paths
	if w.opts.PathsFunc != nil {
		paths = w.opts.PathsFunc()
	}
	for _, p := range paths {
		ok := false
		for try := 0; try < warmRetries && !ok; try++ {
			if try > 0 && !sleepCtx(ctx, time.Duration(try)*time.Second) {
				return
			}
			if !c.waitForVisitors(ctx) {
				return
			}
			if c.gen.Load() != gen {
				c.kickWarming()
				return
			}
			var did bool
			ok, did = c.warmOne(ctx, p)
			if did {
				rendered++
			}
		}
		if !ok {
			failed++
		}
	}
	took := time.Since(start)
	if c.gen.Load() != gen {
		c.kickWarming()
		return
	}
	if failed > 0 {
		c.log.Warn("cache: warming done with pages missing", "pages", len(paths), "rendered", rendered, "failed", failed, "ms", took.Milliseconds())
		return
	}
	w.last.Store(int64(took))
	w.done.Store(true)
	w.rounds.Add(1)
	c.warmedUpTo(gen)
	c.log.Info("cache: warming done", "pages", len(paths), "rendered", rendered, "ms", took.Milliseconds())
	if w.opts.Done != nil {
		w.opts.Done(took)
	}
}

// waitForVisitors returns once no visitor is waiting for a render (false
// when ctx ends first).
func (c *Cache) waitForVisitors(ctx context.Context) bool {
	pause := c.warm.pause
	if pause == 0 {
		pause = 5 * time.Millisecond
	}
	for c.warm.waiting.Load() > 0 {
		if c.warm.onPause != nil {
			c.warm.onPause()
		}
		if !sleepCtx(ctx, pause) {
			return false
		}
	}
	return true
}

// warmOne stores path's page unless it is stored and fresh: ok when it is
// stored afterwards, did when a render ran.
func (c *Cache) warmOne(ctx context.Context, path string) (ok, did bool) {
	r, err := c.warmRequest(ctx, path)
	if err != nil {
		c.log.Error("cache: warm request", "path", path, "err", err)
		return false, false
	}
	key := Key(r.URL)
	if e := c.store.peek(key); e != nil && c.now().Sub(e.stored) < e.policy.Fresh {
		return true, false
	}
	res := <-c.group.DoChan(key, func() (any, error) { return c.render(r, key, c.warm.next), nil })
	return res.Val.(result).kind != renderFailed && c.store.peek(key) != nil, true
}

// warmRequest is a visitor's GET of path on the site's origin.
func (c *Cache) warmRequest(ctx context.Context, path string) (*http.Request, error) {
	o, err := url.Parse(c.warm.opts.Origin)
	if err != nil {
		return nil, err
	}
	r, err := http.NewRequestWithContext(withWarm(ctx), http.MethodGet, o.Scheme+"://"+o.Host+path, nil)
	if err != nil {
		return nil, err
	}
	r.RemoteAddr = "127.0.0.1:0"
	r.RequestURI = r.URL.RequestURI()
	r.Header.Set("X-Forwarded-Proto", o.Scheme)
	r.Header.Set("X-Forwarded-Host", o.Host)
	return request.With(r, "cache-warm", "127.0.0.1", true), nil
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// CacheablePaths are the pages warming renders: every route of the table
// without parameters whose policy lets it be stored, and each of concrete
// (the content's articles and help topics, as the sitemap lists them) that
// matches a parameterised route that may be stored.
func (ps Policies) CacheablePaths(concrete []string) []string {
	var out []string
	storable := func(p Policy) bool { return !p.Private && p.Fresh+p.Stale > 0 }
	for _, r := range ps.routes {
		if !strings.ContainsAny(r.path, ":*") && storable(r.policy) {
			out = append(out, r.path)
		}
	}
	for _, p := range concrete {
		if storable(ps.For(p)) {
			out = append(out, p)
		}
	}
	return out
}
