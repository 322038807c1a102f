package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
)

// sourceSecrets are the credentials the failing sources carry in their URLs.
var sourceSecrets = []string{"aliceuser", "hunter2pass", "s3cr3tTok", "bobuser", "pw2secret", "tok2secret"}

// TestSourceCredentialsRedacted: sources whose URLs carry user info and a
// query-string token fail (an HTTP 403, a refused connection); neither the
// public stats, nor the stored list versions, nor the admin ingestion
// report, nor the logs hold the credentials, while the failure still names
// where it happened.
func TestSourceCredentialsRedacted(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "forbidden", http.StatusForbidden)
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	cfg := testConfig(t, t.TempDir())
	cfg.Sources = stringList{
		"gov_sdn=http://aliceuser:hunter2pass@" + host + "/SDN_ADVANCED.XML?token=s3cr3tTok",
		"list:ETH=testdata/sanctioned_addresses_ETH.txt",
		"list:BTC=http://bobuser:pw2secret@127.0.0.1:1/btc.txt?key=tok2secret",
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, cfg)
	a := ts.register(t, "")
	ing := ts.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, 200)
	stats := ts.do(t, "GET", "/v1/compliance/stats", "", nil).must(t, 200)
	versions := ts.do(t, "GET", "/v1/compliance/versions", a.Key, nil).must(t, 200)

	sources := stats.JSON["compliance"].(map[string]any)["sources"].(map[string]any)
	gov, _ := sources["gov_sdn"].(map[string]any)["lastError"].(string)
	btc, _ := sources["list:BTC"].(map[string]any)["lastError"].(string)
	if !strings.Contains(gov, "http://***@"+host+"/SDN_ADVANCED.XML?***") || !strings.Contains(gov, "HTTP 403") {
		t.Errorf("gov_sdn lastError %q: want the redacted URL and the status", gov)
	}
	if !strings.Contains(btc, "http://***@127.0.0.1:1/btc.txt?***") {
		t.Errorf("list:BTC lastError %q: want the redacted URL", btc)
	}
	for what, text := range map[string]string{"stats": string(stats.Body), "versions": string(versions.Body),
		"admin ingest": string(ing.Body), "logs": ts.logs.String()} {
		for _, s := range sourceSecrets {
			if strings.Contains(text, s) {
				t.Errorf("%s hold the source credential %q:\n%s", what, s, text)
			}
		}
	}
}

// TestSourceHeaderSent: --source-header reaches the source server with
// every request, so that its key need not sit in the URL; it is never
// logged; a header for a source that is not ingested is refused at
// validation without echoing the value.
func TestSourceHeaderSent(t *testing.T) {
	const key = "Bearer hdr-secret-0123456789"
	list, err := os.ReadFile("testdata/sanctioned_addresses_ETH.txt")
	if err != nil {
		t.Fatal(err)
	}
	var authorized, refused atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != key || r.Header.Get("X-Api-Key") != "k2-secret" {
			refused.Add(1)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		authorized.Add(1)
		w.Write(list)
	}))
	defer srv.Close()

	t.Run("ErrUnknownSource", func(t *testing.T) {
		cfg := testConfig(t, t.TempDir())
		cfg.Sources = stringList{"list:ETH=" + srv.URL + "/eth.txt"}
		cfg.SourceHeaders = stringList{"gov_sdn:Authorization=" + key}
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), "--source-header") || strings.Contains(err.Error(), "hdr-secret") {
			t.Fatalf("header of a source not ingested: %v", err)
		}
	})
	t.Run("OK", func(t *testing.T) {
		cfg := testConfig(t, t.TempDir())
		cfg.Sources = stringList{"list:ETH=" + srv.URL + "/eth.txt"}
		// From the environment, as CAIRN_SOURCE_HEADER would give them.
		if err := cfg.SourceHeaders.Set("list:ETH:Authorization=" + key + ";list:ETH:x-api-key=k2-secret"); err != nil {
			t.Fatal(err)
		}
		if err := cfg.Validate(); err != nil {
			t.Fatal(err)
		}
		ts := startServer(t, cfg)
		stats := ts.do(t, "GET", "/v1/compliance/stats", "", nil).must(t, 200)
		eth := stats.JSON["compliance"].(map[string]any)["sources"].(map[string]any)["list:ETH"].(map[string]any)
		if eth["lastError"] != nil || eth["entries"].(float64) == 0 || authorized.Load() == 0 || refused.Load() != 0 {
			t.Fatalf("source with its headers: %v (authorized %d, refused %d)", eth, authorized.Load(), refused.Load())
		}
		if strings.Contains(ts.logs.String(), "hdr-secret") || strings.Contains(ts.logs.String(), "k2-secret") {
			t.Fatalf("a source header is logged:\n%s", ts.logs.String())
		}
	})
}
