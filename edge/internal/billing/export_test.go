package billing

// SetCrash replaces the fault-injection point (crash_test.go's child edge).
func SetCrash(f func(stage string)) { crash = f }
