// Package app builds the whole edge from a configuration: the one wiring
// that `cmd/edge` runs in production and `internal/edgetest` runs in the
// integration tests, so the tests exercise the graph that serves visitors
// (page cache and accounts included).
//
// New reads top to bottom in this order, each step a numbered section:
//
//	1 storage → 2 listener → 3 metrics → 4 renderer
//	→ 5 the parts of the page handler (content store, security headers,
//	  canonical addresses, page cache, accounts, billing, search, analytics)
//	→ 6 the page handler: one list of layers, outermost first
//	→ 7 static files → 8 forms posted to their page
//	→ 9 server (its middleware, one list) → 10 routes (seo, API features)
//
// then Run: serve → drain. Each part gets what it needs in its constructor
// (decision 0039), the rate limits' keys too: no package value is set.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/accounts"
	"omnibus/edge/internal/analytics"
	"omnibus/edge/internal/assets"
	"omnibus/edge/internal/billing"
	"omnibus/edge/internal/billing/stripepay"
	"omnibus/edge/internal/cache"
	"omnibus/edge/internal/canonical"
	"omnibus/edge/internal/config"
	"omnibus/edge/internal/contact"
	"omnibus/edge/internal/content"
	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/httpx/origin"
	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/metrics"
	"omnibus/edge/internal/newsletter"
	"omnibus/edge/internal/ogcard"
	"omnibus/edge/internal/platform"
	"omnibus/edge/internal/proxy"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/renderer"
	"omnibus/edge/internal/search"
	"omnibus/edge/internal/security"
	"omnibus/edge/internal/seo"
	"omnibus/edge/internal/server"
	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/studio"
	"omnibus/edge/internal/studiopages"
	"omnibus/edge/internal/theme"
	"omnibus/shared"
)

// Deps are parts a caller may hand in instead of having New make them from
// the configuration. The zero value makes everything, as production does.
type Deps struct {
	// Logger (default slog.Default()).
	Logger *slog.Logger
	// DB is the database; nil opens DATABASE_URL or the SQLite file under
	// DATA_DIR (and Close closes it; a DB handed in stays open).
	DB *storage.DB
	// Listener is the public listener; nil listens on LISTEN_ADDR.
	Listener net.Listener
	// Listen opens the metrics listener (and the public one without
	// Listener); nil is net.Listen. The socket takeover passes its own,
	// which inherits the predecessor's sockets (cmd/edge).
	Listen func(network, addr string) (net.Listener, error)
	// SharedSocket: the listening socket is held by another process too
	// (systemd's socket unit): stopping leaves its queue to the next edge.
	SharedSocket bool
	// FreshRendererPorts runs the renderer on free loopback ports instead
	// of RENDERER_PORT and RENDERER_METRICS_PORT, which the predecessor's
	// renderer still holds while this edge takes over.
	FreshRendererPorts bool
	// AcceptWhenReady holds Run's accepting until the renderer answers:
	// an edge taking over a socket its predecessor still accepts on must
	// leave every connection to it until it can render one itself (else
	// the kernel hands it connections it can only answer 503).
	AcceptWhenReady bool
	// RendererOutput receives the child renderer's stdout and stderr
	// (default os.Stderr).
	RendererOutput io.Writer
	// AssetsDir is the client build to serve (default SSR_DIR/build/client);
	// NoAssets serves no static files (as in dev mode, where Vite does).
	AssetsDir string
	NoAssets  bool
	// Now is the page cache's clock (tests move it; default time.Now).
	Now func() time.Time
	// Payments, when set, makes the payment provider in place of the one the
	// settings choose (a test's provider; nil from it turns payments off).
	Payments func(publicURL string) billing.Provider
	// WrapPages, when set, is the page handler's outermost layer (a test
	// that holds a page back, or watches what reaches the pages).
	WrapPages func(http.Handler) http.Handler
}

// App is a built edge, ready to Serve.
type App struct {
	Config config.Config
	Log    *slog.Logger
	// URL is the edge's loopback origin, http://127.0.0.1:<port>.
	URL      string
	DB       *storage.DB
	Renderer *renderer.Supervisor
	Server   *server.Server
	// Cache is the page cache; nil when it is off (CACHE_MAX_BYTES=0, dev mode).
	Cache    *cache.Cache
	Accounts *accounts.Service
	Billing  *billing.Service
	Mailer   mail.Sender
	// Metrics is the Prometheus registry; nil when METRICS_ADDR is empty.
	Metrics *metrics.Metrics
	// MetricsURL is the metrics listener's http://host:port/metrics.
	MetricsURL string
	// Content is the content store: articles, help, policies, campaign
	// links and redirects, edited in the studio (/api/v1/staff).
	Content *content.Store
	// Cards are the preview images drawn for published articles' words.
	Cards *ogcard.Cards
	// Analytics counts page views, answers /go/ links and the staff page.
	Analytics *analytics.Tracker
	// SearchIndex is what site search finds (the repository's articles and
	// product pages at start); Search answers /search and /api/v1/search.
	SearchIndex *search.Index
	Search      *search.Service
	// Staff is the studio's access: roles, studio sessions, second
	// factors, the audit log (internal/staff, internal/audit).
	Staff *staff.Service

	ln        net.Listener
	closers   []func()    // run in reverse order by Close
	takenOver atomic.Bool // HandOver was called
	// acceptWhenReady: Deps.AcceptWhenReady.
	acceptWhenReady bool
}

// New builds the edge, top to bottom in the order of the package comment.
// On error everything it had started is stopped again.
func New(cfg config.Config, deps Deps) (_ *App, err error) {
	log := deps.Logger
	if log == nil {
		log = slog.Default()
	}
	a := &App{Config: cfg, Log: log}
	defer func() {
		if err != nil {
			a.Close()
		}
	}()
	// The rate limits' ceiling of keys and IPv6 network, handed to every
	// part that makes a limiter.
	limits := ratelimit.Keys{Max: cfg.RateLimitMaxKeys, IPv6Prefix: cfg.RateLimitIPv6Prefix}

	// 1. Storage: SQLite under DATA_DIR, or PostgreSQL at DATABASE_URL;
	// migrations run here.
	if err := a.openStorage(deps.DB); err != nil {
		return nil, err
	}

	// 2. The public listener.
	listen := deps.Listen
	if listen == nil {
		listen = net.Listen
	}
	a.ln = deps.Listener
	if a.ln == nil {
		if a.ln, err = listen("tcp", cfg.Addr); err != nil {
			return nil, err
		}
	}
	ln := a.ln
	a.closers = append(a.closers, func() { ln.Close() })
	a.URL = "http://" + loopbackAddr(a.ln.Addr())

	// 3. Metrics (METRICS_ADDR): a registry the parts below feed, served on
	// a listener of its own, never on the public one (internal/metrics).
	if err := a.startMetrics(listen); err != nil {
		return nil, err
	}

	// 4. The renderer: a supervised child on loopback, or RENDERER_URL (on
	// free ports when this edge takes over from one whose renderer still
	// holds RENDERER_PORT).
	a.acceptWhenReady = deps.AcceptWhenReady
	if err := a.startRenderer(deps.RendererOutput, deps.FreshRendererPorts); err != nil {
		return nil, err
	}
	rend := a.Renderer

	// 5. The parts the page handler is made of.
	// The content store: the repository's files imported on first start
	// (and a changed file as a new revision), the set of content pages
	// loaded, and the scheduler that publishes what is due (one edge at a
	// time, by a lease in the database).
	a.startContent()
	// The security headers of every answer, and the CSP of stored pages.
	secure, err := security.New(security.Options{
		PublicURL: cfg.PublicURL, GoogleClientID: cfg.GoogleClientID, GoogleIssuerURL: cfg.GoogleIssuerURL,
		MerchantAppURL: cfg.MerchantAppURL, Dev: cfg.RendererDev,
	})
	if err != nil {
		return nil, err
	}
	// Site search: the /search page gets the results of its ?q= from the
	// edge, as the journey pages get their data (internal/search); the
	// page is private, so no query becomes a page-cache entry.
	syn, err := search.ParseSynonyms(shared.SearchSynonymsJSON)
	if err != nil {
		return nil, err
	}
	// What it finds: the product pages and the store's published articles,
	// kept in line with the store by this edge's changes (searchChanged)
	// and another edge's, heard as its page purge (startCache's OnPurge).
	a.SearchIndex = search.NewIndex(syn)
	a.loadContent()
	a.Content.Subscribe(a.searchChanged)
	a.Search = search.New(search.Options{
		Index: a.SearchIndex, Security: secure,
		Limiter:     limits.New(search.LimitBurst, search.LimitEvery),
		PageLimiter: limits.New(search.PageLimitBurst, search.PageLimitEvery),
		Searched: func(r *http.Request, q string, total int) {
			if a.Analytics != nil {
				a.Analytics.Searched(r, q, total)
			}
		},
	})
	// The route table's pages, knowing the articles and help topics that
	// are published (any other slug is the one shared not-found page, not
	// a render of its own), how many pages each list has (a page past the
	// last is that page too) and the client build's version: the one
	// spelling of each page's address (internal/canonical).
	addresses := canonical.New(shared.Routes).WithPageSet(a.Content.IsPage).WithPageCount(content.PageParam, a.Content.PageCount)
	if v := manifestVersion(deps.AssetsDir, cfg.SSRDir); v != "" {
		addresses = addresses.WithManifestVersion(v)
	}
	// The page cache, by the route table's cache policies: off in dev
	// mode, where pages change with every edit, and with CACHE_MAX_BYTES=0.
	if cfg.CacheMaxBytes > 0 && !cfg.RendererDev {
		if err := a.startCache(cache.NewPolicies(addresses), secure, deps.Now); err != nil {
			return nil, err
		}
	}
	// Accounts: sessions, sign-in (password, Google), password reset mail.
	if a.Mailer, err = mail.New(cfg.SMTPURL, cfg.MailFrom, a.DB); err != nil {
		return nil, err
	}
	a.Accounts = accounts.New(a.DB, a.Mailer, accounts.Options{
		PublicURL: cfg.PublicURL, MerchantAppURL: cfg.MerchantAppURL, SessionTTL: cfg.SessionTTL,
		GoogleClientID: cfg.GoogleClientID, GoogleClientSecret: cfg.GoogleClientSecret, GoogleIssuerURL: cfg.GoogleIssuerURL,
		RateLimit: limits,
	})
	if a.Metrics != nil {
		a.Accounts.Hashing.Hooks = a.Metrics.HashQueue // omnibus_password_hash_* series
	}
	// Billing: licence orders, the payment provider, the onboarding status.
	provider := paymentProvider
	if deps.Payments != nil {
		provider = func(cfg config.Config, _ *slog.Logger) billing.Provider { return deps.Payments(cfg.PublicURL) }
	}
	a.Billing = billing.New(a.DB, a.Accounts, billing.Options{
		PublicURL: cfg.PublicURL, Provider: provider(cfg, log),
		AdminConsoleURL: cfg.AdminConsoleURL, MerchantAppURL: cfg.MerchantAppURL,
	})
	// The studio's access (internal/staff): a studio session, opened only
	// by a passkey (or an allowed TOTP code) after a merchant sign-in, and
	// a role; the staff page needs the viewer role.
	a.Staff = staff.New(a.DB, staff.Options{
		PublicURL: cfg.PublicURL, SessionTTL: cfg.StaffSessionTTL, RecheckWindow: cfg.StaffRecheckWindow,
		EnrolWindow: cfg.StaffEnrolWindow, Account: a.Accounts.SignedIn, Mail: a.Mailer, Logger: log,
		RateLimit: limits,
	})
	// Visit counts, campaign short links (/go/…) and the staff page.
	if a.Analytics, err = analytics.New(analytics.Options{
		DB: a.DB, Routes: shared.Routes, LinksJSON: shared.CampaignLinksJSON, BotsJSON: shared.BotsJSON,
		PublicURL: cfg.PublicURL, StaffAccess: a.Staff.PageAccess(staff.Viewer), Logger: log,
	}); err != nil {
		return nil, err
	}
	a.Analytics.Start()
	a.closers = append(a.closers, a.Analytics.Close) // before the database closes
	// The short links served are the content store's published ones (the
	// file above serves until the store first loads), on every edge: a
	// link's change purges /go/<name> everywhere, and each edge's reload
	// brings the links along.
	a.Content.AfterRefresh(func() { a.Analytics.SetLinks(campaignLinks(a.Content.CampaignLinks())) })
	// A committed change of the content store reloads its pages here and
	// purges (and re-warms) the pages it alters on every edge.
	a.Content.Subscribe(a.contentChanged)

	// 6. The page handler: everything that is not API, health or a static
	// file. Its layers, outermost first: each sees the request before the
	// ones below it, and their answer after them. A layer that is off is
	// nil and left out.
	render := http.Handler(proxy.New(proxy.Options{Upstream: rend.URL, Timeout: cfg.RendererTimeout, Logger: log}))
	pages := layers(render,
		deps.WrapPages, // a test's own layer (edgetest)
		// /staff/sign-in: the studio's passkey sign-in, drawn by the edge.
		a.Staff.Pages,
		// Preview links (/preview/{token}): the draft, rendered through the
		// proxy alone, outside the counting and the cache (never stored).
		func(next http.Handler) http.Handler { return a.Content.PreviewPages(next, render) },
		// Counts the visit, answers /go/ links and the staff page: first,
		// to read the utm tags before Canonical drops them; one hook,
		// counting once the answer is out.
		a.Analytics.Pages,
		// The studio's pages (/staff) get their data on the page request.
		func(next http.Handler) http.Handler {
			return studiopages.Wrap(a.studioOptions(staff.Viewer, log), next)
		},
		// The content store's redirects (301, 302, 410): before Canonical,
		// so a redirect keeps the query Canonical would drop (utm tags) and
		// an old address takes one hop, not two; before the cache.
		a.Content.Redirects,
		// Every form of a page's address (path spellings, junk queries)
		// reaches the session middleware, the cache and the renderer as
		// one. Not in dev mode, where Vite's module URLs and their queries
		// pass through here.
		unless(cfg.RendererDev, addresses.Canonical),
		// /landing-page goes to MERCHANT_APP_URL when that is another origin.
		a.Billing.Pages,
		// The session: the redirect rules for /login and /register and the
		// end of the no-JS Google flow at /sso-redirect answer here, before
		// the cache or the renderer see the request.
		a.Accounts.Pages,
		// /search gets the results of its ?q= in a header, as the journey
		// pages get theirs; the page is private, so no query is a cache entry.
		a.Search.Pages,
		// A signed-in merchant's journey pages get their data in headers
		// (the renderer never calls the edge).
		a.Billing.PageData,
		// An unpublished item's page answers 410 Gone (stored as such).
		a.Content.Gone,
		when(a.Cache != nil && a.Metrics != nil, a.Metrics.PageCache),
		when(a.Cache != nil, a.Cache.Wrap),
		when(a.Metrics != nil, a.Metrics.Renders),
		// Content pages get what they show from the store in a header on
		// the page request, behind the cache (the renderer bundles no
		// article and never calls the edge).
		a.Content.PageData,
	)

	// 7. Static files of the client build (not in dev mode: Vite serves them
	// through the renderer).
	var files *assets.Handler
	if !deps.NoAssets && !cfg.RendererDev {
		if files, err = a.startAssets(deps.AssetsDir); err != nil {
			return nil, err
		}
	}

	// 8. Forms posted to their own page without JavaScript (shared/routes.json's
	// form and layoutForm): the API's handlers take them, behind the API's
	// body limit, and a refusal is answered with the page itself, rendered
	// through the page handler.
	formPages := forms.New(shared.Routes, server.BodyLimit(server.DefaultAPIBodyLimit), pages)

	// 9. The server: its own middleware on every request (recover, request
	// id, access log, security headers, guard), then these, in this order.
	// The database's state is kept by one background pinger: neither the
	// readiness probe nor a scrape ever waits on the database.
	healthCtx, stopHealth := context.WithCancel(context.Background())
	a.closers = append(a.closers, stopHealth)
	health := a.DB.WatchHealth(healthCtx, log)
	middleware := []echo.MiddlewareFunc{
		// One origin: any other host's request goes to PUBLIC_URL's.
		origin.Redirect(cfg.PublicURL, addresses.CanonicalURI),
	}
	if a.Metrics != nil {
		middleware = append(middleware, a.Metrics.Middleware())
	}
	a.Server = server.New(server.Options{
		Middleware:     middleware,
		SharedSocket:   deps.SharedSocket,
		Pages:          pages,
		PageMiddleware: []echo.MiddlewareFunc{formPages.Middleware},
		Assets:         files,
		TrustedProxies: cfg.TrustedProxies,
		Limits:         server.Limits{MaxConns: cfg.MaxConnections, MaxConnsPerClient: cfg.MaxConnsPerClient},
		// Ready = pages can be served: the renderer answers (the page cache
		// answers with it). The database is reported, not required: during
		// its outage cached pages and static files still serve, and an
		// unready edge would leave the load balancer with them.
		Checks:   map[string]server.Check{"renderer": rend.Check},
		Reports:  map[string]func() error{"database": health.Err},
		Logger:   log,
		Security: secure,
	})
	if a.Metrics != nil {
		a.watch(health, files)
	}

	// 10. The routes: top-level ones, then the API's, then the forms'
	// handlers (the API's own).
	if a.Cache != nil {
		a.Cache.Register(a.Server.Routes, cfg.CachePurgeToken, limits) // POST /api/v1/admin/cache/purge
	}
	if err := seo.Register(a.Server.Routes, cfg.PublicURL, a.Content); err != nil {
		return nil, err
	}
	api := a.Server.API
	if err := platform.Register(api); err != nil {
		return nil, err
	}
	news := newsletter.New(a.DB, limits)
	news.Mail, news.PublicURL = a.Mailer, cfg.PublicURL
	news.Register(api)
	contactForm := contact.New(a.DB, limits)
	contactForm.PublicURL = cfg.PublicURL
	contactForm.Notify, contactForm.NotifyTo = a.Mailer, cfg.ContactNotifyEmail
	contactForm.Register(api)
	content.Register(api, a.Content)
	// The studio's JSON API (docs/studio-api.md).
	studio.Register(api, studio.Options{Store: a.Content, Staff: a.Staff, Logger: log})
	a.Search.Register(api) // GET /api/v1/search: results as the visitor types
	a.Accounts.Register(api)
	a.Staff.Register(api) // /api/v1/staff/...: members, sessions, the audit log
	a.registerStudio(cfg.PublicURL, log, api, formPages)
	a.Billing.Register(api, server.BodyLimit)
	theme.Register(api, cfg.PublicURL, accounts.Vocabulary()) // POST /api/v1/theme: the theme buttons without JavaScript
	formPages.Handle(forms.Newsletter, news.Submit())
	formPages.Handle("contact", contactForm.Submit())
	for form, h := range a.Accounts.Forms() {
		formPages.Handle(form, h)
	}
	if err := formPages.Check(); err != nil {
		return nil, err
	}
	return a, nil
}

// layers wraps h in each layer, the first outermost; a nil layer is left out.
func layers(h http.Handler, outermostFirst ...func(http.Handler) http.Handler) http.Handler {
	for i := len(outermostFirst) - 1; i >= 0; i-- {
		if l := outermostFirst[i]; l != nil {
			h = l(h)
		}
	}
	return h
}

// when is layer if on, else nil (no layer). The layer is only named, not
// called, so a method value of a part that is off (nil) is fine.
func when(on bool, layer func(http.Handler) http.Handler) func(http.Handler) http.Handler {
	if !on {
		return nil
	}
	return layer
}

// unless is when(!off, layer).
func unless(off bool, layer func(http.Handler) http.Handler) func(http.Handler) http.Handler {
	return when(!off, layer)
}

// openStorage opens the database New uses: db when the caller hands one in
// (it stays open), else DATABASE_URL's or the SQLite file under DATA_DIR,
// migrated, pooled, and closed last by Close.
func (a *App) openStorage(db *storage.DB) error {
	cfg := a.Config
	if a.DB = db; a.DB != nil {
		return nil
	}
	// Production refuses a schema migrated by a newer edge; development
	// (a branch switched back) says so loudly and goes on.
	var err error
	if a.DB, err = storage.Open(cfg.DatabaseURL, cfg.DataDir, storage.AllowNewerSchema(cfg.Development()), storage.Direct(cfg.DatabaseDirectURL)); err != nil {
		return err
	}
	if s := a.DB.Schema; s.Newer() {
		a.Log.Warn("DATABASE MIGRATED BY A NEWER EDGE: allowed in development only", "schema", fmt.Sprintf("%04d %s", s.Version, s.Name), "edge_knows", fmt.Sprintf("%04d", s.Known))
	}
	opened := a.DB
	a.closers = append(a.closers, func() { opened.Close() }) // last: after the server and the renderer
	return a.DB.LimitPool(cfg.DBMaxOpenConns, cfg.DBPoolWait)
}

// startMetrics makes the registry and serves it on METRICS_ADDR (nothing
// when that is empty).
func (a *App) startMetrics(listen func(network, addr string) (net.Listener, error)) error {
	if a.Config.MetricsAddr == "" {
		return nil
	}
	a.Metrics = metrics.New(shared.Routes)
	mln, err := listen("tcp", a.Config.MetricsAddr)
	if err != nil {
		return fmt.Errorf("METRICS_ADDR: %w", err)
	}
	msrv := a.Metrics.NewServer()
	go msrv.Serve(mln)
	a.closers = append(a.closers, func() { msrv.Close() })
	a.MetricsURL = "http://" + mln.Addr().String() + "/metrics"
	a.Log.Info("metrics listening", "addr", mln.Addr().String())
	return nil
}

// startRenderer starts the renderer child (or names RENDERER_URL's), to be
// stopped by Close.
func (a *App) startRenderer(output io.Writer, freshPorts bool) error {
	cfg := a.Config
	var err error
	if cfg.RendererURL != "" {
		a.Renderer, err = renderer.External(cfg.RendererURL)
	} else {
		port := cfg.RendererPort
		metricsPort := 0 // the renderer's own metrics, scraped into ours
		if a.Metrics != nil {
			metricsPort = cfg.RendererMetricsPort
		}
		if freshPorts {
			// A port of its own, named: with 0 the supervisor's standby and
			// the proxy would have no port to reach after a swap.
			if port, err = freePort(); err != nil {
				return err
			}
			if metricsPort != 0 {
				if metricsPort, err = freePort(); err != nil {
					return err
				}
			}
		}
		a.Renderer, err = renderer.Start(renderer.Options{
			Dir: cfg.SSRDir, Port: port, PublicURL: cfg.PublicURL,
			Dev: cfg.RendererDev, Output: output, Logger: a.Log, MetricsPort: metricsPort,
		})
	}
	if err != nil {
		return err
	}
	rend := a.Renderer
	a.closers = append(a.closers, func() {
		ctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
		defer cancel()
		if err := rend.Stop(ctx); err != nil {
			a.Log.Warn("renderer stop", "err", err)
		}
	})
	return nil
}

// startCache makes the page cache, with its purges reaching the CDN in
// front and (on PostgreSQL) every other instance, and warms it when
// CACHE_WARM is on.
func (a *App) startCache(policies cache.Policies, secure *security.Policy, now func() time.Time) error {
	cfg := a.Config
	a.Cache = cache.New(cache.Options{MaxBytes: cfg.CacheMaxBytes, Policies: policies, RenderTimeout: cfg.RendererTimeout, Now: now, Logger: a.Log, Security: secure})
	a.Cache.SetCDN(cfg.CDNPurgeList(), nil) // purges begun here reach the CDN in front too
	fanCtx, stopFanout := context.WithCancel(context.Background())
	a.closers = append(a.closers, stopFanout)
	a.Cache.StartFanout(fanCtx, a.DB) // PostgreSQL: purges reach every instance
	if m := a.Metrics; m != nil {
		m.WatchCache(a.Cache.Stats)
		m.WatchWarming(a.Cache.WarmState)
		a.Cache.SetPurgeObserver(m.PurgeObserver())
		if _, ok := a.Cache.PurgeListenerUp(); ok {
			m.WatchPurgeListener(func() bool { up, _ := a.Cache.PurgeListenerUp(); return up })
		}
	}
	// Another edge's purge (a publish there) reloads the content pages
	// here before the pages go and are warmed again.
	// Its changed articles are read again for site search (ApplyPath).
	// One reload per purge, however many pages it names.
	a.Cache.OnPurge(func(ts []cache.Target) {
		if err := a.Content.Refresh(fanCtx); err != nil {
			a.Log.Warn("content: reloading the content pages", "err", err)
		}
		for _, t := range ts {
			if t.Path == "" {
				continue
			}
			if err := a.SearchIndex.ApplyPath(t.Path, search.Loader(fanCtx, a.Content)); err != nil {
				a.Log.Warn("search: reindexing a purged page", "path", t.Path, "err", err)
			}
		}
	})
	if cfg.CacheWarm {
		startWarming(fanCtx, a.Cache, policies, cfg.PublicURL, a.Renderer.Check, a.Content)
	}
	return nil
}

// startContent opens the content store: seeds it from the repository,
// loads its pages, and runs its scheduler until Close.
func (a *App) startContent() {
	// A content page names the preview card drawn for its words, once one is.
	a.Cards = ogcard.New(a.DB, ogcard.Options{Renderer: a.Renderer.URL, Logger: a.Log})
	a.Content = content.New(a.DB, content.Options{Logger: a.Log, Card: a.Cards.Lookup})
	schedCtx, stopScheduler := context.WithCancel(context.Background())
	schedDone := make(chan struct{})
	go func() { defer close(schedDone); a.Content.RunScheduler(schedCtx, "") }()
	a.closers = append(a.closers, func() { stopScheduler(); <-schedDone })
}

// loadContent imports the repository's files, loads the set of content
// pages and seeds site search from them. An edge that starts while the
// database is cut (a blip in a rollout) starts all the same, serving what
// its cache and the other parts can, and loads the content in the
// background as soon as the database answers again, as the assets'
// publishing does (decision 0024).
func (a *App) loadContent() {
	load := func(ctx context.Context) error {
		if err := a.Content.Seed(ctx); err != nil {
			return err
		}
		if err := a.Content.Refresh(ctx); err != nil {
			return err
		}
		return search.Seed(ctx, a.SearchIndex, a.Content)
	}
	err := load(context.Background())
	if err == nil {
		return
	}
	a.Log.Warn("content: the store could not be read at start; retrying in the background", "err", err)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	a.closers = append(a.closers, func() { stop(); <-done })
	go func() {
		defer close(done)
		for wait := 200 * time.Millisecond; ; wait = min(2*wait, 5*time.Second) {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			if err := load(ctx); err == nil {
				a.Log.Info("content: loaded after the database came back")
				return
			}
		}
	}()
}

// startAssets serves the client build under dir (default SSR_DIR/build/client).
func (a *App) startAssets(dir string) (*assets.Handler, error) {
	if dir == "" {
		dir = filepath.Join(a.Config.SSRDir, "build", "client")
	}
	files, err := assets.New(dir)
	if err != nil {
		return nil, err
	}
	// This build's hashed files go to the shared database, and the other
	// builds' live there: during a rolling update no page of either build
	// misses a file on any edge (decision 0024). A failure (the database
	// blipped) is retried in the background until done.
	pubCtx, stopPublishing := context.WithCancel(context.Background())
	a.closers = append(a.closers, stopPublishing)
	files.KeepPublishing(pubCtx, a.DB, a.Log)
	return files, nil
}

// watch has the metrics read the state of the parts that keep one.
func (a *App) watch(health *storage.Health, files *assets.Handler) {
	m, rend := a.Metrics, a.Renderer
	m.WatchRenderer(rend.Starts)
	m.WatchDatabase(health.Up)
	if files != nil {
		m.WatchAssetsPublished(files.Published)
	}
	m.WatchAnalytics(a.Analytics.Totals)
	if sqlDB, err := a.DB.DB.DB(); err == nil {
		m.WatchDB(sqlDB)
	}
	if u := rend.MetricsURL(); u != "" {
		m.ScrapeRenderer(u)
	} else if a.Config.RendererMetricsURL != "" {
		m.ScrapeRenderer(a.Config.RendererMetricsURL)
	}
}

// Serve answers requests until Shutdown; nil after a graceful shutdown.
func (a *App) Serve() error { return a.Server.Serve(a.ln) }

// Shutdown stops accepting connections and drains in-flight requests (page
// streams included) until ctx ends; the renderer and database stay up
// until Close.
func (a *App) Shutdown(ctx context.Context) error { return a.Server.Shutdown(ctx) }

// Close stops what New started, in reverse order: the renderer, the cache's
// fan-out, the listener, the database it opened.
func (a *App) Close() {
	for i := len(a.closers) - 1; i >= 0; i-- {
		a.closers[i]()
	}
	a.closers = nil
}

// Run serves until ctx ends (SIGTERM), then drains for SHUTDOWN_TIMEOUT and
// closes everything. It logs when the renderer is ready.
func (a *App) Run(ctx context.Context) error {
	defer a.Close()
	if a.acceptWhenReady {
		wctx, cancel := context.WithTimeout(ctx, a.Config.RendererStartTimeout)
		err := a.Renderer.WaitReady(wctx)
		cancel()
		if err != nil {
			return fmt.Errorf("renderer not ready, not accepting on the shared socket: %w", err)
		}
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- a.Serve() }()
	a.Log.Info("edge listening", "addr", a.ln.Addr().String(), "renderer", a.Renderer.URL().String(), "public_url", a.Config.PublicURL)
	go func() {
		wctx, cancel := context.WithTimeout(ctx, a.Config.RendererStartTimeout)
		defer cancel()
		if err := a.Renderer.WaitReady(wctx); err != nil {
			if ctx.Err() == nil {
				a.Log.Error("renderer not ready; pages answer 503 until it is", "err", err)
			}
			return
		}
		a.Log.Info("renderer ready", "url", a.Renderer.URL().String())
	}()

	select {
	case err := <-serveErr:
		return err
	case <-ctx.Done():
	}
	// Drain: unready at once (/readyz 503) while still serving every
	// request, each answer closing its keep-alive connection, for
	// DRAIN_PERIOD, the time the load balancer takes to stop sending here.
	a.Server.Drain()
	drain := a.Config.DrainPeriod
	if a.takenOver.Load() {
		drain = 0 // the edge that took the socket over accepts on it already
	}
	a.Log.Info("draining: unready, still serving", "drain_period", drain.String())
	select {
	case err := <-serveErr:
		return err
	case <-time.After(drain):
	}
	a.Log.Info("shutting down: finishing in-flight requests", "timeout", a.Config.ShutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), a.Config.ShutdownTimeout)
	defer cancel()
	// No waiting for "no request in flight" with the listener open: with
	// clients that keep coming there never is one, and the wait used to
	// run into the timeout, which then cut every request in flight
	// (decision 0056). Shutdown stops accepting first, then lets each
	// accepted request finish.
	if err := a.Shutdown(sctx); err != nil {
		a.Log.Warn("drain incomplete; remaining connections closed", "err", err)
	}
	if err := <-serveErr; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// freePort is a loopback port nobody listens on right now.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// loopbackAddr is the loopback address of this listener (App.URL):
// 127.0.0.1 with its port, whatever interface it is bound to.
func loopbackAddr(a net.Addr) string {
	_, port, err := net.SplitHostPort(a.String())
	if err != nil {
		panic(fmt.Sprintf("listener address %q: %v", a, err))
	}
	return net.JoinHostPort("127.0.0.1", port)
}

// manifestVersion is the client build's React Router version, from its
// assets/manifest-<version>.js, or "" when there is not exactly one.
func manifestVersion(assetsDir, ssrDir string) string {
	if assetsDir == "" {
		assetsDir = filepath.Join(ssrDir, "build", "client")
	}
	m, _ := filepath.Glob(filepath.Join(assetsDir, "assets", "manifest-*.js"))
	if len(m) != 1 {
		return ""
	}
	return strings.TrimSuffix(strings.TrimPrefix(filepath.Base(m[0]), "manifest-"), ".js")
}

// paymentProvider is Stripe, the test-mode page, or nil (payments off, said
// loudly: an edge without a provider cannot take money).
func paymentProvider(cfg config.Config, log *slog.Logger) billing.Provider {
	switch cfg.PaymentMode() {
	case config.PaymentsStripe:
		return stripepay.New(cfg.StripeSecretKey, cfg.StripeWebhookSecret, cfg.StripeAPIURL)
	case config.PaymentsTestMode:
		log.Warn("PAYMENTS IN TEST MODE: the labelled test-mode payment page stands in for the provider; no money moves", "public_url", cfg.PublicURL)
		return &billing.TestMode{PublicURL: cfg.PublicURL}
	}
	log.Error("PAYMENTS ARE OFF: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (or PAYMENTS_TEST_MODE=1 for the test-mode page); the licence payment pages answer 503")
	return nil
}

// startWarming warms the page cache with every cacheable page: the route
// table's, and the articles and help topics the sitemap lists.
func startWarming(ctx context.Context, c *cache.Cache, policies cache.Policies, publicURL string, ready func(context.Context) error, store *content.Store) {
	paths := func() []string { return policies.CacheablePaths(store.PagePaths()) }
	c.StartWarming(ctx, cache.WarmOptions{PathsFunc: paths, Origin: publicURL, Ready: ready})
}

// contentChanged follows a committed change of the content store: the
// content pages are reloaded here, and a change visitors see purges the
// pages it alters on every edge (PostgreSQL's fan-out; they reload theirs
// through OnPurge) and in the CDN, and each edge's warmer renders them
// again. Once the site is warm the change's answer (a publish, say) waits
// for every live edge to acknowledge it warmed, up to PUBLISH_WAIT, so the
// first visitor after it gets the new page as a hit on any edge. Before the
// first warm-up (an edge starting, seeding) nobody waits.
func (a *App) contentChanged(ctx context.Context, ch content.Change) {
	if err := a.Content.Refresh(context.WithoutCancel(ctx)); err != nil {
		a.Log.Warn("content: reloading the content pages", "err", err)
	}
	if !ch.Live {
		return
	}
	a.drawCard(ctx, ch)
	if a.Cache == nil {
		return
	}
	targets := make([]cache.Target, 0, len(ch.Paths)+1)
	for _, p := range ch.Paths {
		targets = append(targets, cache.Target{Path: p})
	}
	if ch.Type == content.TypeHelpCategory {
		// Every help article shows its category's title.
		targets = append(targets, cache.Target{Prefix: "/help/category/"})
	}
	if len(targets) == 0 {
		return
	}
	purge := func(ctx context.Context) {
		ack, err := a.Cache.PurgeTargets(ctx, targets...)
		if err != nil {
			a.Log.Warn("content: purge after a change", "slug", ch.Slug, "edges", len(ack.Edges), "err", err)
			return
		}
		a.Log.Info("content: change live on every edge", "slug", ch.Slug, "edges", len(ack.Edges), "ms", time.Since(ack.Sent).Milliseconds())
	}
	if a.Cache.WarmUps() == 0 {
		go purge(context.Background())
		return
	}
	if a.Config.PublishWait <= 0 {
		go purge(context.Background())
		return
	}
	wait, cancel := context.WithTimeout(context.WithoutCancel(ctx), a.Config.PublishWait)
	defer cancel()
	purge(wait)
}

// cardWait bounds how long a publish waits for its article's preview card
// to be drawn (decision 0066): past it, the pages are purged and warmed with
// the card they had, and the card's drawing, once done, purges its page
// again.
const cardWait = 2 * time.Second

// drawCard has the preview card of a published article or help topic drawn
// and stored (internal/ogcard) before its pages are purged and warmed, so
// the page warmed names the card of its new words.
func (a *App) drawCard(ctx context.Context, ch content.Change) {
	path := content.PagePath(ch.Type, ch.Slug)
	if ch.State != content.StatePublished || path == "" {
		return
	}
	pc, err := a.Content.PageContentFor(context.WithoutCancel(ctx), path)
	if err != nil || pc == nil {
		return
	}
	t, ok := pc.CardText(path)
	if !ok {
		return
	}
	wait, cancel := context.WithTimeout(context.WithoutCancel(ctx), cardWait)
	defer cancel()
	_, err = a.Cards.Ensure(wait, t)
	if !errors.Is(err, context.DeadlineExceeded) || a.Cache == nil {
		return // drawn (or failed: logged once, the page keeps its card)
	}
	go func() {
		later, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := a.Cards.Ensure(later, t); err != nil {
			return
		}
		if _, err := a.Cache.PurgeTargets(later, cache.Target{Path: path}); err != nil {
			a.Log.Warn("ogcard: purge after a late card", "path", path, "err", err)
		}
	}()
}

// campaignLinks are the store's short links as the counting knows them.
func campaignLinks(cl []content.CampaignLink) []analytics.Link {
	out := make([]analytics.Link, len(cl))
	for i, l := range cl {
		out[i].Name, out[i].Target = l.Name, l.Target
		out[i].UTM.Source, out[i].UTM.Medium, out[i].UTM.Campaign = l.Source, l.Medium, l.Campaign
	}
	return out
}

// searchChanged brings site search in line with a committed change of
// the content store on this edge (search.Index.Apply). Only a change of
// what visitors see: a saved draft, or a scheduled revision of a live
// article, leaves the live article (and its entry) as it is.
func (a *App) searchChanged(ctx context.Context, ch content.Change) {
	if !ch.Live {
		return
	}
	sc := search.Change{Type: ch.Type, Slug: ch.Slug, OldSlug: ch.OldSlug, State: ch.State}
	if err := a.SearchIndex.Apply(sc, search.Loader(context.WithoutCancel(ctx), a.Content)); err != nil {
		a.Log.Warn("search: reindexing a changed item", "type", ch.Type, "slug", ch.Slug, "err", err)
	}
}

// HandOver says another edge has taken over the listening socket (the
// same-host restart, cmd/edge): when Run's context ends, this edge stops
// accepting at once, without DRAIN_PERIOD, leaving the socket's queue to
// its successor, and finishes the requests it accepted.
func (a *App) HandOver() {
	a.takenOver.Store(true)
	a.Server.SetSharedSocket(true)
}
