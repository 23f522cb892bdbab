// Package stack holds the deployment tests that run real processes from the
// repository's deploy/ artefacts, with no Docker engine and no cluster
// (make test-go runs them):
//
//   - image_test.go assembles each image's file tree by replaying
//     deploy/Dockerfile (dockerfile.go) into temporary directories, with
//     production dependencies only, and serves / from the two trees;
//   - varnish_test.go runs Debian's varnishd with deploy/varnish/default.vcl
//     in front of a real edge (the CDN the docs recommend), reading
//     Varnish's own log (varnishlog) for what it stored and fetched;
//   - alerts_test.go checks deploy/prometheus/alerts.yml with promtool and
//     runs its unit tests (deploy/prometheus/alerts_test.yml).
//
// It is a module of its own, with no dependencies: the edge never depends on
// it, and it only drives binaries.
package stack
