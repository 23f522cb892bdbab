package buildinfo

import "testing"

func TestDefaultsNameSomething(t *testing.T) {
	if Version() == "" || Commit() == "" {
		t.Fatalf("version %q commit %q: want defaults, never empty", Version(), Commit())
	}
}

func TestLinkerValuesWin(t *testing.T) {
	old := [2]string{version, commit}
	defer func() { version, commit = old[0], old[1] }()
	version, commit = "1.2.3", "abc123"
	if Version() != "1.2.3" || Commit() != "abc123" {
		t.Fatalf("got %s %s, want the -X values", Version(), Commit())
	}
}
