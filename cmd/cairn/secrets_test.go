package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestServiceKeyFile(t *testing.T) {
	t.Run("ErrPermissive", func(t *testing.T) {
		dir := t.TempDir()
		if _, err := loadOrCreateServiceKey(dir); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, serviceKeyFile)
		if err := os.Chmod(path, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := loadOrCreateServiceKey(dir)
		if err == nil || !strings.Contains(err.Error(), "chmod 600") {
			t.Fatalf("a service.key readable by others: %v, want refused", err)
		}
		cfg := testConfig(t, dir)
		m := NewMain(cfg, &bytes.Buffer{}, &bytes.Buffer{})
		defer m.Close()
		if err := m.Open(t.Context()); err == nil || !strings.Contains(err.Error(), "0644") {
			t.Fatalf("Open with a permissive service.key: %v, want refused", err)
		}
	})
	t.Run("OneKeyUnderConcurrentStarts", func(t *testing.T) {
		dir := t.TempDir()
		const n = 16
		keys := make([][]byte, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				keys[i], errs[i] = loadOrCreateServiceKey(dir)
			})
		}
		wg.Wait()
		for i := range n {
			if errs[i] != nil || !bytes.Equal(keys[i], keys[0]) {
				t.Fatalf("start %d: key %x, %v; start 0 got %x: every start must use the one stored key", i, keys[i], errs[i], keys[0])
			}
		}
		fi, err := os.Stat(filepath.Join(dir, serviceKeyFile))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("service.key: %v, %v; want mode 0600", fi, err)
		}
		ents, _ := os.ReadDir(dir)
		if len(ents) != 1 {
			t.Fatalf("data dir holds %d entries, want only service.key (no temporary file left)", len(ents))
		}
	})
}

func TestSecretsRefused(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("k", minSecretBytes)
	perm := filepath.Join(dir, "open.token")
	if err := os.WriteFile(perm, []byte(long+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"ShortAdminToken", []string{"--admin-token", "short"}, nil, "--admin-token is 5 bytes"},
		{"ShortAdminTokenEnv", nil, map[string]string{"CAIRN_ADMIN_TOKEN": strings.Repeat("x", 31)}, "--admin-token is 31 bytes"},
		{"ShortJWTSecret", []string{"--jwt-secret", "0123456789"}, nil, "--jwt-secret is 10 bytes"},
		{"PermissiveTokenFile", []string{"--admin-token-file", perm}, nil, "more permissive than 0600"},
		{"TokenTwice", []string{"--admin-token", long, "--admin-token-file", perm}, nil, "both set"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			args := append([]string{"serve", "--listen", "127.0.0.1:0", "--data-dir", t.TempDir(), "--default-sources=false"}, c.args...)
			code := Run(t.Context(), args, &out, &errOut, func(k string) string { return c.env[k] })
			if code == 0 || !strings.Contains(errOut.String(), c.want) {
				t.Fatalf("exit %d, stderr %q; want a refusal saying %q", code, errOut.String(), c.want)
			}
			if strings.Contains(errOut.String(), long) {
				t.Fatalf("the secret is in the error: %q", errOut.String())
			}
		})
	}
}

// TestSecretFiles: the admin token and the JWT secret can be read from
// files, so that they never appear on a command line.
func TestSecretFiles(t *testing.T) {
	dir := t.TempDir()
	token := strings.Repeat("t", 40)
	tokenFile := filepath.Join(dir, "admin.token")
	jwtFile := filepath.Join(dir, "jwt.secret")
	if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(jwtFile, []byte(strings.Repeat("j", 32)), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t, filepath.Join(dir, "data"))
	cfg.AdminToken = ""
	cfg.AdminTokenFile = tokenFile
	cfg.JWTSecretFile = jwtFile
	ts := startServer(t, cfg)
	a := ts.register(t, "")
	ts.do(t, "POST", "/v1/admin/credits", token, map[string]any{"developerId": a.DeveloperID, "amount": 1, "reason": "test"}).must(t, 200)
	ts.do(t, "POST", "/v1/admin/credits", admin, map[string]any{"developerId": a.DeveloperID, "amount": 1, "reason": "test"}).must(t, 401)
	if string(ts.m.server.Tokens.Secret) != strings.Repeat("j", 32) {
		t.Fatal("the JWT secret is not the file's")
	}
}
