package webhook_test

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/webhook"
)

// TestSignStandardVector: the signature of the Standard Webhooks
// specification's example message.
func TestSignStandardVector(t *testing.T) {
	const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	body := []byte(`{"test": 2432232314}`)
	got, err := webhook.Sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body)
	if err != nil {
		t.Fatal(err)
	}
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Fatalf("signature %s, want %s", got, want)
	}
	if !webhook.Verify(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body, "v1,bogus "+got) {
		t.Fatal("the signature does not verify")
	}
	if webhook.Verify(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265331, body, got) {
		t.Fatal("a signature of another timestamp verifies")
	}
}

func TestNewSecret(t *testing.T) {
	a, b := webhook.NewSecret(), webhook.NewSecret()
	if a == b || !strings.HasPrefix(a, "whsec_") || len(a) != len("whsec_")+44 {
		t.Fatalf("secrets %q %q", a, b)
	}
}
