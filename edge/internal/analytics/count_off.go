//go:build analytics_nocount

package analytics

// countingOff: a build with `-tags analytics_nocount` counts no page views
// (short links and the staff page still answer). Only bench/run.sh builds
// it, to measure what counting costs a cache hit against the same edge
// without it (rows l and l0); never deployed.
const countingOff = true
