package validate

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// k8sDir is deploy/k8s, the folder above this module.
const k8sDir = ".."

// The edge's secret variables: they must come from the Secret, reach the
// edge (and DATABASE_URL the migrate step) and nothing else.
var secretVars = []string{"DATABASE_URL", "DATABASE_DIRECT_URL", "GOOGLE_CLIENT_SECRET", "CACHE_PURGE_TOKEN", "SMTP_URL", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"}

// objects is one rendered kustomization, every object decoded into its
// Kubernetes API type.
type objects struct {
	namespaces  []corev1.Namespace
	configMaps  []corev1.ConfigMap
	secrets     []corev1.Secret
	services    []corev1.Service
	deployments []appsv1.Deployment
	ingresses   []networkingv1.Ingress
	netpols     []networkingv1.NetworkPolicy
	pdbs        []policyv1.PodDisruptionBudget
	hpas        []autoscalingv2.HorizontalPodAutoscaler
	podMonitors []podMonitor
	namespaceOf map[string]string // "Kind/name" → metadata.namespace
}

// decodeStrict fills into from one object's YAML, refusing any field the
// API type does not have (a misspelt or misplaced key is an error, not a
// silently dropped setting).
func decodeStrict(doc []byte, into any) error {
	return yaml.UnmarshalStrict(doc, into)
}

// decodeInto decodes one object strictly and keeps it in list.
func decodeInto[T any](doc []byte, list *[]T) error {
	var x T
	if err := decodeStrict(doc, &x); err != nil {
		return err
	}
	*list = append(*list, x)
	return nil
}

func (o *objects) add(apiVersion, kind string, doc []byte) error {
	switch apiVersion + " " + kind {
	case "v1 Namespace":
		return decodeInto(doc, &o.namespaces)
	case "v1 ConfigMap":
		return decodeInto(doc, &o.configMaps)
	case "v1 Secret":
		return decodeInto(doc, &o.secrets)
	case "v1 Service":
		return decodeInto(doc, &o.services)
	case "apps/v1 Deployment":
		return decodeInto(doc, &o.deployments)
	case "networking.k8s.io/v1 Ingress":
		return decodeInto(doc, &o.ingresses)
	case "networking.k8s.io/v1 NetworkPolicy":
		return decodeInto(doc, &o.netpols)
	case "policy/v1 PodDisruptionBudget":
		return decodeInto(doc, &o.pdbs)
	case "monitoring.coreos.com/v1 PodMonitor":
		return decodeInto(doc, &o.podMonitors)
	case "autoscaling/v2 HorizontalPodAutoscaler":
		return decodeInto(doc, &o.hpas)
	}
	return fmt.Errorf("%s %s: no API type known to this test (add it to objects.add)", apiVersion, kind)
}

// loadTree copies deploy/k8s (without this module) into an in-memory file
// system, with each overlay's secrets.env taken from its example when the
// real one (git-ignored) is absent, so the render never depends on local
// secrets.
func loadTree(t *testing.T) filesys.FileSystem {
	t.Helper()
	mem := filesys.MakeFsInMemory()
	err := filepath.WalkDir(k8sDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(k8sDir, p)
		if d.IsDir() {
			if rel == "validate" {
				return filepath.SkipDir
			}
			return mem.MkdirAll(filepath.Join("/k8s", rel))
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.HasSuffix(rel, "secrets.env") {
			return nil // never read real secrets into a test
		}
		if err := mem.WriteFile(filepath.Join("/k8s", rel), b); err != nil {
			return err
		}
		if strings.HasSuffix(rel, "secrets.env.example") {
			return mem.WriteFile(filepath.Join("/k8s", strings.TrimSuffix(rel, ".example")), b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return mem
}

// render builds one kustomization of the tree with kustomize's own library
// and decodes every object strictly.
func render(fsys filesys.FileSystem, dir string) (*objects, error) {
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(fsys, filepath.Join("/k8s", dir))
	if err != nil {
		return nil, fmt.Errorf("kustomize build %s: %w", dir, err)
	}
	o := &objects{namespaceOf: map[string]string{}}
	for _, r := range m.Resources() {
		doc, err := r.AsYAML()
		if err != nil {
			return nil, err
		}
		if err := o.add(r.GetApiVersion(), r.GetKind(), doc); err != nil {
			return nil, fmt.Errorf("%s %s/%s: %w", dir, r.GetKind(), r.GetName(), err)
		}
		o.namespaceOf[r.GetKind()+"/"+r.GetName()] = r.GetNamespace()
	}
	return o, nil
}

func mustRender(t *testing.T, dir string) *objects {
	t.Helper()
	o, err := render(loadTree(t), dir)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestEveryKustomizationRendersAndValidatesStrictly(t *testing.T) {
	for _, dir := range []string{"base", "overlays/production"} {
		t.Run(dir, func(t *testing.T) {
			o := mustRender(t, dir)
			if len(o.deployments) != 1 || len(o.services) != 1 || len(o.ingresses) != 1 || len(o.pdbs) != 1 || len(o.hpas) != 1 || len(o.configMaps) != 1 {
				t.Fatalf("want one each of Deployment, Service, Ingress, PodDisruptionBudget, HorizontalPodAutoscaler, ConfigMap; got %d %d %d %d %d %d",
					len(o.deployments), len(o.services), len(o.ingresses), len(o.pdbs), len(o.hpas), len(o.configMaps))
			}
		})
	}
}

// The validator itself refuses what the API server would: a misspelt field
// deep in a pod spec, and a field in the wrong place.
func TestStrictValidationRefusesUnknownFields(t *testing.T) {
	for name, edit := range map[string][2]string{
		"misspelt probe path": {"              path: /readyz\n", "              paht: /readyz\n"},
		"misplaced field":     {"      enableServiceLinks: false\n", "      enableServiceLinks: false\n      readOnlyRootFilesystem: true\n"},
		"bad quantity":        {"              memory: 512Mi\n", "              memory: 512 megabytes\n"},
	} {
		t.Run(name, func(t *testing.T) {
			fsys := loadTree(t)
			p := "/k8s/base/deployment.yaml"
			b, err := fsys.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), edit[0]) {
				t.Fatalf("deployment.yaml no longer contains %q: update this test", edit[0])
			}
			if err := fsys.WriteFile(p, []byte(strings.Replace(string(b), edit[0], edit[1], 1))); err != nil {
				t.Fatal(err)
			}
			if _, err := render(fsys, "overlays/production"); err == nil {
				t.Fatalf("%s: rendered and validated without error", name)
			} else {
				t.Logf("refused as expected: %v", err)
			}
		})
	}
}

func production(t *testing.T) (*objects, appsv1.Deployment, corev1.PodSpec) {
	t.Helper()
	o := mustRender(t, "overlays/production")
	d := o.deployments[0]
	return o, d, d.Spec.Template.Spec
}

func container(t *testing.T, spec corev1.PodSpec, name string) corev1.Container {
	t.Helper()
	for _, c := range append(append([]corev1.Container{}, spec.InitContainers...), spec.Containers...) {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no container %q in the pod", name)
	return corev1.Container{}
}

func envVar(c corev1.Container, name string) (corev1.EnvVar, bool) {
	for _, e := range c.Env {
		if e.Name == name {
			return e, true
		}
	}
	return corev1.EnvVar{}, false
}

func TestEveryObjectIsInTheProductionNamespace(t *testing.T) {
	o, _, _ := production(t)
	if len(o.namespaces) != 1 {
		t.Fatalf("want the overlay to create its namespace, got %d Namespace objects", len(o.namespaces))
	}
	ns := o.namespaces[0].Name
	for key, got := range o.namespaceOf {
		if key != "Namespace/"+ns && got != ns {
			t.Errorf("%s is in namespace %q, want %q", key, got, ns)
		}
	}
}

// Non-root, read-only root filesystem, no privilege escalation, no
// capabilities, bounded memory, for every container including init steps.
func TestEveryContainerIsLockedDownAndBounded(t *testing.T) {
	_, _, spec := production(t)
	if spec.SecurityContext == nil || spec.SecurityContext.RunAsNonRoot == nil || !*spec.SecurityContext.RunAsNonRoot {
		t.Error("pod: runAsNonRoot must be true")
	}
	if spec.AutomountServiceAccountToken == nil || *spec.AutomountServiceAccountToken {
		t.Error("pod: the site never talks to the Kubernetes API; automountServiceAccountToken must be false")
	}
	if spec.EnableServiceLinks == nil || *spec.EnableServiceLinks {
		t.Error("pod: enableServiceLinks must be false (Service variables like RENDERER_PORT=tcp://... would reach the edge's configuration)")
	}
	all := append(append([]corev1.Container{}, spec.InitContainers...), spec.Containers...)
	for _, c := range all {
		sc := c.SecurityContext
		switch {
		case sc == nil:
			t.Errorf("%s: no securityContext", c.Name)
			continue
		case sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem:
			t.Errorf("%s: readOnlyRootFilesystem must be true", c.Name)
		case sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation:
			t.Errorf("%s: allowPrivilegeEscalation must be false", c.Name)
		case sc.RunAsUser == nil || *sc.RunAsUser == 0:
			t.Errorf("%s: runAsUser must be a non-zero uid (the images' users are numeric)", c.Name)
		case sc.Capabilities == nil || len(sc.Capabilities.Drop) != 1 || sc.Capabilities.Drop[0] != "ALL":
			t.Errorf("%s: capabilities must drop ALL", c.Name)
		}
		if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() {
			t.Errorf("%s: cpu and memory requests are required (the autoscaler and the scheduler use them)", c.Name)
		}
		if c.Resources.Limits.Memory().IsZero() {
			t.Errorf("%s: a memory limit is required", c.Name)
		}
		if strings.HasSuffix(c.Image, ":latest") || !strings.Contains(c.Image, "/") {
			t.Errorf("%s: image %q: production needs a registry and a fixed tag", c.Name, c.Image)
		}
	}
}

func TestEdgeProbesPortsAndMemoryLimit(t *testing.T) {
	o, d, spec := production(t)
	edge := container(t, spec, "edge")
	ports := map[string]int32{}
	for _, p := range edge.Ports {
		ports[p.Name] = p.ContainerPort
	}
	listen, _ := envVar(edge, "LISTEN_ADDR")
	if want := fmt.Sprintf(":%d", ports["http"]); listen.Value != want {
		t.Errorf("LISTEN_ADDR %q, want %q (the http containerPort)", listen.Value, want)
	}
	for probe, want := range map[*corev1.Probe]string{edge.ReadinessProbe: "/readyz", edge.LivenessProbe: "/healthz"} {
		if probe == nil || probe.HTTPGet == nil {
			t.Errorf("edge: want an HTTP probe on %s", want)
			continue
		}
		if probe.HTTPGet.Path != want || probe.HTTPGet.Port.StrVal != "http" {
			t.Errorf("edge probe: %s on port %q, want %s on the http port", probe.HTTPGet.Path, probe.HTTPGet.Port.String(), want)
		}
	}

	// Metrics: their own port, named, scraped by annotation, never on the Service.
	metrics, _ := envVar(edge, "METRICS_ADDR")
	if ports["metrics"] == 0 || metrics.Value != fmt.Sprintf(":%d", ports["metrics"]) {
		t.Errorf("METRICS_ADDR %q must be the metrics containerPort %d", metrics.Value, ports["metrics"])
	}
	if a := d.Spec.Template.Annotations["prometheus.io/port"]; a != strconv.Itoa(int(ports["metrics"])) {
		t.Errorf("prometheus.io/port annotation %q, want the metrics port %d", a, ports["metrics"])
	}
	for _, p := range o.services[0].Spec.Ports {
		if p.TargetPort.StrVal == "metrics" || p.TargetPort.IntVal == ports["metrics"] {
			t.Error("the Service (behind the Ingress) must not expose the metrics port")
		}
	}

	// GOMEMLIMIT: a soft limit below the container's hard one.
	gml, ok := envVar(edge, "GOMEMLIMIT")
	if !ok {
		t.Fatal("edge: GOMEMLIMIT is not set")
	}
	soft, err := resource.ParseQuantity(strings.TrimSuffix(gml.Value, "B"))
	if err != nil {
		t.Fatalf("GOMEMLIMIT %q: %v", gml.Value, err)
	}
	hard := edge.Resources.Limits.Memory()
	if soft.Cmp(*hard) >= 0 || soft.Value() < hard.Value()*7/10 {
		t.Errorf("GOMEMLIMIT %s should be 70-99%% of the memory limit %s", gml.Value, hard)
	}
	// GOGC above Go's default trades memory for CPU: only under GOMEMLIMIT,
	// which is what keeps the heap inside the container.
	if gogc, ok := envVar(edge, "GOGC"); ok {
		if n, err := strconv.Atoi(gogc.Value); err != nil || n < 100 || n > 1000 {
			t.Errorf("GOGC %q: want a percentage from 100 to 1000 (off would leave only the soft limit)", gogc.Value)
		}
	}
	cacheBytes, _ := strconv.ParseInt(configValue(t, o, "CACHE_MAX_BYTES"), 10, 64)
	if cacheBytes <= 0 || cacheBytes > soft.Value()/2 {
		t.Errorf("CACHE_MAX_BYTES %d must fit well inside GOMEMLIMIT %s", cacheBytes, gml.Value)
	}
}

// The renderer's metrics reach the pod's one scrape target: the edge fetches
// them from the port the renderer serves them on.
func TestRendererMetricsAreScrapedThroughTheEdge(t *testing.T) {
	_, _, spec := production(t)
	port, ok := envVar(container(t, spec, "renderer"), "METRICS_PORT")
	if !ok {
		t.Fatal("renderer: METRICS_PORT is not set, so its render-time and event-loop series exist nowhere")
	}
	url, _ := envVar(container(t, spec, "edge"), "RENDERER_METRICS_URL")
	if want := "http://127.0.0.1:" + port.Value + "/metrics"; url.Value != want {
		t.Errorf("edge RENDERER_METRICS_URL %q, want %q (the renderer's METRICS_PORT on the pod's loopback)", url.Value, want)
	}
}

// Behind the Ingress every request comes from the controller: unless the edge
// believes its X-Forwarded-For, all visitors share one address and one rate
// limit. Believing a whole pod network is only safe when no other pod can
// reach the edge's port.
func TestOnlyTheTrustedProxyReachesTheEdge(t *testing.T) {
	o, d, _ := production(t)
	if configValue(t, o, "TRUSTED_PROXIES") == "" {
		t.Fatal("TRUSTED_PROXIES is empty: behind the Ingress every visitor would be the controller's address")
	}
	var covered bool
	for _, np := range o.netpols {
		sel, err := metav1.LabelSelectorAsSelector(&np.Spec.PodSelector)
		if err != nil || !sel.Matches(labels.Set(d.Spec.Template.Labels)) {
			continue
		}
		covered = true
		for _, rule := range np.Spec.Ingress {
			if len(rule.From) == 0 {
				t.Errorf("NetworkPolicy %s admits every source", np.Name)
			}
			for _, p := range rule.Ports {
				if p.Port != nil && p.Port.StrVal == "http" {
					for _, from := range rule.From {
						if from.NamespaceSelector == nil || len(from.NamespaceSelector.MatchLabels) == 0 {
							t.Errorf("NetworkPolicy %s: the http port must be open to the ingress controller's namespace only", np.Name)
						}
					}
				}
			}
		}
	}
	if !covered {
		t.Error("no NetworkPolicy selects the edge's pods: any pod in TRUSTED_PROXIES could forge X-Forwarded-For")
	}
}

func configValue(t *testing.T, o *objects, key string) string {
	t.Helper()
	v, ok := o.configMaps[0].Data[key]
	if !ok {
		t.Fatalf("ConfigMap has no %s", key)
	}
	return v
}

// The secret variables come from the generated Secret, the renderer sees
// none of them, the migrate step only the database URL, and no secret is
// written into the ConfigMap.
func TestSecretsReachOnlyTheEdge(t *testing.T) {
	o, _, spec := production(t)
	if len(o.secrets) != 1 {
		t.Fatalf("want one Secret, got %d", len(o.secrets))
	}
	secret := o.secrets[0]
	edge := container(t, spec, "edge")
	for _, name := range secretVars {
		e, ok := envVar(edge, name)
		if !ok || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
			t.Errorf("edge: %s must come from a secretKeyRef", name)
			continue
		}
		ref := e.ValueFrom.SecretKeyRef
		if ref.Name != secret.Name {
			t.Errorf("edge: %s refers to Secret %q, but the rendered Secret is %q", name, ref.Name, secret.Name)
		}
		if _, ok := secret.Data[ref.Key]; !ok && (ref.Optional == nil || !*ref.Optional) {
			t.Errorf("the Secret has no key %s, and the edge cannot start without it", ref.Key)
		}
		if _, ok := o.configMaps[0].Data[name]; ok {
			t.Errorf("%s is in the ConfigMap: secrets belong in the Secret", name)
		}
	}
	if db, _ := envVar(edge, "DATABASE_URL"); db.ValueFrom != nil && db.ValueFrom.SecretKeyRef != nil &&
		db.ValueFrom.SecretKeyRef.Optional != nil && *db.ValueFrom.SecretKeyRef.Optional {
		t.Error("DATABASE_URL must not be optional: replicas need the shared PostgreSQL")
	}
	renderer := container(t, spec, "renderer")
	if len(renderer.EnvFrom) > 0 {
		t.Error("renderer: no envFrom; it gets the variables it needs one by one")
	}
	for _, e := range renderer.Env {
		if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
			t.Errorf("renderer: %s comes from a Secret; the renderer needs no secret", e.Name)
		}
		for _, s := range secretVars {
			if e.Name == s {
				t.Errorf("renderer: has %s", s)
			}
		}
	}
	migrate := container(t, spec, "migrate")
	if len(migrate.EnvFrom) > 0 || len(migrate.Env) != 2 || migrate.Env[0].Name != "DATABASE_URL" || migrate.Env[1].Name != "DATABASE_DIRECT_URL" {
		t.Errorf("migrate: want DATABASE_URL and DATABASE_DIRECT_URL only, got %+v %+v", migrate.Env, migrate.EnvFrom)
	}
	// Every ConfigMap reference resolves to the generated (hash-suffixed) one.
	cm := o.configMaps[0].Name
	for _, c := range append(append([]corev1.Container{}, spec.InitContainers...), spec.Containers...) {
		for _, ef := range c.EnvFrom {
			if ef.ConfigMapRef != nil && ef.ConfigMapRef.Name != cm {
				t.Errorf("%s: envFrom ConfigMap %q, rendered is %q", c.Name, ef.ConfigMapRef.Name, cm)
			}
		}
		for _, e := range c.Env {
			if e.ValueFrom != nil && e.ValueFrom.ConfigMapKeyRef != nil && e.ValueFrom.ConfigMapKeyRef.Name != cm {
				t.Errorf("%s: %s from ConfigMap %q, rendered is %q", c.Name, e.Name, e.ValueFrom.ConfigMapKeyRef.Name, cm)
			}
		}
	}
}

// Migrations first, then the renderer as a native sidecar (it starts before
// the edge and stops after it), then the edge (its grace period:
// TestPodGracePeriodCoversTheWholeDrain).
func TestStartAndStopOrder(t *testing.T) {
	_, _, spec := production(t)
	if len(spec.InitContainers) != 2 || spec.InitContainers[0].Name != "migrate" || spec.InitContainers[1].Name != "renderer" {
		t.Fatalf("init containers: want [migrate renderer]")
	}
	if args := spec.InitContainers[0].Args; len(args) != 1 || args[0] != "migrate" {
		t.Errorf("migrate runs %v, want the edge's migrate subcommand", args)
	}
	r := spec.InitContainers[1]
	if r.RestartPolicy == nil || *r.RestartPolicy != corev1.ContainerRestartPolicyAlways {
		t.Error("renderer: restartPolicy Always (a sidecar: stopped after the edge)")
	}
	if r.StartupProbe == nil || r.LivenessProbe == nil {
		t.Error("renderer: needs a startup probe (the edge starts after it) and a liveness probe")
	}
	// The renderer never calls the edge (decision 0023): it is given no address of it.
	if api, ok := envVar(r, "API_URL"); ok {
		t.Errorf("renderer API_URL %q: the renderer never calls the edge; remove it", api.Value)
	}
	edge := container(t, spec, "edge")
	if u, _ := envVar(edge, "RENDERER_URL"); !strings.HasPrefix(u.Value, "http://127.0.0.1:") {
		t.Errorf("edge RENDERER_URL %q: the renderer is on the pod's loopback", u.Value)
	}
	if preStopSeconds(t, edge) == 0 {
		t.Error("edge: a preStop sleep lets the endpoint removal reach the Ingress before the drain")
	}
}

// The Service, the Ingress, the budget and the autoscaler all point at the
// Deployment's pods.
func TestObjectsReferToEachOther(t *testing.T) {
	o, d, spec := production(t)
	podLabels := labels.Set(d.Spec.Template.Labels)
	sel := labels.SelectorFromSet(d.Spec.Selector.MatchLabels)
	if !sel.Matches(podLabels) {
		t.Fatal("the Deployment's selector does not match its pods")
	}
	svc := o.services[0]
	if !labels.SelectorFromSet(svc.Spec.Selector).Matches(podLabels) {
		t.Errorf("Service selector %v does not match the pods %v", svc.Spec.Selector, podLabels)
	}
	named := map[string]bool{}
	for _, p := range container(t, spec, "edge").Ports {
		named[p.Name] = true
	}
	svcPorts := map[string]bool{}
	for _, p := range svc.Spec.Ports {
		svcPorts[p.Name] = true
		if !named[p.TargetPort.StrVal] {
			t.Errorf("Service port %s targets %q, not a named edge port", p.Name, p.TargetPort.String())
		}
	}
	ing := o.ingresses[0]
	if ing.Spec.IngressClassName == nil || len(ing.Spec.TLS) == 0 {
		t.Error("production Ingress: an ingressClassName and TLS are required")
	}
	for k := range ing.Annotations {
		if strings.Contains(k, "affinity") {
			t.Errorf("Ingress annotation %s: session affinity sets a cookie, and a page with Set-Cookie is never cached", k)
		}
	}
	for _, rule := range ing.Spec.Rules {
		for _, p := range rule.HTTP.Paths {
			b := p.Backend.Service
			if b == nil || b.Name != svc.Name || !svcPorts[b.Port.Name] {
				t.Errorf("Ingress %s%s: backend %+v is not the Service's named port", rule.Host, p.Path, b)
			}
		}
	}
	pdb := o.pdbs[0]
	pdbSel, err := metaSelector(pdb.Spec.Selector.MatchLabels)
	if err != nil || !pdbSel.Matches(podLabels) {
		t.Errorf("PodDisruptionBudget selector does not match the pods")
	}
	if pdb.Spec.MaxUnavailable == nil && pdb.Spec.MinAvailable == nil {
		t.Error("PodDisruptionBudget: set maxUnavailable or minAvailable")
	}
	hpa := o.hpas[0]
	if ref := hpa.Spec.ScaleTargetRef; ref.Kind != "Deployment" || ref.Name != d.Name || ref.APIVersion != "apps/v1" {
		t.Errorf("HPA scales %+v, want Deployment %s", ref, d.Name)
	}
	if hpa.Spec.MinReplicas == nil || *hpa.Spec.MinReplicas < 2 || hpa.Spec.MaxReplicas <= *hpa.Spec.MinReplicas {
		t.Error("HPA: at least two replicas (the budget allows one down), and room to grow")
	}
	if d.Spec.Replicas != nil {
		t.Error("Deployment: leave replicas to the HPA (kubectl apply would reset the count on each deploy)")
	}
}

func metaSelector(m map[string]string) (labels.Selector, error) {
	if len(m) == 0 {
		return nil, fmt.Errorf("empty selector")
	}
	return labels.SelectorFromSet(m), nil
}
