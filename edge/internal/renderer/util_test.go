package renderer_test

import "strconv"

func itoa(n int) string { return strconv.Itoa(n) }

func mustAtoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}
