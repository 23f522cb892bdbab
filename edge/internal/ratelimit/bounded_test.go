package ratelimit

import (
	"context"
	"fmt"
	"net/netip"
	"runtime"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"omnibus/edge/internal/metrics"
)

// heapInuse is the heap in use after a full collection.
func heapInuse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// A flood from 1 M distinct addresses leaves the limiter's memory under a
// fixed ceiling (1.7 M addresses took the edge from 31 to
// 746 MiB), and the client that keeps trying through it is still limited.
func TestMemoryHasACeiling(t *testing.T) {
	const addresses = 1_000_000
	const bound = 16 << 20 // the default 65,536 keys take about 8 MiB
	before := heapInuse()
	l := Keys{}.For(nil, "test_flood", 5, time.Minute)
	for range 5 {
		l.Allow(context.Background(), l.ClientKey("198.51.100.7"))
	}
	for i := range addresses {
		ip := netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}).String()
		l.Allow(context.Background(), l.ClientKey(ip))
		if i%1000 == 0 { // the persistent client keeps trying through the flood
			if ok, _ := l.Allow(context.Background(), l.ClientKey("198.51.100.7")); ok {
				t.Fatalf("the persistent client got through after %d flood addresses", i)
			}
		}
	}
	grown := int64(heapInuse()) - int64(before)
	t.Logf("heap grew %.1f MiB for %d addresses (ceiling %d keys, bound %d MiB)", float64(grown)/(1<<20), addresses, l.buckets.Len(), bound>>20)
	if grown > bound {
		t.Fatalf("heap grew %d MiB for %d addresses, want below %d MiB", grown>>20, addresses, bound>>20)
	}
	if l.buckets.Len() > DefaultMaxKeys {
		t.Fatalf("%d keys kept, ceiling %d", l.buckets.Len(), DefaultMaxKeys)
	}
	// The ceiling and the keys held are metrics.
	if got := testutil.ToFloat64(metrics.RateLimitMaxKeys("test_flood")); got != float64(DefaultMaxKeys) {
		t.Errorf("omnibus_ratelimit_keys_max = %v, want %d", got, DefaultMaxKeys)
	}
	if got := testutil.ToFloat64(metrics.RateLimitKeys("test_flood")); got != float64(l.buckets.Len()) {
		t.Errorf("omnibus_ratelimit_keys = %v, want %d", got, l.buckets.Len())
	}
}

// IPv6 clients are one client per /64 (configurable): 30 guesses from 30
// addresses of one /64 are 30 events of one key.
func TestIPv6PerPrefix(t *testing.T) {
	l := New(20, time.Minute)
	allowed := 0
	for i := range 30 {
		if ok, _ := l.Allow(context.Background(), l.ClientKey(fmt.Sprintf("2001:db8:1:2:%x::1", i+1))); ok {
			allowed++
		}
	}
	if allowed != 20 {
		t.Fatalf("%d of 30 addresses of one /64 allowed, want the burst of 20", allowed)
	}
	if ok, _ := l.Allow(context.Background(), l.ClientKey("2001:db8:1:3::1")); !ok {
		t.Fatal("the next /64 was refused")
	}
	for _, c := range []struct {
		prefix  int
		in, out string
	}{
		{64, "2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"},
		{48, "2001:db8:1:2::1", "2001:db8:1::/48"},
		{128, "2001:db8::1", "2001:db8::1"},
		{64, "::ffff:192.0.2.1", "192.0.2.1"},
		{64, "192.0.2.1", "192.0.2.1"},
		{0, "2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"}, // the zero Keys: the default /64
	} {
		if got := (Keys{IPv6Prefix: c.prefix}).ClientKey(c.in); got != c.out {
			t.Errorf("/%d %s: %s, want %s", c.prefix, c.in, got, c.out)
		}
	}
}

// Each limiter keys clients by the Keys it was made with, not by a setting
// of the package: two edges in one process (as the tests run them) with
// different RATE_LIMIT_IPV6_PREFIX each limit by their own network, and
// each keeps its own ceiling of keys.
func TestLimitersKeepTheirOwnKeys(t *testing.T) {
	wide := Keys{Max: 2, IPv6Prefix: 48}.For(nil, "test_keys_wide", 1, time.Hour)
	narrow := Keys{Max: 3, IPv6Prefix: 64}.For(nil, "test_keys_narrow", 1, time.Hour)
	a, b := "2001:db8:1:2::1", "2001:db8:1:3::1" // one /48, two /64s
	if wide.ClientKey(a) != wide.ClientKey(b) {
		t.Errorf("a /48 limiter keys %s and %s apart: %s, %s", a, b, wide.ClientKey(a), wide.ClientKey(b))
	}
	if narrow.ClientKey(a) == narrow.ClientKey(b) {
		t.Errorf("a /64 limiter keys %s and %s as one: %s", a, b, narrow.ClientKey(a))
	}
	// The second address's request is its own client for the /64 limiter
	// only.
	for _, l := range []*Limiter{wide, narrow} {
		l.Allow(context.Background(), l.ClientKey(a))
	}
	if ok, _ := wide.Allow(context.Background(), wide.ClientKey(b)); ok {
		t.Error("the /48 limiter allowed a second address of the network it had limited")
	}
	if ok, _ := narrow.Allow(context.Background(), narrow.ClientKey(b)); !ok {
		t.Error("the /64 limiter refused another /64")
	}
	for l, want := range map[string]float64{"test_keys_wide": 2, "test_keys_narrow": 3} {
		if got := testutil.ToFloat64(metrics.RateLimitMaxKeys(l)); got != want {
			t.Errorf("%s: omnibus_ratelimit_keys_max = %v, want %v", l, got, want)
		}
	}
}
