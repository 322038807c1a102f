package account_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/account"
	"github.com/cairn-dev/cairn/chain/aptos"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/golang-jwt/jwt/v5"
)

const mnemonic = "shoot island position soft burden budget tooth cruel issue economy destroy above"

func newService(t *testing.T) *account.Service {
	t.Helper()
	db, err := pebble.Open("", pebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	hd, err := aptos.NewHD(mnemonic, "mainnet")
	if err != nil {
		t.Fatal(err)
	}
	return &account.Service{Store: db, Deposits: hd, Clock: cairn.SystemClock{}, StarterCredits: account.DefaultStarterCredits}
}

func TestRegisterAuthenticateRotate(t *testing.T) {
	ctx := context.Background()
	s := newService(t)
	r, err := s.Register(ctx, "", "req-1", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	// Index 0 of the public test wallet's seed.
	if r.Agent.DepositAddress != "0x07968dab936c1bad187c60ce4082f307d030d780e91e694ae03aef16aba73f30" {
		t.Fatalf("first deposit address %s", r.Agent.DepositAddress)
	}
	if r.Developer.Balance != 100 || !strings.HasPrefix(r.Agent.Name, "agent-") {
		t.Fatalf("registration %+v", r.Developer)
	}
	t.Run("Authenticate", func(t *testing.T) {
		a, err := s.Authenticate(ctx, r.Credentials.APIKey)
		if err != nil || a.ID != r.Agent.ID {
			t.Fatalf("authenticate: %v", err)
		}
		for _, bad := range []string{"", "sk_live_", "sk_live_x", r.Credentials.RotationSecret, strings.Repeat("sk_live_", 20)} {
			if _, err := s.Authenticate(ctx, bad); !cairn.IsCode(err, cairn.EUNAUTHORIZED) {
				t.Fatalf("Authenticate(%q) = %v", bad, err)
			}
		}
	})
	t.Run("RotateErrors", func(t *testing.T) {
		if _, err := s.Rotate(ctx, r.Agent.ID, "", "", ""); !cairn.IsCode(err, cairn.EINVALID) {
			t.Fatalf("empty secret: %v", err)
		}
		if _, err := s.Rotate(ctx, r.Agent.ID, r.Credentials.APIKey, "", ""); !cairn.IsCode(err, cairn.EUNAUTHORIZED) {
			t.Fatalf("wrong secret: %v", err)
		}
	})
	t.Run("RotateThenRevoke", func(t *testing.T) {
		rot, err := s.Rotate(ctx, r.Agent.ID, r.Credentials.RotationSecret, "", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Authenticate(ctx, r.Credentials.APIKey); !cairn.IsCode(err, cairn.EUNAUTHORIZED) {
			t.Fatalf("old key after rotation: %v", err)
		}
		if _, err := s.Revoke(ctx, r.Agent.ID, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Authenticate(ctx, rot.Credentials.APIKey); !cairn.IsCode(err, cairn.EFORBIDDEN) {
			t.Fatalf("revoked key: %v", err)
		}
		if _, err := s.Rotate(ctx, r.Agent.ID, rot.Credentials.RotationSecret, "", ""); !cairn.IsCode(err, cairn.EFORBIDDEN) {
			t.Fatalf("rotate revoked: %v", err)
		}
	})
	t.Run("ErrNames", func(t *testing.T) {
		for _, name := range []string{strings.Repeat("é", 101), "a\x00b", "tab\there", "\xff"} {
			if _, err := s.Register(ctx, name, "", ""); !cairn.IsCode(err, cairn.EINVALID) {
				t.Fatalf("Register(%q) = %v", name, err)
			}
		}
	})
}

func TestTokens(t *testing.T) {
	clock := cairn.NewManualClock(time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC))
	tk := &account.Tokens{Secret: []byte("0123456789abcdef0123456789abcdef"), Clock: clock}
	tok, err := tk.Issue("dev-1", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if dev, err := tk.Verify(tok); err != nil || dev != "dev-1" {
		t.Fatalf("verify: %q %v", dev, err)
	}
	sign := func(m jwt.SigningMethod, key any, c jwt.RegisteredClaims) string {
		s, err := jwt.NewWithClaims(m, c).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	now := clock.Now()
	good := jwt.RegisteredClaims{Issuer: account.Issuer, Subject: "dev-1", ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour))}
	noExp, otherIss, noSub := good, good, good
	noExp.ExpiresAt = nil
	otherIss.Issuer = "someone"
	noSub.Subject = ""
	for name, bad := range map[string]string{
		"OtherSecret":   sign(jwt.SigningMethodHS256, []byte("another secret, another server."), good),
		"HS512":         sign(jwt.SigningMethodHS512, tk.Secret, good),
		"AlgNone":       sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, good),
		"NoExpiry":      sign(jwt.SigningMethodHS256, tk.Secret, noExp),
		"OtherIssuer":   sign(jwt.SigningMethodHS256, tk.Secret, otherIss),
		"NoSubject":     sign(jwt.SigningMethodHS256, tk.Secret, noSub),
		"Garbage":       "a.b.c",
		"ExpiredIssued": tok,
	} {
		t.Run(name, func(t *testing.T) {
			if name == "ExpiredIssued" {
				clock.Advance(2 * time.Hour)
				defer clock.Advance(-2 * time.Hour)
			}
			if _, err := tk.Verify(bad); !cairn.IsCode(err, cairn.EUNAUTHORIZED) {
				t.Fatalf("Verify accepted or misreported: %v", err)
			}
		})
	}
	if _, err := tk.Issue("", time.Hour); !cairn.IsCode(err, cairn.EINVALID) {
		t.Fatal("empty developer id issued")
	}
}
