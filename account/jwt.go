package account

import (
	"errors"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/golang-jwt/jwt/v5"
)

// Tokens issues and checks developer JWTs (HS256, sub = developer id).
type Tokens struct {
	Secret []byte
	Clock  cairn.Clock
}

// Issuer is the "iss" claim of developer tokens.
const Issuer = "cairn"

// Issue returns a developer token valid for ttl.
func (t *Tokens) Issue(developerID string, ttl time.Duration) (string, error) {
	if developerID == "" || ttl <= 0 {
		return "", cairn.Errorf(cairn.EINVALID, "A developer id and a positive ttl are required.")
	}
	now := t.Clock.Now()
	claims := jwt.RegisteredClaims{
		Issuer:    Issuer,
		Subject:   developerID,
		IssuedAt:  jwt.NewNumericDate(now),
		NotBefore: jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(ttl)),
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(t.Secret)
}

// Verify checks a developer token and returns its developer id. Any
// failure (bad signature, other algorithm, expired, no subject) is
// EUNAUTHORIZED.
func (t *Tokens) Verify(token string) (string, error) {
	if len(t.Secret) == 0 {
		return "", cairn.Errorf(cairn.EUNAUTHORIZED, "Developer tokens are not enabled.")
	}
	var claims jwt.RegisteredClaims
	_, err := jwt.ParseWithClaims(token, &claims, func(*jwt.Token) (any, error) { return t.Secret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithTimeFunc(t.Clock.Now),
		jwt.WithIssuer(Issuer),
		jwt.WithExpirationRequired(),
	)
	if err != nil {
		msg := "Invalid developer token."
		if errors.Is(err, jwt.ErrTokenExpired) {
			msg = "Developer token expired."
		}
		return "", cairn.Errorf(cairn.EUNAUTHORIZED, "%s", msg)
	}
	if claims.Subject == "" || len(claims.Subject) > 128 {
		return "", cairn.Errorf(cairn.EUNAUTHORIZED, "Invalid developer token.")
	}
	return claims.Subject, nil
}
