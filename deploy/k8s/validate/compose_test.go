package validate

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
)

// repoRoot is the repository, three folders up from this module.
var repoRoot = filepath.Join("..", "..", "..")

// operatorEnv is what an operator sets for docker compose (in .env): the
// file has no production defaults of its own.
var operatorEnv = types.Mapping{
	"PUBLIC_URL":        "https://omnibus.example",
	"POSTGRES_PASSWORD": "c0b8f1d2e3a4958677a6b5c4d3e2f1a0",
	"SMTP_URL":          "smtp://mailer:9f8e7d6c5b4a39281706f5e4d3c2b1a0@smtp.omnibus.example:587",
	"MAIL_FROM":         "Omnibus <no-reply@omnibus.example>",
}

// loadCompose reads docker-compose.yml with the Compose specification's own
// loader, which validates it against the specification's schema (an unknown
// or misplaced key is an error) and resolves ${VAR:-default}, with the
// operator's settings (operatorEnv).
func loadCompose(t *testing.T) *types.Project {
	t.Helper()
	p, err := loadComposeWith(operatorEnv)
	if err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	return p
}

// Production by default: without the operator's settings compose refuses
// to start, naming the one missing, instead of running a site on
// http://localhost with development defaults.
func TestComposeNeedsTheOperatorsSettings(t *testing.T) {
	for name := range operatorEnv {
		env := types.Mapping{}
		for k, v := range operatorEnv {
			if k != name {
				env[k] = v
			}
		}
		if _, err := loadComposeWith(env); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("docker-compose.yml without %s: %v; want an error naming it", name, err)
		}
	}
	b, err := os.ReadFile(filepath.Join(repoRoot, "docker-compose.yml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"OMNIBUS_ENV", "localhost", "http://"} {
		for _, line := range strings.Split(string(b), "\n") {
			if l := strings.TrimSpace(line); !strings.HasPrefix(l, "#") && strings.Contains(l, bad) && !strings.Contains(l, "//renderer:") && !strings.Contains(l, "//edge:") {
				t.Errorf("docker-compose.yml sets %q: %s", bad, l)
			}
		}
	}
}

func loadComposeWith(operator types.Mapping) (*types.Project, error) {
	env := types.Mapping{} // a copy: the loader adds to the mapping it is given
	for k, v := range operator {
		env[k] = v
	}
	abs, err := filepath.Abs(filepath.Join(repoRoot, "docker-compose.yml"))
	if err != nil {
		return nil, err
	}
	return loader.LoadWithContext(context.Background(), types.ConfigDetails{
		WorkingDir:  filepath.Dir(abs),
		ConfigFiles: []types.ConfigFile{{Filename: abs}},
		Environment: env, // never this machine's environment
	}, func(o *loader.Options) { o.SetProjectName("omnibus", true) })
}

func service(t *testing.T, p *types.Project, name string) types.ServiceConfig {
	t.Helper()
	s, err := p.GetService(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestComposeEveryServiceHasAHealthCheck(t *testing.T) {
	p := loadCompose(t)
	for _, s := range p.Services {
		if s.HealthCheck == nil || s.HealthCheck.Disable || len(s.HealthCheck.Test) < 2 {
			t.Errorf("%s: no health check", s.Name)
		}
		if s.NetworkMode != "" {
			t.Errorf("%s: network_mode %q (a shared namespace breaks when its owner restarts); use the compose network", s.Name, s.NetworkMode)
		}
	}
	// The edge probes itself with its own binary (distroless: no curl).
	for name, want := range map[string]string{"edge": "/app/edge healthcheck", "renderer": "node healthcheck.js"} {
		if hc := service(t, p, name).HealthCheck; hc == nil || !strings.Contains(strings.Join(hc.Test, " "), want) {
			t.Errorf("%s health check: want %q", name, want)
		}
	}
}

// The edge starts once PostgreSQL and the renderer are healthy, and since it
// depends on the renderer, compose stops it first: it drains while the
// renderer still serves.
func TestComposeStartAndStopOrder(t *testing.T) {
	p := loadCompose(t)
	edge := service(t, p, "edge")
	for _, dep := range []string{"postgres", "renderer"} {
		d, ok := edge.DependsOn[dep]
		if !ok || d.Condition != types.ServiceConditionHealthy {
			t.Errorf("edge depends_on %s: want condition service_healthy, got %+v", dep, d)
		}
	}
	for name, s := range p.Services {
		for dep := range s.DependsOn {
			if dep == "edge" {
				t.Errorf("%s depends on the edge: compose would stop it before the edge has drained", name)
			}
		}
	}
	// Grace periods: TestComposeGracePeriodsCoverTheWholeDrain.
	renderer := service(t, p, "renderer")
	if u := env(edge, "RENDERER_URL"); !strings.Contains(u, "//renderer:") {
		t.Errorf("edge RENDERER_URL %q: want the renderer service on the compose network", u)
	}
	// The renderer never calls the edge (decision 0023): it is given no address of it.
	if _, ok := renderer.Environment["API_URL"]; ok {
		t.Errorf("renderer API_URL %q: the renderer never calls the edge; remove it", env(renderer, "API_URL"))
	}
}

// Only the edge is published; the renderer gets no secret.
func TestComposeRendererIsPrivateAndHasNoSecrets(t *testing.T) {
	p := loadCompose(t)
	for name, s := range p.Services {
		if name != "edge" && len(s.Ports) > 0 {
			t.Errorf("%s publishes ports; the edge is the only public listener", name)
		}
	}
	renderer := service(t, p, "renderer")
	for _, s := range secretVars {
		if _, ok := renderer.Environment[s]; ok {
			t.Errorf("renderer environment has %s", s)
		}
	}
	if len(renderer.EnvFiles) > 0 {
		t.Error("renderer: no env_file; it gets its variables one by one")
	}
}

// Both images are targets of deploy/Dockerfile, and the client is built in
// one stage both copy from: two builds could name their hashed assets
// differently, and then every script the renderer links would 404 on the edge.
func TestComposeImagesShareOneClientBuild(t *testing.T) {
	p := loadCompose(t)
	stages, builds := dockerfile(t)
	for _, name := range []string{"edge", "renderer"} {
		s := service(t, p, name)
		if s.Build == nil || filepath.ToSlash(s.Build.Dockerfile) != "deploy/Dockerfile" || s.Build.Target != name {
			t.Errorf("%s: want build deploy/Dockerfile, target %s", name, name)
		}
		if _, ok := stages[name]; !ok {
			t.Errorf("deploy/Dockerfile has no stage %q", name)
		}
	}
	if len(builds) != 1 {
		t.Fatalf("the client is built in %d stages %v, want exactly one", len(builds), builds)
	}
	web := builds[0]
	for _, target := range []string{"edge", "renderer"} {
		if !stageUses(stages, target, web) {
			t.Errorf("image %s does not take its client build from stage %s", target, web)
		}
	}
}

// dockerfile reads deploy/Dockerfile: each stage's name with the stages it
// is based on or copies from, and the stages that run the client build.
func dockerfile(t *testing.T) (stages map[string][]string, clientBuilds []string) {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot, "deploy", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	from := regexp.MustCompile(`(?i)^FROM\s+(\S+)(?:\s+AS\s+(\S+))?`)
	copyFrom := regexp.MustCompile(`(?i)^COPY\s+.*--from=(\S+)`)
	stages = map[string][]string{}
	current := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if m := from.FindStringSubmatch(line); m != nil {
			current = m[2]
			stages[current] = []string{m[1]}
		} else if m := copyFrom.FindStringSubmatch(line); m != nil {
			stages[current] = append(stages[current], m[1])
		} else if strings.HasPrefix(line, "RUN ") && strings.Contains(line, "npm run build") {
			clientBuilds = append(clientBuilds, current)
		}
	}
	return stages, clientBuilds
}

func stageUses(stages map[string][]string, stage, want string) bool {
	seen := map[string]bool{}
	var walk func(string) bool
	walk = func(s string) bool {
		if s == want {
			return true
		}
		if seen[s] {
			return false
		}
		seen[s] = true
		for _, dep := range stages[s] {
			if walk(dep) {
				return true
			}
		}
		return false
	}
	return walk(stage)
}

func env(s types.ServiceConfig, key string) string {
	if v := s.Environment[key]; v != nil {
		return *v
	}
	return ""
}

// Files the images copy straight from the sources (not build outputs) exist,
// and both images probe themselves.
func TestDockerfileCopiesExistingFilesAndHasHealthChecks(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "deploy", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	src := regexp.MustCompile(`/src/(\S+)`)
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "COPY --from=web ") {
			continue
		}
		fields := strings.Fields(line)
		for _, f := range fields[2 : len(fields)-1] {
			m := src.FindStringSubmatch(f)
			if m == nil || strings.Contains(m[1], "build") || strings.Contains(m[1], "node_modules") {
				continue
			}
			if _, err := os.Stat(filepath.Join(repoRoot, m[1])); err != nil {
				t.Errorf("deploy/Dockerfile copies %s, which is not in the repository", m[1])
			}
		}
	}
	for _, want := range []string{`HEALTHCHECK`, `CMD ["/app/edge", "healthcheck"]`, `CMD ["node", "healthcheck.js"]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("deploy/Dockerfile lacks %s", want)
		}
	}
}

// The renderer's metrics reach the one scrape on the edge's METRICS_ADDR.
func TestComposeRendererMetricsAreScrapedThroughTheEdge(t *testing.T) {
	p := loadCompose(t)
	port := env(service(t, p, "renderer"), "METRICS_PORT")
	if port == "" {
		t.Fatal("renderer: METRICS_PORT is not set, so its render-time and event-loop series exist nowhere")
	}
	if got, want := env(service(t, p, "edge"), "RENDERER_METRICS_URL"), "http://renderer:"+port+"/metrics"; got != want {
		t.Errorf("edge RENDERER_METRICS_URL %q, want %q", got, want)
	}
}
