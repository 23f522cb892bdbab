// Package validate holds the deployment checks that need no cluster and no
// Docker engine, run by make test-go:
//
//   - deploy/k8s rendered with kustomize's library (krusty) and every object
//     decoded strictly into its k8s.io/api type, then checked for what the
//     API server would not catch (probes, ports, secrets, references), and
//     the pods against the restricted Pod Security Standard;
//   - docker-compose.yml loaded with the Compose specification's own loader,
//     and deploy/Dockerfile's stages (one client build for both images);
//   - the edge binary accepting the configuration both of them give it;
//   - what the packaging promises: images pinned to exact versions, the
//     image's Go equal to go.mod's toolchain, grace periods that cover the
//     drain, the database connection budget, kube-score's findings
//     addressed or explained (kube-score built from the module proxy).
//
// It is a module of its own so the edge binary never depends on Kubernetes
// packages.
package validate
