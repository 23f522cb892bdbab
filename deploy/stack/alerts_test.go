package stack

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The shipped alerting rules load in Prometheus (promtool, Prometheus's own
// checker, from Debian's prometheus package), pass their unit tests
// (deploy/prometheus/alerts_test.yml: the alerts fire on the series they
// are for, under the scrape job names Prometheus really gives), and every
// omnibus_* series they watch is one the edge or the renderer exports.
func TestPrometheusAlertRules(t *testing.T) {
	rules := filepath.Join(repoRoot, "deploy", "prometheus", "alerts.yml")
	promtool := requireTool(t, "promtool", "prometheus", "/usr/bin/promtool")
	out, err := exec.Command(promtool, "check", "rules", rules).CombinedOutput()
	if err != nil {
		t.Fatalf("promtool check rules deploy/prometheus/alerts.yml: %v\n%s", err, out)
	}
	out, err = exec.Command(promtool, "test", "rules", filepath.Join(repoRoot, "deploy", "prometheus", "alerts_test.yml")).CombinedOutput()
	if err != nil {
		t.Fatalf("promtool test rules deploy/prometheus/alerts_test.yml: %v\n%s", err, out)
	}
	b, _ := os.ReadFile(rules)
	var sources strings.Builder
	for _, dir := range []string{"edge/internal", "ssr/app/lib"} {
		filepath.Walk(filepath.Join(repoRoot, dir), func(p string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() && (strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".ts")) && !strings.Contains(p, "_test") && !strings.Contains(p, ".test.") {
				s, _ := os.ReadFile(p)
				sources.Write(s)
			}
			return nil
		})
	}
	src := sources.String()
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`omnibus_[a-z_]+`).FindAllString(string(b), -1) {
		name := regexp.MustCompile(`_(bucket|count|sum)$`).ReplaceAllString(m, "")
		if seen[name] {
			continue
		}
		seen[name] = true
		// The renderer's series are its own, or prom-client's default
		// nodejs_* and process_* ones under its prefix.
		short := strings.TrimPrefix(name, "omnibus_renderer_")
		promClientDefault := short != name && (strings.HasPrefix(short, "nodejs_") || strings.HasPrefix(short, "process_")) && strings.Contains(src, "collectDefaultMetrics")
		if !strings.Contains(src, `"`+name+`"`) && !strings.Contains(src, short) && !promClientDefault {
			t.Errorf("deploy/prometheus/alerts.yml watches %s, which nothing exports", name)
		}
	}
}
