// Package validate holds the deployment checks that need no cluster and no
// Docker engine: deploy/k8s rendered by kustomize and validated strictly
// against Kubernetes' own API types, and docker-compose.yml loaded by the
// Compose specification's own loader. It is a module of its own so the edge
// binary never depends on Kubernetes packages.
package validate
