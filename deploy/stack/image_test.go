package stack

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Ports of this test (the deploy range, 18200-18299).
const (
	imageEdgePort     = 18210
	imageRendererPort = 18211
	imageMetricsPort  = 18212
)

// readDockerfile parses deploy/Dockerfile and its .dockerignore.
func readDockerfile(t *testing.T) (*Dockerfile, []string) {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot, "deploy", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := ParseDockerfile(f)
	if err != nil {
		t.Fatalf("deploy/Dockerfile: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(repoRoot, "deploy", "Dockerfile.dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	var ignore []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			ignore = append(ignore, l)
		}
	}
	return d, ignore
}

// workspaces are the npm workspaces of the repository's package.json.
func workspaces(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var p struct{ Workspaces []string }
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	return p.Workspaces
}

// imageNode is the Node that stage's image runs: the version of its base
// (FROM node:<version>-…, through the stages it builds on), as make
// image-node unpacks Node's own build of it under build/image-node.
func imageNode(t *testing.T, d *Dockerfile, stage string) string {
	t.Helper()
	base := stage
	for found := true; found; {
		found = false
		for _, s := range d.Stages {
			if s.Name == base {
				base, found = s.Base, true
				break
			}
		}
	}
	m := regexp.MustCompile(`^node:(\d+\.\d+\.\d+)-`).FindStringSubmatch(base)
	if m == nil {
		t.Fatalf("image %s is not built FROM node:<version>-…: %q", stage, base)
	}
	bin := filepath.Join(repoRoot, "build", "image-node", m[1], "bin", "node")
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("the %s image's Node %s is not at %s (make image-node; make test does): %v", stage, m[1], bin, err)
	}
	if v := strings.TrimSpace(string(out)); v != "v"+m[1] {
		t.Fatalf("%s is Node %s, the %s image runs %s", bin, v, stage, m[1])
	}
	t.Logf("image %s runs on Node %s (%s)", stage, m[1], bin)
	return bin
}

// makeSteps stand in for the two RUN steps of the client build that make
// has already done in the repository (make install, make build): the same
// lock file installed, the same sources built. Copying their results keeps
// the test off the network and under a minute.
func makeSteps(t *testing.T) BuildSteps {
	install := func(im *Image, workdir string) error {
		lock, err := os.ReadFile(filepath.Join(workdir, "package-lock.json"))
		if err != nil {
			return fmt.Errorf("npm ci without a package-lock.json in %s", workdir)
		}
		repoLock, err := os.ReadFile(filepath.Join(repoRoot, "package-lock.json"))
		if err != nil || string(lock) != string(repoLock) {
			return fmt.Errorf("the image's package-lock.json is not the repository's")
		}
		for _, dir := range append([]string{"."}, workspaces(t)...) {
			src := filepath.Join(repoRoot, dir, "node_modules")
			if _, err := os.Stat(src); err != nil {
				continue
			}
			if _, err := os.Stat(filepath.Join(workdir, dir, "package.json")); err != nil {
				return fmt.Errorf("npm ci: workspace %s has no package.json in the image", dir)
			}
			if err := copyTree(src, filepath.Join(workdir, dir, "node_modules"), nil); err != nil {
				return err
			}
		}
		return nil
	}
	build := func(im *Image, workdir string) error {
		src := filepath.Join(repoRoot, "ssr", "build")
		if _, err := os.Stat(filepath.Join(workdir, "ssr", "app")); err != nil {
			return fmt.Errorf("npm run build -w ssr: the image has no ssr/app to build")
		}
		return copyTree(src, filepath.Join(workdir, "ssr", "build"), nil)
	}
	return BuildSteps{
		"npm ci --no-audit --no-fund": install,
		"npm run build -w ssr":        build,
	}
}

// images are the Dockerfile's final stages: those with a command that no
// other stage builds on.
func images(d *Dockerfile) []string {
	used := map[string]bool{}
	for _, s := range d.Stages {
		used[s.Base] = true
		for _, in := range s.Instrs {
			if from := in.Flags["from"]; from != "" {
				used[from] = true
			}
		}
	}
	var names []string
	for _, s := range d.Stages {
		if used[s.Name] {
			continue
		}
		for _, in := range s.Instrs {
			if in.Cmd == "CMD" || in.Cmd == "ENTRYPOINT" {
				names = append(names, s.Name)
				break
			}
		}
	}
	return names
}

// processEnv is the image's environment for a process started from its
// tree: its ENV (values that are paths inside the image moved under the
// tree), then the deployment's own variables, as compose or Kubernetes add
// them.
func processEnv(im *Image, deployment ...string) []string {
	env := hostEnv()
	for _, kv := range im.Env {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(v, "/") {
			v = im.HostPath(v)
		}
		env = append(env, k+"="+v)
	}
	return append(env, deployment...)
}

// argv is the image's ENTRYPOINT + CMD, an absolute program path inside the
// image moved under its tree.
func argv(t *testing.T, name string, im *Image) []string {
	t.Helper()
	a := append(append([]string(nil), im.Entrypoint...), im.Cmd...)
	if len(a) == 0 {
		t.Fatalf("image %s has neither ENTRYPOINT nor CMD", name)
	}
	if strings.HasPrefix(a[0], "/") {
		a[0] = im.HostPath(a[0])
	}
	return a
}

// TestImagesStartFromTheirDockerfileTrees assembles both images' trees as
// deploy/Dockerfile copies them, the renderer's with production
// dependencies only (its RUN npm prune replayed), and serves / through the
// edge started from its tree and the renderer started from its own.
func TestImagesStartFromTheirDockerfileTrees(t *testing.T) {
	requireBuild(t)
	d, ignore := readDockerfile(t)
	names := images(d)
	if strings.Join(names, ",") != "renderer,edge" && strings.Join(names, ",") != "edge,renderer" {
		t.Fatalf("deploy/Dockerfile's images are %v, want edge and renderer", names)
	}
	dir := t.TempDir()
	r := &Replayer{File: d, Context: repoRoot, Ignore: ignore, Dir: dir, Steps: makeSteps(t), Log: t.Logf}
	built := map[string]*Image{}
	for _, name := range names {
		began := time.Now()
		im, err := r.Build(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("image %s assembled in %s", name, time.Since(began).Round(time.Millisecond))
		// Images run as a numeric non-root user (Kubernetes' runAsNonRoot
		// can only check a number).
		uid, _, _ := strings.Cut(im.User, ":")
		if n, err := strconv.Atoi(uid); err != nil || n == 0 {
			t.Errorf("image %s: USER %q, want a numeric non-root user", name, im.User)
		}
		built[name] = im
	}

	// The renderer's tree holds production dependencies only.
	renderer := built["renderer"]
	for _, dev := range []string{"vitest", "@playwright/test", "lighthouse", "@react-router/dev"} {
		for _, nm := range []string{"app/node_modules", "app/ssr/node_modules"} {
			if _, err := os.Stat(filepath.Join(renderer.Root, nm, dev)); err == nil {
				t.Errorf("renderer image has the dev dependency %s in /%s", dev, nm)
			}
		}
	}

	// The renderer runs on its image's Node, not this machine's.
	rargv := argv(t, "renderer", renderer)
	if rargv[0] != "node" {
		t.Fatalf("the renderer image's command is %v, want node …", rargv)
	}
	node := imageNode(t, d, "renderer")
	rargv[0] = node
	renv := processEnv(renderer, "PORT="+fmtPort(imageRendererPort), "PUBLIC_URL=http://127.0.0.1:"+fmtPort(imageEdgePort))
	for i, kv := range renv {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			renv[i] = "PATH=" + filepath.Dir(node) + string(os.PathListSeparator) + p
		}
	}
	rp := start(t, "renderer", renderer.HostPath(renderer.Workdir), renv, rargv)
	waitHTTP(t, rp, fmt.Sprintf("http://127.0.0.1:%d/__renderer/health", imageRendererPort), 60*time.Second)

	edge := built["edge"]
	ep := start(t, "edge", edge.HostPath(edge.Workdir),
		processEnv(edge,
			"OMNIBUS_ENV=development", // loopback PUBLIC_URL: development mode, set explicitly
			fmt.Sprintf("LISTEN_ADDR=127.0.0.1:%d", imageEdgePort),
			fmt.Sprintf("PUBLIC_URL=http://127.0.0.1:%d", imageEdgePort),
			fmt.Sprintf("RENDERER_URL=http://127.0.0.1:%d", imageRendererPort),
			fmt.Sprintf("METRICS_ADDR=127.0.0.1:%d", imageMetricsPort)),
		argv(t, "edge", edge))
	base := fmt.Sprintf("http://127.0.0.1:%d", imageEdgePort)
	waitHTTP(t, ep, base+"/healthz", 60*time.Second)
	waitHTTP(t, ep, base+"/readyz", 60*time.Second)

	// / through both: the edge proxies it to the renderer, and every
	// script and stylesheet the page links is in the edge's tree.
	res, body := get(t, "GET", base+"/", nil)
	if res.StatusCode != 200 || !strings.Contains(body, "<html") {
		t.Fatalf("GET / through the image trees: %s\n%.500s\nedge:\n%s\nrenderer:\n%s", res.Status, body, ep.out, rp.out)
	}
	assets := regexp.MustCompile(`(?:src|href)="(/assets/[^"]+)"`).FindAllStringSubmatch(body, -1)
	if len(assets) == 0 {
		t.Fatalf("GET /: the page links no /assets/ file:\n%.500s", body)
	}
	for _, a := range assets {
		if res, _ := get(t, "GET", base+a[1], nil); res.StatusCode != 200 {
			t.Errorf("GET %s (linked from /): %s", a[1], res.Status)
		}
	}

	// The logs the images write by default are JSON lines.
	ep.stop()
	rp.stop()
	for _, p := range []*proc{ep, rp} {
		lines := 0
		for _, l := range strings.Split(strings.TrimSpace(p.out.String()), "\n") {
			if strings.HasPrefix(l, "edge: DEVELOPMENT MODE") {
				continue // the development banner, plain on purpose; this test's edge runs in development
			}
			var v map[string]any
			if json.Unmarshal([]byte(l), &v) != nil {
				t.Errorf("%s image: a log line that is not JSON: %.200s", p.name, l)
				break
			}
			lines++
		}
		if lines == 0 {
			t.Errorf("%s image: no log line", p.name)
		}
	}
}
