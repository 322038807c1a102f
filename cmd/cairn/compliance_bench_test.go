package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
)

// BenchmarkScreenHTTP posts 100-address screenings (50 listed ETH
// addresses, 50 unlisted) to an in-process server from parallel clients:
// authentication, billing, screening, the durable proof and JSON. For the
// figure from a second process, see bench/screen/run.sh.
func BenchmarkScreenHTTP(b *testing.B) {
	cfg := testConfig(nil, b.TempDir())
	cfg.Sources = stringList{"list:ETH=testdata/sanctioned_addresses_ETH.txt"}
	cfg.RateLimitPerKey, cfg.WriteLimitPerAgent, cfg.LogLevel = 0, 0, "error"
	m := NewMain(cfg, nil, &syncBuffer{})
	if err := m.Open(b.Context()); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	defer func() { cancel(); <-done; m.Close() }()
	base := "http://" + m.Addr()
	post := func(path, token string, v any) map[string]any {
		body, _ := json.Marshal(v)
		req, _ := http.NewRequest("POST", base+path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		return out
	}
	reg := post("/v1/auth/agent-register", "", map[string]any{})
	key, _ := reg["apiKey"].(string)
	post("/v1/admin/credits", admin, map[string]any{"developerId": reg["developerId"], "amount": 1_000_000_000, "reason": "bench"})
	f, _ := os.Open("testdata/sanctioned_addresses_ETH.txt")
	sc := bufio.NewScanner(f)
	var items []map[string]string
	for sc.Scan() && len(items) < 50 {
		items = append(items, map[string]string{"address": strings.TrimSpace(sc.Text()), "chain": "ethereum"})
	}
	f.Close()
	for i := 1; len(items) < 100; i++ {
		items = append(items, map[string]string{"address": fmt.Sprintf("0x%040x", i), "chain": "polygon"})
	}
	body, _ := json.Marshal(map[string]any{"addresses": items})
	b.SetParallelism(4)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, _ := http.NewRequest("POST", base+"/v1/compliance/screen", bytes.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+key)
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			var buf bytes.Buffer
			buf.ReadFrom(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				b.Fatalf("status %d: %s", resp.StatusCode, buf.String())
			}
		}
	})
	b.ReportMetric(float64(b.N*100)/b.Elapsed().Seconds(), "addresses/s")
}
