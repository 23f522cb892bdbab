// Command edge is the Omnibus site's only public listener: it serves the
// JSON API and the client build's assets itself and streams every page from
// the Node renderer, which it runs as a child process (or reaches at
// RENDERER_URL).
//
// The wiring below is the whole application, top to bottom:
// config → storage → listener → renderer → page handler → server → API
// features → serve → graceful shutdown.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"omnibus/edge/internal/accounts"
	"omnibus/edge/internal/assets"
	"omnibus/edge/internal/billing"
	"omnibus/edge/internal/billing/stripepay"
	"omnibus/edge/internal/cache"
	"omnibus/edge/internal/config"
	"omnibus/edge/internal/contact"
	"omnibus/edge/internal/content"
	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/newsletter"
	"omnibus/edge/internal/platform"
	"omnibus/edge/internal/proxy"
	"omnibus/edge/internal/renderer"
	"omnibus/edge/internal/seo"
	"omnibus/edge/internal/server"
	"omnibus/edge/internal/storage"
	"omnibus/shared"
)

func main() {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	slog.SetDefault(log)
	if len(os.Args) > 1 && os.Args[1] == "purge" { // edge purge --path /x | --prefix /blog | --all
		cfg := config.Load()
		os.Exit(cache.RunPurgeCommand(os.Args[2:], cfg.Addr, cfg.CachePurgeToken, os.Stdout, os.Stderr))
	}
	if err := run(log); err != nil {
		log.Error("edge stopped", "err", err)
		os.Exit(1)
	}
}

func run(log *slog.Logger) error {
	// 1. Configuration (every variable: internal/config).
	cfg := config.Load()
	if err := cfg.Validate(); err != nil {
		return err
	}

	// 2. Storage: SQLite under DATA_DIR, or PostgreSQL at DATABASE_URL;
	// migrations run here.
	db, err := storage.Open(cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return err
	}
	defer db.Close() // last: after the server and the renderer have stopped

	// 3. The listener first, so the renderer can be told the edge's port
	// (its loaders fetch /api from it).
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	edgeOrigin := "http://" + loopbackAddr(ln.Addr())

	// 4. The renderer: a supervised child on loopback, or RENDERER_URL.
	var rend *renderer.Supervisor
	if cfg.RendererURL != "" {
		rend, err = renderer.External(cfg.RendererURL)
	} else {
		rend, err = renderer.Start(renderer.Options{
			Dir:       cfg.SSRDir,
			Port:      cfg.RendererPort,
			APIURL:    edgeOrigin,
			PublicURL: cfg.PublicURL,
			Dev:       cfg.RendererDev,
			Logger:    log,
		})
	}
	if err != nil {
		ln.Close()
		return err
	}
	defer stopRenderer(rend, cfg, log) // after the server has drained

	// 5. Pages: everything that is not API, health or a static file.
	var pages http.Handler = proxy.New(proxy.Options{Target: rend.URL(), Timeout: cfg.RendererTimeout, Logger: log})
	// The page cache in front of it (off in dev mode, where pages change
	// with every edit, and with CACHE_MAX_BYTES=0).
	var pageCache *cache.Cache
	if cfg.CacheMaxBytes > 0 && !cfg.RendererDev {
		policies, err := cache.ParsePolicies(shared.RoutesJSON)
		if err != nil {
			ln.Close()
			return err
		}
		pageCache = cache.New(cache.Options{MaxBytes: cfg.CacheMaxBytes, Policies: policies, RenderTimeout: cfg.RendererTimeout, Logger: log})
		fanCtx, stopFanout := context.WithCancel(context.Background())
		defer stopFanout()
		if err := pageCache.StartFanout(fanCtx, db); err != nil { // PostgreSQL: purges reach every instance
			ln.Close()
			return fmt.Errorf("cache purge fan-out: %w", err)
		}
		pages = pageCache.Wrap(pages)
	}

	// Accounts: sessions, sign-in (password, Google), password reset mail.
	// Its page middleware runs first: the redirect rules for /login and
	// /register and the end of the no-JS Google flow at /sso-redirect answer
	// before the cache or the renderer see the request.
	mailer, err := mail.New(cfg.SMTPURL, cfg.MailFrom, db)
	if err != nil {
		ln.Close()
		return err
	}
	accts := accounts.New(db, mailer, accounts.Options{
		PublicURL: cfg.PublicURL, MerchantAppURL: cfg.MerchantAppURL, SessionTTL: cfg.SessionTTL,
		GoogleClientID: cfg.GoogleClientID, GoogleClientSecret: cfg.GoogleClientSecret, GoogleIssuerURL: cfg.GoogleIssuerURL,
	})
	pages = accts.Pages(pages)
	// Billing: licence orders, the payment provider, the onboarding status.
	bill := billing.New(db, accts, billing.Options{
		PublicURL: cfg.PublicURL, Provider: paymentProvider(cfg, log),
		AdminConsoleURL: cfg.AdminConsoleURL, MerchantAppURL: cfg.MerchantAppURL,
	})
	pages = bill.Pages(pages)

	// 6. Static files of the client build (not in dev mode: Vite serves them
	// through the renderer).
	var files *assets.Handler
	if !cfg.RendererDev {
		if files, err = assets.New(filepath.Join(cfg.SSRDir, "build", "client")); err != nil {
			ln.Close()
			return err
		}
	}

	// 7. The server and its routes.
	srv := server.New(server.Options{
		Pages:  pages,
		Assets: files,
		Checks: map[string]server.Check{
			"database": func(ctx context.Context) error { return db.WithContext(ctx).Exec("SELECT 1").Error },
			"renderer": rend.Check,
		},
		Logger: log,
	})
	if pageCache != nil {
		pageCache.Register(srv.Echo, cfg.CachePurgeToken) // POST /api/v1/admin/cache/purge
	}
	if err := seo.Register(srv.Echo, cfg.PublicURL); err != nil {
		return err
	}
	api := srv.API
	if err := platform.Register(api); err != nil {
		return err
	}
	newsletter.New(db).Register(api)
	contactForm := contact.New(db)
	contactForm.Notify, contactForm.NotifyTo = mailer, cfg.ContactNotifyEmail
	contactForm.Register(api)
	if err := content.Register(api); err != nil {
		return err
	}
	accts.Register(api)
	bill.Register(api, server.BodyLimit)

	// 8. Serve until SIGTERM/SIGINT, then drain.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	log.Info("edge listening", "addr", ln.Addr().String(), "renderer", rend.URL().String(), "public_url", cfg.PublicURL)
	go func() {
		wctx, cancel := context.WithTimeout(ctx, cfg.RendererStartTimeout)
		defer cancel()
		if err := rend.WaitReady(wctx); err != nil {
			log.Error("renderer not ready; pages answer 503 until it is", "err", err)
			return
		}
		log.Info("renderer ready", "url", rend.URL().String())
	}()

	select {
	case err := <-serveErr:
		return err
	case <-ctx.Done():
	}
	stop() // a second signal now kills the process the default way
	log.Info("shutting down: draining in-flight requests", "timeout", cfg.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Warn("drain incomplete; remaining connections closed", "err", err)
	}
	if err := <-serveErr; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func stopRenderer(rend *renderer.Supervisor, cfg config.Config, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := rend.Stop(ctx); err != nil {
		log.Warn("renderer stop", "err", err)
	}
}

// loopbackAddr is the address the renderer uses to reach this listener:
// 127.0.0.1 with its port, whatever interface it is bound to.
func loopbackAddr(a net.Addr) string {
	_, port, err := net.SplitHostPort(a.String())
	if err != nil {
		panic(fmt.Sprintf("listener address %q: %v", a, err))
	}
	return net.JoinHostPort("127.0.0.1", port)
}

// paymentProvider is Stripe, the test-mode page, or nil (payments off, said
// loudly: a production edge without a provider cannot take money).
func paymentProvider(cfg config.Config, log *slog.Logger) billing.Provider {
	switch cfg.PaymentMode() {
	case config.PaymentsStripe:
		return stripepay.New(cfg.StripeSecretKey, cfg.StripeWebhookSecret, cfg.StripeAPIURL)
	case config.PaymentsTestMode:
		log.Warn("PAYMENTS IN TEST MODE: the labelled test-mode payment page stands in for the provider; no money moves", "public_url", cfg.PublicURL)
		return &billing.TestMode{PublicURL: cfg.PublicURL}
	}
	log.Error("PAYMENTS ARE OFF: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (or PAYMENTS_TEST_MODE=1 for the test-mode page); licence payment endpoints answer 503")
	return nil
}
