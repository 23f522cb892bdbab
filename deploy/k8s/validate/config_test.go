package validate

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

var (
	edgeOnce sync.Once
	edgeDir  string // removed by TestMain
	edgeBin  string
	edgeErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, dir := range []string{edgeDir, kubeScoreDir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}

// edgeBinary builds the edge once for these tests.
func edgeBinary(t *testing.T) string {
	t.Helper()
	edgeOnce.Do(func() {
		dir, err := filepath.Abs(filepath.Join(repoRoot, "edge"))
		if err != nil {
			edgeErr = err
			return
		}
		if edgeDir, err = os.MkdirTemp("", "omnibus-validate-"); err != nil {
			edgeErr = err
			return
		}
		edgeBin = filepath.Join(edgeDir, "edge")
		cmd := exec.Command("go", "build", "-o", edgeBin, "./cmd/edge")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			edgeErr = errors.New(string(out))
		}
	})
	if edgeErr != nil {
		t.Fatalf("building the edge: %v", edgeErr)
	}
	return edgeBin
}

// assertEdgeAccepts runs the edge's own configuration check on env (the
// binary loads and validates it before any subcommand): `edge healthcheck`
// against a port nothing listens on exits 1 when the configuration is valid
// and 2, naming each bad variable, when it is not.
func assertEdgeAccepts(t *testing.T, what string, env map[string]string) {
	t.Helper()
	var vars []string
	for k, v := range env {
		vars = append(vars, k+"="+v)
	}
	sort.Strings(vars)
	cmd := exec.Command(edgeBinary(t), "healthcheck", "--timeout", "2s", "--url", "http://127.0.0.1:1")
	cmd.Env = vars
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || strings.Contains(string(out), "invalid configuration") {
		t.Errorf("%s: the edge refuses this configuration (%v):\n%s", what, err, out)
	}
}

// containerEnv resolves a container's environment as the kubelet would:
// envFrom ConfigMaps first, then env entries (literal, ConfigMap key, Secret
// key; a missing optional key is left out).
func containerEnv(t *testing.T, o *objects, c corev1.Container) map[string]string {
	t.Helper()
	cm := o.configMaps[0]
	var secret corev1.Secret // the base has none
	if len(o.secrets) > 0 {
		secret = o.secrets[0]
	}
	env := map[string]string{}
	for _, ef := range c.EnvFrom {
		if ef.ConfigMapRef == nil || ef.ConfigMapRef.Name != cm.Name {
			t.Fatalf("%s: envFrom %+v: only the ConfigMap is expected", c.Name, ef)
		}
		for k, v := range cm.Data {
			env[k] = v
		}
	}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			env[e.Name] = e.Value
		case e.ValueFrom.ConfigMapKeyRef != nil:
			if v, ok := cm.Data[e.ValueFrom.ConfigMapKeyRef.Key]; ok {
				env[e.Name] = v
			}
		case e.ValueFrom.SecretKeyRef != nil:
			if v, ok := secret.Data[e.ValueFrom.SecretKeyRef.Key]; ok {
				env[e.Name] = string(v)
			}
		default:
			t.Fatalf("%s: %s: unexpected valueFrom", c.Name, e.Name)
		}
	}
	return env
}

// realSecrets stand in for what an operator puts in secrets.env: long,
// random-looking, live.
var realSecrets = map[string]string{
	"DATABASE_URL":          "postgres://omnibus:8c1f4b2e9a7d3c6f0e5b1a2d4c6e8f0a@postgres.example:5432/omnibus?sslmode=require",
	"CACHE_PURGE_TOKEN":     "3f9a1c7e5b2d8f4a6c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f3a",
	"SMTP_URL":              "smtp://mailer:Qm7vR2xK9pL4wT8sYb3N@smtp.example.com:587",
	"STRIPE_SECRET_KEY":     "sk_live_51HqLyjWDarjtT1zdp7dc4eC39xYzAbCdEf",
	"STRIPE_WEBHOOK_SECRET": "whsec_5fT0dPq8mVx2LrK9sWbN3cYe7HjA1uGz",
}

// edgeConfig runs `edge config`, which checks an environment exactly as
// serving would (production's refusals included) and exits 0 or 2.
func edgeConfig(t *testing.T, env map[string]string) (int, string) {
	t.Helper()
	var vars []string
	for k, v := range env {
		vars = append(vars, k+"="+v)
	}
	sort.Strings(vars)
	cmd := exec.Command(edgeBinary(t), "config")
	cmd.Env = vars
	out, _ := cmd.CombinedOutput()
	return cmd.ProcessState.ExitCode(), string(out)
}

// The production overlay with the example secrets.env is refused, every
// placeholder named and none printed: an operator who forgets to fill in
// secrets.env gets a CrashLoopBackOff saying so, not a site. With real
// secrets filled in, the edge serves it; the migrate step (which has only
// the database URL) accepts its environment either way.
func TestEdgeRefusesTheExampleSecretsAndServesRealOnes(t *testing.T) {
	o, _, spec := production(t)
	env := containerEnv(t, o, container(t, spec, "edge"))
	code, out := edgeConfig(t, env)
	if code != 2 {
		t.Fatalf("the example secrets.env: exit %d, want 2:\n%s", code, out)
	}
	for _, key := range []string{"DATABASE_URL", "CACHE_PURGE_TOKEN", "SMTP_URL", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"} {
		if !strings.Contains(out, key+"=") {
			t.Errorf("%s not named:\n%s", key, out)
		}
	}
	if strings.Contains(out, "CHANGE-ME") {
		t.Errorf("a placeholder secret is printed:\n%s", out)
	}

	for k, v := range realSecrets {
		if _, ok := env[k]; ok {
			env[k] = v
		}
	}
	if code, out := edgeConfig(t, env); code != 0 {
		t.Errorf("the production overlay with real secrets: exit %d:\n%s", code, out)
	}
	assertEdgeAccepts(t, "deploy/k8s migrate container", containerEnv(t, o, container(t, spec, "migrate")))
}

// Compose's edge, with what an operator puts in .env (operatorEnv), passes
// `edge config`: production's checks included, as it will run.
func TestEdgeAcceptsTheComposeConfiguration(t *testing.T) {
	edge := service(t, loadCompose(t), "edge")
	env := map[string]string{}
	for k, v := range edge.Environment {
		if v != nil {
			env[k] = *v
		}
	}
	if code, out := edgeConfig(t, env); code != 0 || !strings.Contains(out, "OMNIBUS_ENV=production") {
		t.Errorf("docker-compose.yml's edge: `edge config` exit %d, want 0 in production:\n%s", code, out)
	}
}

// The check itself refuses a bad value.
func TestEdgeConfigurationCheckRefusesABadValue(t *testing.T) {
	cmd := exec.Command(edgeBinary(t), "healthcheck", "--url", "http://127.0.0.1:1")
	cmd.Env = []string{"SESSION_TTL=7d"}
	out, _ := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != 2 || !strings.Contains(string(out), "SESSION_TTL") {
		t.Fatalf("SESSION_TTL=7d: exit %d, want 2 naming SESSION_TTL:\n%s", cmd.ProcessState.ExitCode(), out)
	}
}
