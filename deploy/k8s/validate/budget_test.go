package validate

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/intstr"
)

// graceMargin is what every grace period keeps beyond the worst-case drain
// it covers: the process's exit after its last answer, and the signal's way
// through the kubelet or Docker.
const graceMargin = 5 * time.Second

// rendererDrainTimeout is how long the renderer waits for requests in
// flight after its DRAIN_PERIOD: DRAIN_TIMEOUT_MS in ssr/server.js, read
// from there so the two cannot drift.
func rendererDrainTimeout(t *testing.T) time.Duration {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "ssr", "server.js"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`const DRAIN_TIMEOUT_MS = ([\d_]+);`).FindSubmatch(b)
	if m == nil {
		t.Fatal("ssr/server.js: no `const DRAIN_TIMEOUT_MS = <ms>;` (the renderer's wait for requests in flight): update this test")
	}
	ms, err := strconv.Atoi(strings.ReplaceAll(string(m[1]), "_", ""))
	if err != nil {
		t.Fatal(err)
	}
	return time.Duration(ms) * time.Millisecond
}

// setDuration is a duration variable the deployment sets explicitly (the
// grace periods are sums of them, so none may be left to a default).
func setDuration(t *testing.T, what, v string) time.Duration {
	t.Helper()
	if v == "" {
		t.Fatalf("%s is not set: set it explicitly, the grace period is computed from it", what)
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		t.Fatalf("%s %q: %v", what, v, err)
	}
	return d
}

// Kubernetes stops a pod in one grace period: the edge's preStop wait, its
// drain (DRAIN_PERIOD unready but serving, SHUTDOWN_TIMEOUT for what is in
// flight), then, once the edge has exited, the renderer sidecar's own
// SIGTERM: its DRAIN_PERIOD and its wait for renders in flight. A grace
// period shorter than the sum SIGKILLs a page half-sent.
func TestPodGracePeriodCoversTheWholeDrain(t *testing.T) {
	o, _, spec := production(t)
	edge := container(t, spec, "edge")
	env := containerEnv(t, o, edge)
	preStop := time.Duration(preStopSeconds(t, edge)) * time.Second
	edgeDrain := setDuration(t, "edge DRAIN_PERIOD", env["DRAIN_PERIOD"])
	shutdown := setDuration(t, "edge SHUTDOWN_TIMEOUT", env["SHUTDOWN_TIMEOUT"])
	rd, _ := envVar(container(t, spec, "renderer"), "DRAIN_PERIOD")
	rendererDrain := setDuration(t, "renderer DRAIN_PERIOD", rd.Value)
	need := preStop + edgeDrain + shutdown + rendererDrain + rendererDrainTimeout(t) + graceMargin
	if grace := spec.TerminationGracePeriodSeconds; grace == nil || time.Duration(*grace)*time.Second < need {
		t.Errorf("terminationGracePeriodSeconds %v: want at least %s = edge preStop %s + DRAIN_PERIOD %s + SHUTDOWN_TIMEOUT %s, then renderer DRAIN_PERIOD %s + %s for renders in flight, + %s",
			ptrValue(grace), need, preStop, edgeDrain, shutdown, rendererDrain, rendererDrainTimeout(t), graceMargin)
	}
}

func ptrValue(p *int64) any {
	if p == nil {
		return "unset"
	}
	return *p
}

// Compose stops each container alone: the edge first (it depends on the
// renderer), the renderer after or on its own (a new image, a restart).
// Each stop_grace_period covers its service's whole drain.
func TestComposeGracePeriodsCoverTheWholeDrain(t *testing.T) {
	p := loadCompose(t)
	edge := service(t, p, "edge")
	need := setDuration(t, "edge DRAIN_PERIOD", env(edge, "DRAIN_PERIOD")) +
		setDuration(t, "edge SHUTDOWN_TIMEOUT", env(edge, "SHUTDOWN_TIMEOUT")) + graceMargin
	if g := edge.StopGracePeriod; g == nil || time.Duration(*g) < need {
		t.Errorf("edge stop_grace_period %v: want at least %s (DRAIN_PERIOD + SHUTDOWN_TIMEOUT + %s), else SIGKILL cuts the drain", g, need, graceMargin)
	}
	renderer := service(t, p, "renderer")
	need = setDuration(t, "renderer DRAIN_PERIOD", env(renderer, "DRAIN_PERIOD")) + rendererDrainTimeout(t) + graceMargin
	if g := renderer.StopGracePeriod; g == nil || time.Duration(*g) < need {
		t.Errorf("renderer stop_grace_period %v: want at least %s (DRAIN_PERIOD + %s for renders in flight + %s)", g, need, rendererDrainTimeout(t), graceMargin)
	}
}

// What the connection budget counts besides the edges (docs/operating.md,
// "Connection budget"): PostgreSQL's superuser_reserved_connections (3 by
// default) and 5 for everything else that connects (backups, a psql,
// dashboards).
const (
	pgReserved = 3
	pgOthers   = 5
)

// At the autoscaler's maximum, with a rolling update's surge on top, every
// edge holding its whole pool and its purge listener, the connections fit
// under the max_connections docs/operating.md plans for. (The migrate step
// holds one connection before its pod's edge starts, so inside its share.)
func TestConnectionBudgetFitsMaxConnections(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs", "operating.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("default\\s+`max_connections`\\s+of\\s+(\\d+)").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/operating.md no longer says \"default `max_connections` of N\": update this test")
	}
	maxConns, _ := strconv.Atoi(string(m[1]))
	for _, dir := range []string{"base", "overlays/production"} {
		t.Run(dir, func(t *testing.T) {
			o := mustRender(t, dir)
			d, hpa := o.deployments[0], o.hpas[0]
			maxPods := int(hpa.Spec.MaxReplicas)
			surgeSpec := intstr.FromString("25%") // the Deployment default
			if ru := d.Spec.Strategy.RollingUpdate; ru != nil && ru.MaxSurge != nil {
				surgeSpec = *ru.MaxSurge
			}
			surge, err := intstr.GetScaledValueFromIntOrPercent(&surgeSpec, maxPods, true)
			if err != nil {
				t.Fatal(err)
			}
			env := containerEnv(t, o, container(t, d.Spec.Template.Spec, "edge"))
			pool, err := strconv.Atoi(env["DB_MAX_OPEN_CONNS"])
			if err != nil {
				t.Fatalf("edge DB_MAX_OPEN_CONNS %q: set the pool size explicitly (the edge's default, 20, is sized for one instance)", env["DB_MAX_OPEN_CONNS"])
			}
			const listener = 1
			total := (maxPods+surge)*(pool+listener) + pgReserved + pgOthers
			if total > maxConns {
				t.Errorf("(maxReplicas %d + surge %d) × (DB_MAX_OPEN_CONNS %d + listener %d) + reserved %d + others %d = %d > max_connections %d",
					maxPods, surge, pool, listener, pgReserved, pgOthers, total, maxConns)
			} else {
				t.Logf("(%d + %d) × (%d + %d) + %d + %d = %d ≤ %d", maxPods, surge, pool, listener, pgReserved, pgOthers, total, maxConns)
			}
		})
	}
}
