package accounts

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"omnibus/shared"
)

// Device cookies (OWASP's "Slow Down Online Guessing Attacks with Device
// Cookies"). A successful sign-in (password or Google) gives the browser a
// cookie, signed by the edge, naming the account's e-mail (hashed) and when
// it expires. A sign-in to that account from that browser skips the
// per-account limits strangers' guesses run into, and its password check
// goes ahead of theirs in the hashing queue; so a flood of guesses from
// many addresses, which locks the account to strangers, does not lock its
// owner out. A device cookie is limited on its own (LoginByDevice), so a
// stolen one is no way around the limit either.

// DeviceCookieName is shared/http.json's deviceCookie.
var DeviceCookieName = shared.HTTP.DeviceCookie

// deviceTTL is how long a device stays known after its last sign-in.
const deviceTTL = 180 * 24 * time.Hour

// The cookie's value: base64url of the e-mail's hash (16 bytes), a random
// id (16 bytes, LoginByDevice's key) and the expiry (8 bytes, Unix
// seconds), then the HMAC-SHA256 of those 40 bytes.
const devicePayload = 16 + 16 + 8

// deviceKey is the HMAC key, from the signing_keys table (made by the
// first instance that needs it, so every instance and restart shares it).
type deviceKey struct {
	mu  sync.Mutex
	key []byte
}

func (s *Service) deviceKey(ctx context.Context) ([]byte, error) {
	s.devices.mu.Lock()
	defer s.devices.mu.Unlock()
	if s.devices.key != nil {
		return s.devices.key, nil
	}
	fresh := make([]byte, 32)
	rand.Read(fresh)
	db := s.db.WithContext(ctx)
	if err := db.Exec("INSERT INTO signing_keys (name, secret) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", "device_cookie", hex.EncodeToString(fresh)).Error; err != nil {
		return nil, err
	}
	var secret string
	if err := db.Raw("SELECT secret FROM signing_keys WHERE name = ?", "device_cookie").Scan(&secret).Error; err != nil {
		return nil, err
	}
	key, err := hex.DecodeString(secret)
	if err != nil || len(key) < 32 {
		return nil, errors.New("accounts: signing_keys: device_cookie is not a 32-byte hex key")
	}
	s.devices.key = key
	return key, nil
}

func emailHash(email string) []byte {
	sum := sha256.Sum256([]byte("device:" + email))
	return sum[:16]
}

func deviceMAC(key, payload []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(payload)
	return m.Sum(nil)
}

// knownDevice is the id of the request's device cookie when it is valid
// for email, else "".
func (s *Service) knownDevice(r *http.Request, email string) string {
	c, err := r.Cookie(DeviceCookieName)
	if err != nil || len(c.Value) > 128 {
		return ""
	}
	raw, err := base64.RawURLEncoding.DecodeString(c.Value)
	if err != nil || len(raw) != devicePayload+sha256.Size {
		return ""
	}
	key, err := s.deviceKey(r.Context())
	if err != nil {
		slog.ErrorContext(r.Context(), "accounts: device cookie key", "err", err)
		return ""
	}
	payload, mac := raw[:devicePayload], raw[devicePayload:]
	if !hmac.Equal(mac, deviceMAC(key, payload)) ||
		subtle.ConstantTimeCompare(payload[:16], emailHash(email)) != 1 ||
		s.now().Unix() > int64(binary.BigEndian.Uint64(payload[32:40])) {
		return ""
	}
	return hex.EncodeToString(payload[16:32])
}

// setDeviceCookie marks this browser as known to email's account.
func (s *Service) setDeviceCookie(w http.ResponseWriter, r *http.Request, email string) {
	key, err := s.deviceKey(r.Context())
	if err != nil {
		slog.ErrorContext(r.Context(), "accounts: device cookie key", "err", err)
		return
	}
	payload := make([]byte, devicePayload, devicePayload+sha256.Size)
	copy(payload, emailHash(email))
	rand.Read(payload[16:32])
	binary.BigEndian.PutUint64(payload[32:], uint64(s.now().Add(deviceTTL).Unix()))
	http.SetCookie(w, &http.Cookie{
		Name: DeviceCookieName, Value: base64.RawURLEncoding.EncodeToString(append(payload, deviceMAC(key, payload)...)),
		Path: "/", MaxAge: int(deviceTTL / time.Second), HttpOnly: true, Secure: s.secure(), SameSite: http.SameSiteStrictMode,
	})
}
