package validate

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// podMonitor is the Prometheus Operator's PodMonitor, as far as this
// deployment uses it (strict decoding refuses any other field).
type podMonitor struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              struct {
		Selector            metav1.LabelSelector `json:"selector"`
		PodMetricsEndpoints []struct {
			Port     string `json:"port"`
			Path     string `json:"path"`
			Interval string `json:"interval"`
		} `json:"podMetricsEndpoints"`
	} `json:"spec"`
}

// preStopSeconds is how long the edge's preStop hook waits: an exec of the
// edge binary's own "sleep" (the image has no shell; the hook's "sleep"
// action is beta in 1.30, off before it, so it is refused here).
func preStopSeconds(t *testing.T, edge corev1.Container) int64 {
	t.Helper()
	if edge.Lifecycle == nil || edge.Lifecycle.PreStop == nil {
		return 0
	}
	h := edge.Lifecycle.PreStop
	if h.Sleep != nil {
		t.Errorf("edge: preStop sleep needs Kubernetes 1.30 (beta); docs/operating.md names 1.29: use exec [/app/edge sleep 5s]")
		return 0
	}
	if h.Exec == nil || len(h.Exec.Command) != 3 || h.Exec.Command[0] != "/app/edge" || h.Exec.Command[1] != "sleep" {
		t.Errorf("edge: preStop %+v: want exec [/app/edge sleep DURATION] (distroless: no shell, no sleep)", h)
		return 0
	}
	d, err := time.ParseDuration(h.Exec.Command[2])
	if err != nil {
		t.Errorf("edge: preStop sleep %q: %v", h.Exec.Command[2], err)
	}
	return int64(d / time.Second)
}

// The edge image's entry point is the binary the preStop hook runs.
func TestPreStopRunsTheEdgeImagesBinary(t *testing.T) {
	_, _, spec := production(t)
	if preStopSeconds(t, container(t, spec, "edge")) == 0 {
		t.Error("edge: no preStop wait")
	}
	stages, _ := dockerfile(t)
	if _, ok := stages["edge"]; !ok {
		t.Fatal("deploy/Dockerfile has no edge stage")
	}
}

// With three or more pods, losing one node never takes more than its share:
// spreading across nodes is a requirement, counted per rollout.
func TestPodsSpreadAcrossNodesAsARequirement(t *testing.T) {
	o, _, spec := production(t)
	if min := o.hpas[0].Spec.MinReplicas; min == nil || *min < 3 {
		t.Skip("fewer than 3 replicas: spreading is a preference")
	}
	for _, c := range spec.TopologySpreadConstraints {
		if c.TopologyKey == "kubernetes.io/hostname" && c.WhenUnsatisfiable == corev1.DoNotSchedule && c.MaxSkew == 1 {
			hash := false
			for _, k := range c.MatchLabelKeys {
				hash = hash || k == "pod-template-hash"
			}
			if !hash {
				t.Error("hostname spread: matchLabelKeys [pod-template-hash], or a rolling update's surge pod may stay Pending")
			}
			// With the default (Ignore), nodes whose taints the pods do not
			// tolerate (the control plane, dedicated pools) count as empty
			// domains: under maxSkew 1 the pods beyond one per such node
			// stay Pending.
			if c.NodeTaintsPolicy == nil || *c.NodeTaintsPolicy != corev1.NodeInclusionPolicyHonor {
				t.Error("hostname spread: nodeTaintsPolicy Honor, or untolerated tainted nodes count as empty domains and pods stay Pending")
			}
			return
		}
	}
	t.Error("no topologySpreadConstraint across kubernetes.io/hostname with whenUnsatisfiable DoNotSchedule")
}

// Every container asks for the disk it writes (its emptyDir, its logs), so
// the scheduler counts it and the kubelet evicts the right pod.
func TestEveryContainerRequestsEphemeralStorage(t *testing.T) {
	_, _, spec := production(t)
	for _, c := range append(append([]corev1.Container{}, spec.InitContainers...), spec.Containers...) {
		req, lim := c.Resources.Requests[corev1.ResourceEphemeralStorage], c.Resources.Limits[corev1.ResourceEphemeralStorage]
		if req.IsZero() || lim.IsZero() {
			t.Errorf("%s: ephemeral-storage request and limit are required", c.Name)
		}
	}
}

// The PodMonitor (deploy/k8s/monitoring) scrapes the pods' metrics port, in
// their namespace.
func TestPodMonitorScrapesThePods(t *testing.T) {
	mon := mustRender(t, "monitoring")
	if len(mon.podMonitors) != 1 {
		t.Fatalf("deploy/k8s/monitoring: %d PodMonitors, want 1", len(mon.podMonitors))
	}
	pm := mon.podMonitors[0]
	_, d, spec := production(t)
	if pm.Namespace != d.Namespace {
		t.Errorf("PodMonitor in namespace %q, the pods in %q", pm.Namespace, d.Namespace)
	}
	sel, err := metav1.LabelSelectorAsSelector(&pm.Spec.Selector)
	if err != nil || !sel.Matches(labels.Set(d.Spec.Template.Labels)) {
		t.Errorf("PodMonitor selector %v does not match the pods %v", pm.Spec.Selector, d.Spec.Template.Labels)
	}
	ports := map[string]bool{}
	for _, p := range container(t, spec, "edge").Ports {
		ports[p.Name] = true
	}
	if len(pm.Spec.PodMetricsEndpoints) != 1 || !ports[pm.Spec.PodMetricsEndpoints[0].Port] || pm.Spec.PodMetricsEndpoints[0].Port != "metrics" {
		t.Errorf("PodMonitor endpoints %+v: want the edge's metrics port", pm.Spec.PodMetricsEndpoints)
	}
	if a := d.Spec.Template.Annotations; a["prometheus.io/port"] == "" || !strings.HasPrefix(a["prometheus.io/path"], "/metrics") {
		t.Error("the prometheus.io/* pod annotations are gone: keep them beside the PodMonitor")
	}
}
