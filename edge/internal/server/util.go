package server

import (
	"sort"
	"strings"
)

func joinSorted(names []string) string {
	sort.Strings(names)
	return strings.Join(names, ", ")
}
