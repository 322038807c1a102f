package memory

import (
	"strings"
	"testing"
)

func TestSecretsFind(t *testing.T) {
	var s Secrets
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"AWSAccessKey", "deploy with aws_access_key_id = AKIAZ3MSJV4WTGKEX7PQ", true},
		{"PrivateKeyBlock", "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat("MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun", 4) + "\n-----END RSA PRIVATE KEY-----", true},
		{"GitHubToken", "token: ghp_4Jc0rYsWq8kZ1xLmN5vB7tR2yU9iO3pA6sD0", true},
		{"JWT", "Authorization: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c", true},
		{"PlainText", "The meeting moved to Thursday; remember to bring the quarterly report and the key to room 4.", false},
		{"PlainKeyWords", "password reset flow: the user clicks the link and chooses a new password", false},
		{"UUIDs", "memory 0190a4c2-7d1e-7c3a-9b5e-2f6d8a1c4e7b points at v2", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.Find(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if (len(got) > 0) != tc.want {
				t.Fatalf("Find = %v, want found=%v", got, tc.want)
			}
		})
	}
}
