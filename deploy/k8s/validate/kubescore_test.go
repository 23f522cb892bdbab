package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"sigs.k8s.io/kustomize/api/krusty"
)

// kubeScore is the kube-score release the manifests are scored with, built
// from the Go module proxy (no binary download, no Docker), and the oldest
// Kubernetes docs/operating.md names (its checks depend on the version).
const (
	kubeScoreModule = "github.com/zegl/kube-score/cmd/kube-score@v1.20.0"
	kubeScoreK8s    = "v1.29"
)

// kubeScoreExceptions are kube-score's findings on the production overlay
// that stay on purpose, each with its reason (docs/operating.md,
// "kube-score", says the same). Key: "Kind/name check-id container" (no
// container for a finding about the whole object).
var kubeScoreExceptions = map[string]string{
	"Deployment/omnibus container-resources edge":             "no CPU limit: a limit throttles a render mid-page and stretches every page behind it; requests are what the scheduler and the autoscaler use, and memory is limited",
	"Deployment/omnibus container-resources renderer":         "no CPU limit: as for the edge, a throttled render stretches every page queued behind it",
	"Deployment/omnibus container-resources migrate":          "no CPU limit: a one-shot step before the pod serves; a limit would only slow a migration",
	"Deployment/omnibus container-image-pull-policy edge":     "the overlay pins an exact tag (and a release pins the digest with kustomize's images: digest:), which makes Always pointless",
	"Deployment/omnibus container-image-pull-policy renderer": "as for the edge: an exact tag or a digest",
	"Deployment/omnibus container-image-pull-policy migrate":  "as for the edge: the edge image, an exact tag or a digest",
	"Deployment/omnibus pod-networkpolicy ":                   "egress goes to the operator's PostgreSQL (or PgBouncer), SMTP server, Stripe and Google, whose addresses only the cluster knows: docs/operating.md says to add an egress policy with them and DNS",
	"Deployment/omnibus deployment-has-host-podantiaffinity ": "the pods spread across nodes with a DoNotSchedule topology spread constraint instead (TestPodsSpreadAcrossNodesAsARequirement), which kube-score does not read",
}

var (
	kubeScoreOnce sync.Once
	kubeScoreDir  string // removed by TestMain
	kubeScoreBin  string
	kubeScoreErr  error
)

// kubeScoreBinary builds kube-score once for these tests (go install from
// the module proxy, checked against go.sum's database like any module).
func kubeScoreBinary(t *testing.T) string {
	t.Helper()
	kubeScoreOnce.Do(func() {
		if kubeScoreDir, kubeScoreErr = os.MkdirTemp("", "omnibus-kube-score-"); kubeScoreErr != nil {
			return
		}
		cmd := exec.Command("go", "install", kubeScoreModule)
		cmd.Dir = kubeScoreDir // outside this module and go.work: kube-score's own go.mod decides its dependencies
		cmd.Env = append(os.Environ(), "GOBIN="+kubeScoreDir, "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			kubeScoreErr = errors.New(string(out))
		}
		kubeScoreBin = filepath.Join(kubeScoreDir, "kube-score")
	})
	if kubeScoreErr != nil {
		t.Fatalf("building kube-score (%s): %v", kubeScoreModule, kubeScoreErr)
	}
	return kubeScoreBin
}

// renderYAML is one kustomization rendered as kubectl kustomize prints it.
func renderYAML(t *testing.T, dir string) []byte {
	t.Helper()
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(loadTree(t), filepath.Join("/k8s", dir))
	if err != nil {
		t.Fatalf("kustomize build %s: %v", dir, err)
	}
	b, err := m.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// kube-score's findings on the production overlay are exactly the
// explained exceptions: a new finding fails (address it or explain it
// here and in docs/operating.md), and so does an exception that no longer
// occurs (remove it).
func TestKubeScoreFindingsAreAddressedOrExplained(t *testing.T) {
	cmd := exec.Command(kubeScoreBinary(t), "score", "--kubernetes-version", kubeScoreK8s, "--output-format", "json", "-")
	cmd.Stdin = bytes.NewReader(renderYAML(t, "overlays/production"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, _ := cmd.Output() // exit 1 when anything is critical; the JSON says what
	var objects []struct {
		ObjectName string `json:"object_name"`
		TypeMeta   struct {
			Kind string `json:"kind"`
		} `json:"type_meta"`
		ObjectMeta struct {
			Name string `json:"name"`
		} `json:"object_meta"`
		Checks []struct {
			Check struct {
				ID string `json:"id"`
			} `json:"check"`
			Grade    int  `json:"grade"`
			Skipped  bool `json:"skipped"`
			Comments []struct {
				Path    string `json:"path"`
				Summary string `json:"summary"`
			} `json:"comments"`
		} `json:"checks"`
	}
	if err := json.Unmarshal(out, &objects); err != nil || len(objects) == 0 {
		t.Fatalf("kube-score: %v\n%s\n%s", err, out, stderr.String())
	}
	const allOK = 10 // kube-score's grade for a passed check (warning 5, critical 1)
	found := map[string]string{}
	for _, o := range objects {
		for _, c := range o.Checks {
			if c.Skipped || c.Grade >= allOK {
				continue
			}
			prefix := o.TypeMeta.Kind + "/" + o.ObjectMeta.Name + " " + c.Check.ID + " "
			if len(c.Comments) == 0 {
				found[prefix] = "(no comment)"
			}
			for _, cm := range c.Comments {
				found[prefix+cm.Path] = cm.Summary
			}
		}
	}
	var keys []string
	for k := range found {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if why, ok := kubeScoreExceptions[k]; ok {
			t.Logf("kube-score %q: %s — kept: %s", strings.TrimSpace(k), found[k], why)
		} else {
			t.Errorf("kube-score finding %q: %s (address it, or explain it in kubeScoreExceptions and docs/operating.md)", strings.TrimSpace(k), found[k])
		}
	}
	for k := range kubeScoreExceptions {
		if _, ok := found[k]; !ok {
			t.Errorf("kube-score no longer finds %q: remove the exception (here and in docs/operating.md)", strings.TrimSpace(k))
		}
	}
}
