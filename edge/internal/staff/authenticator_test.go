package staff_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/fxamacker/cbor/v2"
)

// softKey is a software passkey: an ES256 key answering WebAuthn
// ceremonies as a browser and its authenticator would (none attestation),
// with the origin, the RP ID and the signature counter a test may bend.
type softKey struct {
	t      *testing.T
	key    *ecdsa.PrivateKey
	id     []byte
	userID []byte
	Count  uint32
	RPID   string
	Origin string
}

func newSoftKey(t *testing.T, rpID, origin string) *softKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 16)
	rand.Read(id)
	return &softKey{t: t, key: k, id: id, RPID: rpID, Origin: origin}
}

var b64 = base64.RawURLEncoding

// options reads the challenge (and the user handle) of the server's options.
func (k *softKey) options(opts []byte) (challenge string) {
	var o struct {
		PublicKey struct {
			Challenge string `json:"challenge"`
			User      struct {
				ID string `json:"id"`
			} `json:"user"`
		} `json:"publicKey"`
	}
	if err := json.Unmarshal(opts, &o); err != nil || o.PublicKey.Challenge == "" {
		k.t.Fatalf("options %s: %v", opts, err)
	}
	if o.PublicKey.User.ID != "" {
		k.userID, _ = b64.DecodeString(o.PublicKey.User.ID)
	}
	return o.PublicKey.Challenge
}

func (k *softKey) clientData(typ, challenge string) []byte {
	b, _ := json.Marshal(map[string]any{"type": typ, "challenge": challenge, "origin": k.Origin, "crossOrigin": false})
	return b
}

func (k *softKey) authData(attested bool) []byte {
	rp := sha256.Sum256([]byte(k.RPID))
	out := append([]byte{}, rp[:]...)
	flags := byte(0x01 | 0x04) // user present, user verified
	if attested {
		flags |= 0x40
	}
	out = append(out, flags)
	out = binary.BigEndian.AppendUint32(out, k.Count)
	if attested {
		out = append(out, make([]byte, 16)...) // AAGUID
		out = binary.BigEndian.AppendUint16(out, uint16(len(k.id)))
		out = append(out, k.id...)
		pub, _ := k.key.PublicKey.ECDH()
		raw := pub.Bytes() // 0x04 || X || Y
		cose, err := cbor.Marshal(map[int]any{1: 2, 3: -7, -1: 1, -2: raw[1:33], -3: raw[33:65]})
		if err != nil {
			k.t.Fatal(err)
		}
		out = append(out, cose...)
	}
	return out
}

// Create answers navigator.credentials.create for the options.
func (k *softKey) Create(opts []byte) []byte {
	cd := k.clientData("webauthn.create", k.options(opts))
	att, err := cbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": k.authData(true)})
	if err != nil {
		k.t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"id": b64.EncodeToString(k.id), "rawId": b64.EncodeToString(k.id), "type": "public-key",
		"clientExtensionResults": map[string]any{},
		"response":               map[string]any{"clientDataJSON": b64.EncodeToString(cd), "attestationObject": b64.EncodeToString(att), "transports": []string{"internal"}}})
	return b
}

// Get answers navigator.credentials.get for the options, counting one use.
func (k *softKey) Get(opts []byte) []byte {
	k.Count++
	cd := k.clientData("webauthn.get", k.options(opts))
	ad := k.authData(false)
	h := sha256.Sum256(cd)
	digest := sha256.Sum256(append(append([]byte{}, ad...), h[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, k.key, digest[:])
	if err != nil {
		k.t.Fatal(err)
	}
	resp := map[string]any{"clientDataJSON": b64.EncodeToString(cd), "authenticatorData": b64.EncodeToString(ad), "signature": b64.EncodeToString(sig)}
	if k.userID != nil {
		resp["userHandle"] = b64.EncodeToString(k.userID)
	}
	b, _ := json.Marshal(map[string]any{"id": b64.EncodeToString(k.id), "rawId": b64.EncodeToString(k.id), "type": "public-key",
		"clientExtensionResults": map[string]any{}, "response": resp})
	return b
}
