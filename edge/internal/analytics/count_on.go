//go:build !analytics_nocount

package analytics

// countingOff is false in every build but the bench's (count_off.go).
const countingOff = false
