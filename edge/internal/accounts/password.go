package accounts

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// argon2id parameters: OWASP's recommended minimum (19 MiB, 2 passes, 1
// lane), about 30 ms on one core. Stored in each hash (PHC string format),
// so they can be raised later without breaking old hashes.
const (
	argonMemory  = 19 * 1024
	argonTime    = 2
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// passwordCost is what hashPassword spends: the production parameters above.
// The tests of this package that are not about hashing lower it (TestMain in
// helpers_test.go), so the suite does not spend its minutes in argon2; the
// parameters are stored in each hash, so checkPassword reads either.
var passwordCost = struct{ memory, time uint32 }{argonMemory, argonTime}

// Password length rules (NIST SP 800-63B: length, not composition, plus a
// list of passwords known to be common).
const (
	minPassword = 8
	maxPassword = 128
)

// hashPassword returns the argon2id PHC string for password.
func hashPassword(password string) string {
	salt := make([]byte, argonSaltLen)
	rand.Read(salt)
	cost := passwordCost
	key := argon2.IDKey([]byte(password), salt, cost.time, cost.memory, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, cost.memory, cost.time, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key))
}

// checkPassword reports whether password matches the PHC string, in
// constant time. An empty or malformed hash never matches.
func checkPassword(hash, password string) bool {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var version int
	var mem, iter uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &iter, &threads); err != nil || mem == 0 || iter == 0 || threads == 0 {
		return false
	}
	b64 := base64.RawStdEncoding
	salt, err1 := b64.DecodeString(parts[4])
	want, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, iter, mem, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// dummyHash is checked when no account matches, so a wrong e-mail takes as
// long as a wrong password and timing does not tell which accounts exist.
var dummyHash = sync.OnceValue(func() string { return hashPassword("not a real password") })

// passwordProblem says why password is refused for an account with this
// e-mail and store name, or "" when it is acceptable.
func passwordProblem(password, email, storeName string) string {
	n := utf8.RuneCountInString(password)
	switch {
	case strings.TrimSpace(password) == "":
		return codePasswordRequired
	case n < minPassword:
		return codePasswordTooShort
	case n > maxPassword || len(password) > 4*maxPassword:
		return codePasswordTooLong
	}
	p := strings.ToLower(password)
	if p == strings.ToLower(email) || (storeName != "" && p == strings.ToLower(storeName)) {
		return codePasswordIsEmail
	}
	if commonPasswords[p] || oneCharacter(p) {
		return codePasswordCommon
	}
	return ""
}

func oneCharacter(s string) bool {
	for _, r := range s {
		if r != rune(s[0]) {
			return false
		}
	}
	return true
}

// commonPasswords are the most used passwords of at least 8 characters in
// public breach lists (lower-cased); the rules refuse them outright.
var commonPasswords = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range strings.Fields(`
		12345678 123456789 1234567890 12345678910 123123123 1234512345 0123456789
		11111111 00000000 88888888 87654321 987654321 11223344 12341234 123321123
		password password1 password12 password123 password1234 passw0rd p@ssw0rd p@ssword
		qwertyui qwertyuiop qwerty12 qwerty123 qwerty1234 1q2w3e4r 1q2w3e4r5t 1qaz2wsx
		zaq12wsx asdfghjk asdfghjkl zxcvbnm1 abcd1234 abc12345 abcdefgh a1b2c3d4
		iloveyou iloveyou1 sunshine princess football baseball basketball superman
		batman123 starwars whatever trustno1 letmein1 letmein123 welcome1 welcome123
		admin123 administrator changeme computer internet michelle jennifer charlie1
		monkey123 dragon123 shadow123 master123 freedom1 babygirl1 hello123 lovely123
		omnibus omnibus1 omnibus123 mystore1 mystore123 shopping online123 google123`) {
		m[p] = true
	}
	return m
}()

// The hashing queue: callers wait at most hashQueueDeadline for a slot, and
// at most hashQueueWaiting wait at once (a waiting request holds only its
// small body); past that the answer is 503 with Retry-After.
const (
	hashQueueDeadline = 2 * time.Second
	hashQueueWaiting  = 64
)

// errBusy is the answer when the hashing queue refuses a request.
var errBusy = &problem{Status: http.StatusServiceUnavailable, Code: codeBusy, RetryAfter: hashQueueDeadline}

// hash is hashPassword run under the hashing bound.
func (s *Service) hash(ctx context.Context, password string) (h string, p *problem) {
	if err := s.Hashing.Do(ctx, func() { h = hashPassword(password) }); err != nil {
		return "", errBusy
	}
	return h, nil
}

// check is checkPassword run under the hashing bound; a known device's
// check goes ahead of strangers' (hashqueue.DoFirst).
func (s *Service) check(ctx context.Context, hash, password string, knownDevice bool) (ok bool, p *problem) {
	do := s.Hashing.Do
	if knownDevice {
		do = s.Hashing.DoFirst
	}
	if err := do(ctx, func() { ok = checkPassword(hash, password) }); err != nil {
		return false, errBusy
	}
	return ok, nil
}
