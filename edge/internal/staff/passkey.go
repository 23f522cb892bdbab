package staff

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
	"gorm.io/gorm"
)

// Passkeys (WebAuthn, through go-webauthn): the relying party is the site
// itself, PUBLIC_URL's host its RP ID and PUBLIC_URL's origin the only
// origin accepted (make run: localhost, so a real browser's passkey works
// on http://localhost:8080). Every ceremony wants user verification (the
// device's PIN or biometric), so a passkey is two factors on its own; the
// studio still asks for the merchant sign-in first.

// errNoRelyingParty: PUBLIC_URL's host is not a domain (an IP address).
var errNoRelyingParty = errors.New("staff: passkeys need PUBLIC_URL on a domain name (localhost counts), not an IP address")

// challengeTTL bounds a ceremony from its options to its answer.
const challengeTTL = 5 * time.Minute

// Ceremony kinds (staff_challenges.kind).
const (
	kindEnrol   = "enrol"
	kindSignIn  = "signin"
	kindRecheck = "recheck"
)

// Errors of the passkey ceremonies (each refused, and recorded as a
// failed second factor).
var (
	ErrChallenge  = errors.New("the challenge is unknown, used or expired")
	ErrClone      = errors.New("the passkey's signature counter went backwards: a cloned authenticator")
	ErrNoPasskey  = errors.New("no passkey enrolled")
	ErrUnverified = errors.New("the passkey did not verify")
)

// passkeyRow is one staff_passkeys row (storage migration 222).
type passkeyRow struct {
	ID           uint64 `gorm:"primaryKey;autoIncrement"`
	AccountID    uint64
	CredentialID string
	Name         string
	Credential   string
	SignCount    int64
	CreatedAt    time.Time
	LastUsedAt   *time.Time
}

func (passkeyRow) TableName() string { return "staff_passkeys" }

type challengeRow struct {
	ID        string `gorm:"primaryKey"`
	AccountID uint64
	Kind      string
	Data      string
	ExpiresAt time.Time
}

func (challengeRow) TableName() string { return "staff_challenges" }

// user is a member as the WebAuthn library sees them.
type user struct {
	id    uint64
	email string
	creds []webauthn.Credential
}

// WebAuthnID is the user handle: the account id, which names nobody.
func (u *user) WebAuthnID() []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, u.id)
	return b
}
func (u *user) WebAuthnName() string                       { return u.email }
func (u *user) WebAuthnDisplayName() string                { return u.email }
func (u *user) WebAuthnCredentials() []webauthn.Credential { return u.creds }

// relyingParty is the site as a WebAuthn relying party.
func relyingParty(publicURL *url.URL) (*webauthn.WebAuthn, error) {
	return webauthn.New(&webauthn.Config{
		RPID:          publicURL.Hostname(),
		RPDisplayName: "Omnibus studio",
		RPOrigins:     []string{publicURL.Scheme + "://" + publicURL.Host},
	})
}

func credentialID(raw []byte) string { return base64.RawURLEncoding.EncodeToString(raw) }

// loadUser is the member with their passkeys.
func (s *Service) loadUser(ctx context.Context, m Member) (*user, []passkeyRow, error) {
	var rows []passkeyRow
	if err := s.db.WithContext(ctx).Where("account_id = ?", m.AccountID).Order("id").Find(&rows).Error; err != nil {
		return nil, nil, err
	}
	u := &user{id: m.AccountID, email: m.Email}
	for _, r := range rows {
		var c webauthn.Credential
		if err := json.Unmarshal([]byte(r.Credential), &c); err != nil {
			return nil, nil, fmt.Errorf("staff: passkey %d: %w", r.ID, err)
		}
		c.Authenticator.SignCount = uint32(r.SignCount)
		u.creds = append(u.creds, c)
	}
	return u, rows, nil
}

// saveChallenge keeps a ceremony's session data until its answer.
func (s *Service) saveChallenge(ctx context.Context, accountID uint64, kind string, sd *webauthn.SessionData) error {
	data, err := json.Marshal(sd)
	if err != nil {
		return err
	}
	now := s.now()
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Delete(&challengeRow{}, "expires_at < ?", now).Error; err != nil {
			return err
		}
		// One ceremony of a kind per member at a time: a new one replaces it.
		if err := tx.Delete(&challengeRow{}, "account_id = ? AND kind = ?", accountID, kind).Error; err != nil {
			return err
		}
		return tx.Create(&challengeRow{ID: challengeHash(sd.Challenge), AccountID: accountID, Kind: kind, Data: string(data), ExpiresAt: now.Add(challengeTTL)}).Error
	})
}

func challengeHash(c string) string {
	h := sha256.Sum256([]byte(c))
	return hex.EncodeToString(h[:])
}

// takeChallenge consumes the ceremony the answer's challenge names: it is
// deleted by the one request that takes it, so an answer replayed (even
// at the same moment, on another edge) finds nothing.
func (s *Service) takeChallenge(ctx context.Context, challenge string, accountID uint64, kind string) (*webauthn.SessionData, error) {
	var row challengeRow
	err := s.db.WithContext(ctx).Take(&row, "id = ?", challengeHash(challenge)).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrChallenge
	}
	if err != nil {
		return nil, err
	}
	res := s.db.WithContext(ctx).Delete(&challengeRow{}, "id = ?", row.ID)
	if res.Error != nil {
		return nil, res.Error
	}
	if res.RowsAffected != 1 || row.AccountID != accountID || row.Kind != kind || !s.now().Before(row.ExpiresAt) {
		return nil, ErrChallenge
	}
	var sd webauthn.SessionData
	if err := json.Unmarshal([]byte(row.Data), &sd); err != nil {
		return nil, err
	}
	return &sd, nil
}

// beginEnrol starts adding a passkey for m: the options for
// navigator.credentials.create. A resident key (a passkey) with user
// verification; the member's other passkeys are excluded.
func (s *Service) beginEnrol(ctx context.Context, m Member) (*protocol.CredentialCreation, error) {
	if s.rp == nil {
		return nil, errNoRelyingParty
	}
	u, _, err := s.loadUser(ctx, m)
	if err != nil {
		return nil, err
	}
	var exclude []protocol.CredentialDescriptor
	for _, c := range u.creds {
		exclude = append(exclude, c.Descriptor())
	}
	opts, sd, err := s.rp.BeginRegistration(u,
		webauthn.WithAuthenticatorSelection(protocol.AuthenticatorSelection{
			ResidentKey: protocol.ResidentKeyRequirementPreferred, UserVerification: protocol.VerificationRequired}),
		webauthn.WithExclusions(exclude),
		webauthn.WithConveyancePreference(protocol.PreferNoAttestation))
	if err != nil {
		return nil, err
	}
	return opts, s.saveChallenge(ctx, m.AccountID, kindEnrol, sd)
}

// finishEnrol checks the authenticator's answer and stores the passkey.
func (s *Service) finishEnrol(ctx context.Context, m Member, body []byte, name string) (*passkeyRow, error) {
	if s.rp == nil {
		return nil, errNoRelyingParty
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(body)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnverified, err)
	}
	sd, err := s.takeChallenge(ctx, parsed.Response.CollectedClientData.Challenge, m.AccountID, kindEnrol)
	if err != nil {
		return nil, err
	}
	u, _, err := s.loadUser(ctx, m)
	if err != nil {
		return nil, err
	}
	cred, err := s.rp.CreateCredential(u, *sd, parsed)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnverified, err)
	}
	data, err := json.Marshal(cred)
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = "Passkey added " + s.now().Format("2 Jan 2006")
	}
	row := &passkeyRow{AccountID: m.AccountID, CredentialID: credentialID(cred.ID), Name: name, Credential: string(data),
		SignCount: int64(cred.Authenticator.SignCount), CreatedAt: s.now()}
	if err := s.db.WithContext(ctx).Create(row).Error; err != nil {
		return nil, err
	}
	return row, nil
}

// beginAssertion starts a sign-in or a re-check for m: the options for
// navigator.credentials.get, allowing only m's passkeys.
func (s *Service) beginAssertion(ctx context.Context, m Member, kind string) (*protocol.CredentialAssertion, error) {
	if s.rp == nil {
		return nil, errNoRelyingParty
	}
	u, _, err := s.loadUser(ctx, m)
	if err != nil {
		return nil, err
	}
	if len(u.creds) == 0 {
		return nil, ErrNoPasskey
	}
	opts, sd, err := s.rp.BeginLogin(u, webauthn.WithUserVerification(protocol.VerificationRequired))
	if err != nil {
		return nil, err
	}
	return opts, s.saveChallenge(ctx, m.AccountID, kind, sd)
}

// finishAssertion checks the authenticator's answer (challenge single-use,
// origin, RP ID, signature, user verification) and moves the passkey's
// counter forward; a counter that did not move forward is a cloned
// authenticator and is refused. The credential id used.
func (s *Service) finishAssertion(ctx context.Context, m Member, body []byte, kind string) (string, error) {
	if s.rp == nil {
		return "", errNoRelyingParty
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(body)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrUnverified, err)
	}
	sd, err := s.takeChallenge(ctx, parsed.Response.CollectedClientData.Challenge, m.AccountID, kind)
	if err != nil {
		return "", err
	}
	u, rows, err := s.loadUser(ctx, m)
	if err != nil {
		return "", err
	}
	cred, err := s.rp.ValidateLogin(u, *sd, parsed)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrUnverified, err)
	}
	id := credentialID(cred.ID)
	var row *passkeyRow
	for i := range rows {
		if rows[i].CredentialID == id {
			row = &rows[i]
		}
	}
	if row == nil {
		return "", ErrUnverified
	}
	if cred.Authenticator.CloneWarning {
		return id, ErrClone
	}
	// Compare-and-set: two answers racing with one counter value cannot
	// both pass.
	now := s.now()
	res := s.db.WithContext(ctx).Model(&passkeyRow{}).Where("id = ? AND sign_count = ?", row.ID, row.SignCount).
		Updates(map[string]any{"sign_count": int64(cred.Authenticator.SignCount), "last_used_at": now})
	if res.Error != nil {
		return "", res.Error
	}
	if res.RowsAffected != 1 {
		return id, ErrClone
	}
	return id, nil
}
