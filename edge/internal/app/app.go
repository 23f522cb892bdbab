// Package app builds the whole edge from a configuration: the one wiring
// that `cmd/edge` runs in production and `internal/edgetest` runs in the
// integration tests, so the tests exercise the graph that serves visitors
// (page cache and accounts included).
//
// Order, top to bottom:
//
//	storage → listener → metrics → renderer → page proxy → page cache
//	→ accounts → static files → forms posted to their page → server
//	(health, seo, API features)
//	→ serve → drain
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
	"time"

	"github.com/labstack/echo/v4"

	"omnibus/edge/internal/accounts"
	"omnibus/edge/internal/analytics"
	"omnibus/edge/internal/assets"
	"omnibus/edge/internal/billing"
	"omnibus/edge/internal/billing/stripepay"
	"omnibus/edge/internal/cache"
	"omnibus/edge/internal/config"
	"omnibus/edge/internal/contact"
	"omnibus/edge/internal/content"
	"omnibus/edge/internal/forms"
	"omnibus/edge/internal/http/origin"
	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/metrics"
	"omnibus/edge/internal/newsletter"
	"omnibus/edge/internal/platform"
	"omnibus/edge/internal/proxy"
	"omnibus/edge/internal/ratelimit"
	"omnibus/edge/internal/renderer"
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
	// Analytics counts page views, answers /go/ links and the staff page.
	Analytics *analytics.Tracker
	// Content is the content store: articles, help, policies, campaign
	// links and redirects, edited in the studio (/api/v1/staff).
	Content *content.Store
	// Staff is the studio's access: roles, studio sessions, second
	// factors, the audit log (internal/staff, internal/audit).
	Staff *staff.Service

	ln      net.Listener
	closers []func() // run in reverse order by Close
}

// New builds the edge. On error everything it had started is stopped again.
func New(cfg config.Config, deps Deps) (_ *App, err error) {
	log := deps.Logger
	if log == nil {
		log = slog.Default()
	}
	a := &App{Config: cfg, Log: log}
	// The rate limits' ceiling and IPv6 network, before any limiter is made.
	ratelimit.MaxKeys, ratelimit.IPv6Prefix = cfg.RateLimitMaxKeys, cfg.RateLimitIPv6Prefix
	defer func() {
		if err != nil {
			a.Close()
		}
	}()

	// 1. Storage: SQLite under DATA_DIR, or PostgreSQL at DATABASE_URL;
	// migrations run here.
	a.DB = deps.DB
	if a.DB == nil {
		// Production refuses a schema migrated by a newer edge; development
		// (a branch switched back) says so loudly and goes on.
		if a.DB, err = storage.Open(cfg.DatabaseURL, cfg.DataDir, storage.AllowNewerSchema(cfg.Development()), storage.Direct(cfg.DatabaseDirectURL)); err != nil {
			return nil, err
		}
		if s := a.DB.Schema; s.Newer() {
			log.Warn("DATABASE MIGRATED BY A NEWER EDGE: allowed in development only", "schema", fmt.Sprintf("%04d %s", s.Version, s.Name), "edge_knows", fmt.Sprintf("%04d", s.Known))
		}
		db := a.DB
		a.closers = append(a.closers, func() { db.Close() }) // last: after the server and the renderer
		if err = a.DB.LimitPool(cfg.DBMaxOpenConns, cfg.DBPoolWait); err != nil {
			return nil, err
		}
	}

	// The content store: the repository's files imported on first start
	// (and a changed file as a new revision), the set of content pages
	// loaded, and the scheduler that publishes what is due (one edge at a
	// time, by a lease in the database).
	a.Content = content.New(a.DB, content.Options{Logger: log})
	if err = a.Content.Seed(context.Background()); err != nil {
		return nil, err
	}
	if err = a.Content.Refresh(context.Background()); err != nil {
		return nil, err
	}
	schedCtx, stopScheduler := context.WithCancel(context.Background())
	schedDone := make(chan struct{})
	go func() { defer close(schedDone); a.Content.RunScheduler(schedCtx, "") }()
	a.closers = append(a.closers, func() { stopScheduler(); <-schedDone })

	// 2. The public listener.
	a.ln = deps.Listener
	if a.ln == nil {
		if a.ln, err = net.Listen("tcp", cfg.Addr); err != nil {
			return nil, err
		}
	}
	ln := a.ln
	a.closers = append(a.closers, func() { ln.Close() })
	a.URL = "http://" + loopbackAddr(a.ln.Addr())

	// Metrics (METRICS_ADDR): a registry the parts below feed, served on a
	// listener of its own, never on the public one (internal/metrics).
	rendererMetricsPort := 0
	if cfg.MetricsAddr != "" {
		a.Metrics = metrics.New(shared.Routes)
		mln, err := net.Listen("tcp", cfg.MetricsAddr)
		if err != nil {
			return nil, fmt.Errorf("METRICS_ADDR: %w", err)
		}
		msrv := a.Metrics.NewServer()
		go msrv.Serve(mln)
		a.closers = append(a.closers, func() { msrv.Close() })
		a.MetricsURL = "http://" + mln.Addr().String() + "/metrics"
		log.Info("metrics listening", "addr", mln.Addr().String())
		rendererMetricsPort = cfg.RendererMetricsPort
	}

	// 3. The renderer: a supervised child on loopback, or RENDERER_URL.
	if cfg.RendererURL != "" {
		a.Renderer, err = renderer.External(cfg.RendererURL)
	} else {
		a.Renderer, err = renderer.Start(renderer.Options{
			Dir: cfg.SSRDir, Port: cfg.RendererPort, PublicURL: cfg.PublicURL,
			Dev: cfg.RendererDev, Output: deps.RendererOutput, Logger: log, MetricsPort: rendererMetricsPort,
		})
	}
	if err != nil {
		return nil, err
	}
	rend := a.Renderer
	a.closers = append(a.closers, func() {
		ctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
		defer cancel()
		if err := rend.Stop(ctx); err != nil {
			log.Warn("renderer stop", "err", err)
		}
	})

	// The security headers of every answer, and the CSP of stored pages.
	secure, err := security.New(security.Options{
		PublicURL: cfg.PublicURL, GoogleClientID: cfg.GoogleClientID, GoogleIssuerURL: cfg.GoogleIssuerURL,
		MerchantAppURL: cfg.MerchantAppURL, Dev: cfg.RendererDev,
	})
	if err != nil {
		return nil, err
	}

	// 4. Pages: everything that is not API, health or a static file, through
	// the page cache (off in dev mode, where pages change with every edit,
	// and with CACHE_MAX_BYTES=0).
	// Content pages get what they show from the store on the page request
	// (content.PageData), rendered behind the cache; a preview link renders
	// the draft through the proxy alone (never stored).
	render := http.Handler(proxy.New(proxy.Options{Upstream: rend.URL, Timeout: cfg.RendererTimeout, Logger: log}))
	var pages http.Handler = a.Content.PageData(render)
	policies := cache.NewPolicies(shared.Routes)
	// The articles and help topics that are published: any other slug is
	// the one shared not-found page, not a render of its own.
	policies = policies.WithPageSet(a.Content.IsPage)
	if v := manifestVersion(deps.AssetsDir, cfg.SSRDir); v != "" {
		policies = policies.WithManifestVersion(v)
	}
	if a.Metrics != nil {
		pages = a.Metrics.Renders(pages)
	}
	if cfg.CacheMaxBytes > 0 && !cfg.RendererDev {
		a.Cache = cache.New(cache.Options{MaxBytes: cfg.CacheMaxBytes, Policies: policies, RenderTimeout: cfg.RendererTimeout, Now: deps.Now, Logger: log, Security: secure})
		a.Cache.SetCDN(cfg.CDNPurgeList(), nil) // purges begun here reach the CDN in front too
		fanCtx, stopFanout := context.WithCancel(context.Background())
		a.closers = append(a.closers, stopFanout)
		a.Cache.StartFanout(fanCtx, a.DB) // PostgreSQL: purges reach every instance
		pages = a.Cache.Wrap(pages)
		if a.Metrics != nil {
			pages = a.Metrics.PageCache(pages)
			a.Metrics.WatchCache(a.Cache.Stats)
			a.Metrics.WatchWarming(a.Cache.WarmState)
			if _, ok := a.Cache.PurgeListenerUp(); ok {
				a.Metrics.WatchPurgeListener(func() bool { up, _ := a.Cache.PurgeListenerUp(); return up })
			}
		}
		if cfg.CacheWarm {
			startWarming(fanCtx, a.Cache, policies, cfg.PublicURL, rend.Check, a.Content)
		}
		// Another edge's purge (a publish there) reloads the content pages
		// here before the pages go and are warmed again.
		a.Cache.OnPurge(func(cache.Target) {
			if err := a.Content.Refresh(fanCtx); err != nil {
				log.Warn("content: reloading the content pages", "err", err)
			}
		})
	}
	a.Content.Subscribe(a.contentChanged)
	// An unpublished item's page answers 410 Gone.
	pages = a.Content.Gone(pages)

	// 5. Accounts: sessions, sign-in (password, Google), password reset
	// mail. Its page middleware runs first: the redirect rules for /login
	// and /register and the end of the no-JS Google flow at /sso-redirect
	// answer before the cache or the renderer see the request.
	if a.Mailer, err = mail.New(cfg.SMTPURL, cfg.MailFrom, a.DB); err != nil {
		return nil, err
	}
	a.Accounts = accounts.New(a.DB, a.Mailer, accounts.Options{
		PublicURL: cfg.PublicURL, MerchantAppURL: cfg.MerchantAppURL, SessionTTL: cfg.SessionTTL,
		GoogleClientID: cfg.GoogleClientID, GoogleClientSecret: cfg.GoogleClientSecret, GoogleIssuerURL: cfg.GoogleIssuerURL,
	})
	a.Accounts.Hashing.Hooks = metrics.HashQueue // omnibus_password_hash_* series
	// Billing: licence orders, the payment provider, the onboarding status.
	// Inside the session middleware it hands a signed-in merchant's journey
	// pages their data (PageData: the renderer never calls the edge);
	// outside it /landing-page goes to MERCHANT_APP_URL when that is
	// another origin.
	provider := paymentProvider
	if deps.Payments != nil {
		provider = func(cfg config.Config, _ *slog.Logger) billing.Provider { return deps.Payments(cfg.PublicURL) }
	}
	a.Billing = billing.New(a.DB, a.Accounts, billing.Options{
		PublicURL: cfg.PublicURL, Provider: provider(cfg, log),
		AdminConsoleURL: cfg.AdminConsoleURL, MerchantAppURL: cfg.MerchantAppURL,
	})
	pages = a.Billing.PageData(pages)
	pages = a.Accounts.Pages(pages)
	pages = a.Billing.Pages(pages)
	// Every form of a page's address (path spellings, junk queries) reaches
	// the session middleware, the cache and the renderer as one. Not in dev
	// mode, where Vite's module URLs and their queries pass through here.
	if !cfg.RendererDev {
		pages = policies.Canonical(pages)
	}
	// The redirects of the content store (301, 302, 410), before the cache.
	pages = a.Content.Redirects(pages)
	// Visit counts, campaign short links (/go/…) and the staff page
	// (internal/analytics): outermost, to read the utm tags before
	// Canonical drops them; one hook, counting once the answer is out.
	// The studio's access (internal/staff): a studio session, opened only
	// by a passkey (or an allowed TOTP code) after a merchant sign-in, and
	// a role; the staff page needs the viewer role.
	a.Staff = staff.New(a.DB, staff.Options{
		PublicURL: cfg.PublicURL, SessionTTL: cfg.StaffSessionTTL, RecheckWindow: cfg.StaffRecheckWindow,
		EnrolWindow: cfg.StaffEnrolWindow, Account: a.Accounts.SignedIn, Mail: a.Mailer, Logger: log,
	})
	if a.Analytics, err = analytics.New(analytics.Options{
		DB: a.DB, Routes: shared.Routes, LinksJSON: shared.CampaignLinksJSON, BotsJSON: shared.BotsJSON,
		PublicURL: cfg.PublicURL, StaffAccess: a.Staff.PageAccess(staff.Viewer), Logger: log,
	}); err != nil {
		return nil, err
	}
	a.Analytics.Start()
	a.closers = append(a.closers, a.Analytics.Close) // before the database closes
	// The studio's pages (/staff) get their data on the page request.
	pages = studiopages.Wrap(a.studioOptions(staff.Viewer, log), pages)
	pages = a.Analytics.Pages(pages)
	// Preview links: outside the counting and the cache.
	pages = a.Content.PreviewPages(pages, render)

	// 6. Static files of the client build (not in dev mode: Vite serves them
	// through the renderer).
	var files *assets.Handler
	if !deps.NoAssets && !cfg.RendererDev {
		dir := deps.AssetsDir
		if dir == "" {
			dir = filepath.Join(cfg.SSRDir, "build", "client")
		}
		if files, err = assets.New(dir); err != nil {
			return nil, err
		}
		// This build's hashed files go to the shared database, and the
		// other builds' live there: during a rolling update no page of
		// either build misses a file on any edge (decision 0024). A failure
		// (the database blipped) is retried in the background until done.
		pubCtx, stopPublishing := context.WithCancel(context.Background())
		a.closers = append(a.closers, stopPublishing)
		files.KeepPublishing(pubCtx, a.DB, log)
	}

	// Forms posted to their own page without JavaScript (shared/routes.json's
	// form and layoutForm): the API's handlers take them, behind the API's
	// body limit, and a refusal is answered with the page itself, rendered
	// through the page handler.
	formPages, err := forms.New(shared.Routes, server.BodyLimit(server.DefaultAPIBodyLimit), func() http.Handler { return a.Server.Pages() })
	if err != nil {
		return nil, err
	}

	// 7. The server and its routes.
	db := a.DB
	// The database's state, kept by one background pinger: neither the
	// readiness probe nor a scrape ever waits on the database.
	healthCtx, stopHealth := context.WithCancel(context.Background())
	a.closers = append(a.closers, stopHealth)
	health := db.WatchHealth(healthCtx, log)
	a.Server = server.New(server.Options{
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
	// One origin: any other host's request goes to PUBLIC_URL's (internal/http/origin).
	a.Server.Use(origin.Redirect(cfg.PublicURL))
	if m := a.Metrics; m != nil {
		a.Server.Use(m.Middleware())
		m.WatchRenderer(rend.Starts)
		m.WatchDatabase(health.Up)
		if files != nil {
			m.WatchAssetsPublished(files.Published)
		}
		m.WatchAnalytics(a.Analytics.Totals)
		if sqlDB, err := db.DB.DB(); err == nil {
			m.WatchDB(sqlDB)
		}
		if u := rend.MetricsURL(); u != "" {
			m.ScrapeRenderer(u)
		} else if cfg.RendererMetricsURL != "" {
			m.ScrapeRenderer(cfg.RendererMetricsURL)
		}
	}
	if a.Cache != nil {
		a.Cache.Register(a.Server.Routes, cfg.CachePurgeToken) // POST /api/v1/admin/cache/purge
	}
	if err := seo.Register(a.Server.Routes, cfg.PublicURL, a.Content); err != nil {
		return nil, err
	}
	api := a.Server.API
	if err := platform.Register(api); err != nil {
		return nil, err
	}
	news := newsletter.New(a.DB)
	news.Mail, news.PublicURL = a.Mailer, cfg.PublicURL
	news.Register(api)
	contactForm := contact.New(a.DB)
	contactForm.PublicURL = cfg.PublicURL
	contactForm.Notify, contactForm.NotifyTo = a.Mailer, cfg.ContactNotifyEmail
	contactForm.Register(api)
	content.Register(api, a.Content)
	// The studio's JSON API (docs/studio-api.md).
	studio.Register(api, studio.Options{Store: a.Content, Staff: a.Staff, Logger: log})
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
	a.Log.Info("draining: unready, still serving", "drain_period", a.Config.DrainPeriod.String())
	select {
	case err := <-serveErr:
		return err
	case <-time.After(a.Config.DrainPeriod):
	}
	a.Log.Info("shutting down: finishing in-flight requests", "timeout", a.Config.ShutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), a.Config.ShutdownTimeout)
	defer cancel()
	// The listener stays open until nothing is in flight: a page being
	// rendered may call this edge back.
	_ = a.Server.Idle(sctx)
	if err := a.Shutdown(sctx); err != nil {
		a.Log.Warn("drain incomplete; remaining connections closed", "err", err)
	}
	if err := <-serveErr; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
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
// through OnPurge) and in the CDN, and the warmer renders them again, so
// the first visitor gets a hit.
func (a *App) contentChanged(ctx context.Context, ch content.Change) {
	if err := a.Content.Refresh(context.WithoutCancel(ctx)); err != nil {
		a.Log.Warn("content: reloading the content pages", "err", err)
	}
	if !ch.Live || a.Cache == nil {
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
	go func() {
		for _, t := range targets {
			if _, err := a.Cache.Purge(t); err != nil {
				a.Log.Warn("content: purge after a change", "target", t.String(), "err", err)
			}
		}
	}()
}
