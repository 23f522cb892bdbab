package validate

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fromImages are the outside images deploy/Dockerfile builds on (its FROM
// lines that name no earlier stage), in order.
func fromImages(t *testing.T) []string {
	t.Helper()
	stages, _ := dockerfile(t)
	b, err := os.ReadFile(filepath.Join(repoRoot, "deploy", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	var images []string
	for _, m := range regexp.MustCompile(`(?im)^FROM\s+(\S+)`).FindAllStringSubmatch(string(b), -1) {
		if _, stage := stages[m[1]]; !stage {
			images = append(images, m[1])
		}
	}
	if len(images) == 0 {
		t.Fatal("deploy/Dockerfile: no FROM line names an outside image")
	}
	return images
}

// imageTag splits an image reference into its repository's last name and
// its tag ("" when it has none); a digest is left on the tag.
func imageTag(ref string) (name, tag string) {
	slash := strings.LastIndex(ref, "/")
	name, tag, _ = strings.Cut(ref[slash+1:], ":")
	return name, tag
}

// exactVersion says whether an image reference names one image: a digest,
// or a tag with the project's whole version number (PostgreSQL's is
// major.minor since 10, the others' major.minor.patch), never a line that
// moves (postgres:16, node:24, golang:1.26).
func exactVersion(ref string) bool {
	if regexp.MustCompile(`@sha256:[0-9a-f]{64}$`).MatchString(ref) {
		return true
	}
	name, tag := imageTag(ref)
	version := `\d+\.\d+\.\d+`
	if name == "postgres" {
		version = `\d+\.\d+`
	}
	return regexp.MustCompile(`^` + version + `(-[a-z0-9.]+)*$`).MatchString(tag)
}

// Every image compose pulls and every base the Dockerfile builds on is an
// exact version or a digest: a floating tag changes what ships without a
// commit, and a rebuild of the same commit could differ.
func TestEveryImageIsAnExactVersionOrADigest(t *testing.T) {
	for _, ref := range []string{"postgres:16-bookworm", "node:24-bookworm-slim", "golang:1.26-bookworm", "node:latest", "postgres"} {
		if exactVersion(ref) {
			t.Fatalf("the check itself takes the floating tag %s for an exact version", ref)
		}
	}
	refs := fromImages(t)
	for _, s := range loadCompose(t).Services {
		if s.Image != "" && s.Build == nil {
			refs = append(refs, s.Image)
		}
	}
	for _, ref := range refs {
		if !exactVersion(ref) {
			t.Errorf("image %s: pin an exact version (postgres:16.15-bookworm, node:24.21.0-bookworm-slim) or a digest", ref)
		}
	}
	// docs/operating.md's table of images names each base as shipped.
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs", "operating.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range fromImages(t) {
		if name, tag := imageTag(ref); !strings.Contains(ref, "@") && !strings.Contains(string(doc), "`"+name+":"+tag+"`") {
			t.Errorf("docs/operating.md (Images) does not name the base %s:%s the Dockerfile uses", name, tag)
		}
	}
}

// The edge image is built with the Go that make test and make vuln (which
// scans the standard library) use: the toolchain line of edge/go.mod. An
// older image Go would ship a standard library with fixes the scan assumed.
func TestTheEdgeImageIsBuiltWithTheTestedGo(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join(repoRoot, "edge", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^toolchain go(\S+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("edge/go.mod has no toolchain line")
	}
	want := string(m[1])
	var found bool
	for _, ref := range fromImages(t) {
		if name, tag := imageTag(ref); name == "golang" {
			found = true
			if got, _, _ := strings.Cut(tag, "-"); got != want {
				t.Errorf("deploy/Dockerfile builds the edge with %s, but edge/go.mod's toolchain (make test, make vuln) is go%s", ref, want)
			}
		}
	}
	if !found {
		t.Fatal("deploy/Dockerfile has no golang stage")
	}
}

// The README names the Node line the images run (the one a reader must
// check is supported) beside the Node the tests ran on.
func TestReadmeNamesTheImagesNode(t *testing.T) {
	var major string
	for _, ref := range fromImages(t) {
		if name, tag := imageTag(ref); name == "node" {
			major, _, _ = strings.Cut(tag, ".")
		}
	}
	if major == "" {
		t.Fatal("deploy/Dockerfile has no node stage")
	}
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "Node "+major) {
		t.Errorf("README.md does not name Node %s, the images' Node (deploy/Dockerfile)", major)
	}
	if !regexp.MustCompile(`ran\s+on\s+Node\s+\d+\.\d+\.\d+`).Match(readme) {
		t.Error("README.md does not say which Node the tests ran on (\"ran on Node X.Y.Z\")")
	}
}
