package accounts

import (
	"context"
	"fmt"
	"testing"

	"omnibus/edge/internal/storage"
	"omnibus/edge/internal/storage/storagetest"
)

// An office of twenty behind one address, all signing in and
// asking a reset link in the same minute (three sign-in tries and two reset
// requests each), meets no per-address limit; one account is still limited
// on its own, whatever the address.
func TestOfficeBehindOneAddressMeetsNoLimit(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db *storage.DB) {
		svc := New(db, nil, Options{PublicURL: "http://localhost:8080"})
		const office = "203.0.113.20"
		for person := range 20 {
			for try := range 3 {
				if ok, _ := svc.LoginByIP.Allow(context.Background(), office); !ok {
					t.Fatalf("person %d, sign-in try %d: refused by the per-address limit", person, try)
				}
			}
			for try := range 2 {
				if ok, _ := svc.ResetByIP.Allow(context.Background(), office); !ok {
					t.Fatalf("person %d, reset request %d: refused by the per-address limit", person, try)
				}
			}
		}
		refused := false
		for i := range 6 {
			if ok, _ := svc.LoginByAccount.Allow(context.Background(), fmt.Sprint("account-", 1)); !ok {
				refused = i >= 5
			}
		}
		if !refused {
			t.Errorf("six sign-in tries at one account: none refused")
		}
	})
}
