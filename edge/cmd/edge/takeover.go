package main

// Same-host restarts without a refused connection (decision 0056): the
// listening sockets outlive the process.
//
//   - systemd socket activation: the socket unit (deploy/systemd) holds the
//     public socket and hands it over (LISTEN_FDS); while the service
//     restarts, connections wait in its queue instead of being refused.
//   - SIGHUP (`systemctl reload`): the edge starts its successor (the binary
//     now on disk) with its sockets (github.com/cloudflare/tableflip). Once
//     the successor's renderer answers, the successor reports ready, takes
//     over the PID file and accepts; this edge stops accepting at once and
//     finishes what it accepted. A successor that fails to start leaves
//     this edge serving.

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/cloudflare/tableflip"

	"omnibus/edge/internal/app"
	"omnibus/edge/internal/config"
)

// activatedEnv tells a successor that the public socket came from systemd
// (it is held there too, so stopping must leave its queue alone).
const activatedEnv = "OMNIBUS_SOCKET_ACTIVATED"

// serve runs the edge until SIGTERM, or until a successor has taken over.
func serve(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	upg, err := tableflip.New(tableflip.Options{PIDFile: cfg.PIDFile, UpgradeTimeout: cfg.RendererStartTimeout + 30*time.Second})
	if err != nil {
		return err
	}
	defer upg.Stop()
	activated := os.Getenv(activatedEnv) == "1"
	if !upg.HasParent() {
		ln, err := systemdListener()
		if err != nil {
			return err
		}
		if ln != nil {
			activated = true
			os.Setenv(activatedEnv, "1") // for the successors
			if err := upg.AddListener("tcp", cfg.Addr, ln.(tableflip.Listener)); err != nil {
				return err
			}
			ln.Close() // the upgrader holds its own copy
		}
	}
	pub, err := upg.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	a, err := app.New(cfg, app.Deps{Logger: log, Listener: pub, Listen: upg.Listen,
		SharedSocket: activated, FreshRendererPorts: upg.HasParent(), AcceptWhenReady: upg.HasParent()})
	if err != nil {
		return err
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		// Ready (the PID file, the predecessor's signal to stop) once the
		// renderer answers: pages can be served.
		wctx, cancel := context.WithTimeout(runCtx, cfg.RendererStartTimeout)
		defer cancel()
		if err := a.Renderer.WaitReady(wctx); err != nil {
			log.Error("renderer not ready: not taking over; the predecessor keeps serving", "err", err)
			stop()
			return
		}
		if err := upg.Ready(); err != nil {
			log.Error("socket takeover: ready", "err", err)
		}
	}()
	go func() {
		hup := make(chan os.Signal, 1)
		signal.Notify(hup, syscall.SIGHUP)
		defer signal.Stop(hup)
		for {
			select {
			case <-runCtx.Done():
				return
			case <-hup:
				log.Info("SIGHUP: starting a successor to take over the listening sockets")
				if err := upg.Upgrade(); err != nil {
					log.Error("socket takeover failed; still serving", "err", err)
				}
			}
		}
	}()
	go func() {
		select {
		case <-upg.Exit():
			log.Info("a successor took over the listening sockets: finishing what was accepted")
			a.HandOver()
			stop()
		case <-runCtx.Done():
		}
	}()
	return a.Run(runCtx)
}

// systemdListener is the socket systemd passed (LISTEN_FDS, fd 3), or nil.
func systemdListener() (net.Listener, error) {
	if pid, _ := strconv.Atoi(os.Getenv("LISTEN_PID")); pid != os.Getpid() {
		return nil, nil
	}
	n, _ := strconv.Atoi(os.Getenv("LISTEN_FDS"))
	os.Unsetenv("LISTEN_PID")
	os.Unsetenv("LISTEN_FDS")
	os.Unsetenv("LISTEN_FDNAMES")
	if n < 1 {
		return nil, nil
	}
	if n > 1 {
		return nil, errors.New("systemd passed more than one socket: the edge takes one (its LISTEN_ADDR)")
	}
	f := os.NewFile(3, "systemd socket")
	defer f.Close()
	syscall.CloseOnExec(3)
	return net.FileListener(f)
}
