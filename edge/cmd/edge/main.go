// Command edge is the Omnibus site's only public listener: it serves the
// JSON API and the client build's assets itself and streams every page from
// the Node renderer, which it runs as a child process (or reaches at
// RENDERER_URL).
//
// The whole application is built by internal/app (the same wiring the
// integration tests run); main reads the configuration, makes the logger and
// runs it until SIGTERM.
//
//	edge                                 serve (every setting from the environment)
//	edge purge --path /x | --prefix /p | --all   purge the page cache of a running edge
//	edge mail [-n N] [-to ADDRESS]       print the development mail outbox (no SMTP_URL)
//	edge healthcheck [--ready]           probe a running edge's /healthz (/readyz): exit 0 or 1
//	edge migrate                         migrate the database, print what was applied, exit
//	edge config                          check the environment as serving would, print it (exit 0, or 2)
//	edge staff grant EMAIL --role R | revoke EMAIL | list  staff roles (the first admin only here)
//	edge sleep DURATION                  wait, then exit 0 (the Kubernetes preStop hook: the image has no shell)
//
// The edge serves in production unless OMNIBUS_ENV=development; production
// refuses development stand-ins and placeholder secrets (internal/config).
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"omnibus/edge/internal/app"
	"omnibus/edge/internal/cache"
	"omnibus/edge/internal/config"
	"omnibus/edge/internal/healthcheck"
	"omnibus/edge/internal/logging"
	"omnibus/edge/internal/mail"
	"omnibus/edge/internal/migrate"
	"omnibus/edge/internal/staff"
	"omnibus/edge/internal/storage"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] != "config" {
		os.Exit(command(os.Args[1], os.Args[2:]))
	}
	cfg, err := config.Load()
	if err != nil {
		fmt.Fprintf(os.Stderr, "edge: %v\n", err)
		os.Exit(2)
	}
	if len(os.Args) > 1 { // edge config: check the environment as serving would, print it
		slog.New(slog.NewTextHandler(os.Stdout, nil)).Info("configuration", "config", cfg)
		return
	}
	// Log lines are batched (the access log's write(2) per request was a
	// large part of a cache hit): written out every 250 ms, whenever 64 KB
	// are held, at once for warnings and errors, and before the process ends.
	logOut := logging.NewBuffer(os.Stderr, 64<<10, 250*time.Millisecond)
	defer logOut.Close()
	log := logging.New(logOut, cfg.LogFormat, cfg.LogLevel)
	slog.SetDefault(log)
	// The first line says development, in the log's own format (JSON lines
	// stay JSON lines).
	if cfg.Development() {
		log.Warn("DEVELOPMENT MODE (OMNIBUS_ENV=development): test-mode payments, mail kept in the outbox, " +
			"the local sign-in provider and other stand-ins are allowed. Never expose this edge to the internet.")
	}
	log.Info("configuration", "config", cfg)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	a, err := app.New(cfg, app.Deps{Logger: log})
	if err == nil {
		// A second signal during the drain kills the process the default way.
		go func() { <-ctx.Done(); stop() }()
		err = a.Run(ctx)
	}
	if err != nil {
		log.Error("edge stopped", "err", err)
		logOut.Close() // os.Exit skips the deferred Close
		os.Exit(1)
	}
}

// command runs one of the one-shot commands and returns its exit code. They
// read the environment as serving does, without production's refusals
// (they serve no visitor; the migrate step has only the database URL).
func command(name string, args []string) int {
	if name == "sleep" { // edge sleep 5s: the preStop hook, without a shell or a beta feature
		return sleep(args)
	}
	cfg, err := config.LoadForCommand()
	if err != nil {
		fmt.Fprintf(os.Stderr, "edge: %v\n", err)
		return 2
	}
	switch name {
	case "purge": // edge purge --path /x | --prefix /blog | --all
		return cache.RunPurgeCommand(args, cfg.Addr, cfg.CachePurgeToken, os.Stdout, os.Stderr)
	case "mail": // edge mail [-n N] [-to ADDRESS]: the development outbox
		db, err := storage.Open(cfg.DatabaseURL, cfg.DataDir, storage.AllowNewerSchema(cfg.Development()), storage.Direct(cfg.DatabaseDirectURL))
		if err != nil {
			fmt.Fprintf(os.Stderr, "edge mail: %v\n", err)
			return 1
		}
		return mail.RunOutboxCommand(args, db, os.Stdout, os.Stderr)
	case "healthcheck": // edge healthcheck [--ready]: the images' probe (distroless has no curl)
		return healthcheck.Run(args, cfg.Addr, os.Stdout, os.Stderr)
	case "migrate": // edge migrate: the Kubernetes init container
		return migrate.Run(args, cfg, os.Stdout, os.Stderr)
	case "staff": // edge staff grant EMAIL --role R, revoke EMAIL, list: the studio's roles
		db, err := storage.Open(cfg.DatabaseURL, cfg.DataDir, storage.AllowNewerSchema(cfg.Development()), storage.Direct(cfg.DatabaseDirectURL))
		if err != nil {
			fmt.Fprintf(os.Stderr, "edge staff: %v\n", err)
			return 1
		}
		return staff.RunCommand(args, db, os.Stdout, os.Stderr)
	}
	fmt.Fprintf(os.Stderr, "edge: unknown command %q (commands: config, purge, mail, healthcheck, migrate, staff, sleep)\n", name)
	return 2
}

// sleep waits for the one duration argument (at most 5 minutes).
func sleep(args []string) int {
	var d time.Duration
	var err error
	if len(args) == 1 {
		d, err = time.ParseDuration(args[0])
	}
	if len(args) != 1 || err != nil || d < 0 || d > 5*time.Minute {
		fmt.Fprintln(os.Stderr, "usage: edge sleep DURATION   (such as 5s; at most 5m)")
		return 2
	}
	time.Sleep(d)
	return 0
}
