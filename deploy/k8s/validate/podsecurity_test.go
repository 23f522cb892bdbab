package validate

import (
	"strings"
	"testing"

	psaapi "k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
)

// The pods meet the Pod Security Standard the production namespace enforces,
// checked with the admission controller's own policy code: applied to a
// cluster, the ReplicaSet would otherwise create no pods at all.
func TestPodsMeetTheNamespacePodSecurityLevel(t *testing.T) {
	o, d, spec := production(t)
	level := psaapi.Level(o.namespaces[0].Labels[psaapi.EnforceLevelLabel])
	if level != psaapi.LevelRestricted {
		t.Fatalf("namespace enforces %q, want %q", level, psaapi.LevelRestricted)
	}
	evaluator, err := policy.NewEvaluator(policy.DefaultChecks(), nil)
	if err != nil {
		t.Fatal(err)
	}
	results := policy.AggregateCheckResults(evaluator.EvaluatePod(
		psaapi.LevelVersion{Level: level, Version: psaapi.LatestVersion()}, &d.Spec.Template.ObjectMeta, &spec))
	if !results.Allowed {
		t.Fatalf("pod security %q refuses the pods: %s", level, strings.Join(results.ForbiddenReasons, "; "))
	}
}
