package main

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/cairn-dev/cairn/chain/aptos"
	"github.com/robfig/cron/v3"
)

// Validate checks every value of the configuration that can be checked
// without opening anything (no file, connection or listener), each
// refusal naming its flag, and turns --store postgres with --postgres-url
// into the URL --store also takes. `cairn serve` runs it right after
// parsing (exit status 2); Open runs it first, for a Config built in
// code. What needs a file (the secret files, the EVM key file) or the
// network is checked where it is opened.
func (c *Config) Validate() error {
	for _, check := range []func() error{
		c.validateBasics, c.validateStore, c.validateBlob, c.validateDeposits,
		c.validateIngest, c.validateMemory, c.validateAnchoring, c.validateWebhooks,
	} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// validateBasics: the data dir and the logger.
func (c *Config) validateBasics() error {
	if c.DataDir == "" {
		return errors.New("--data-dir is required")
	}
	_, err := newLogger(io.Discard, c.LogLevel, c.LogFormat)
	return err
}

// validateStore: --store and, on PostgreSQL, the intervals of the
// instances that share it.
func (c *Config) validateStore() error {
	if err := resolveStore(c); err != nil {
		return err
	}
	switch {
	case c.Store == "" || c.Store == "pebble":
		return nil
	case !isPostgresURL(c.Store):
		return errors.New("--store must be pebble or a postgres:// URL")
	case c.LeaderInterval <= 0 || c.ListPollInterval <= 0 || c.MemoryCatchUpInterval <= 0:
		return errors.New("--leader-interval, --list-poll-interval and --memory-catch-up-interval must be positive")
	}
	return nil
}

// validateBlob: --blob and the S3 flags it needs.
func (c *Config) validateBlob() error { return checkBlobs(*c) }

// validateDeposits: the Aptos network deposits are verified on and the
// rate they are credited at.
func (c *Config) validateDeposits() error {
	if c.AptosNodeURL == "" && aptos.NodeURLs[c.AptosNetwork] == "" {
		return fmt.Errorf("--aptos-node-url is required for --aptos-network %q", c.AptosNetwork)
	}
	if c.CreditsPerAPT <= 0 {
		return fmt.Errorf("--credits-per-apt %d: want a positive rate", c.CreditsPerAPT)
	}
	return nil
}

// validateIngest: the sources, the schedule and the drop a new version
// may make.
func (c *Config) validateIngest() error {
	if err := checkMaxDrop(c.IngestMaxDrop); err != nil {
		return err
	}
	if _, err := configuredSources(c.IngestConfig, nil); err != nil {
		return err
	}
	if _, err := cron.ParseStandard(c.IngestSchedule); err != nil {
		return fmt.Errorf("--ingest-schedule %q: %w", c.IngestSchedule, err)
	}
	return nil
}

// checkMaxDrop refuses an --ingest-max-drop outside (0, 1].
func checkMaxDrop(d float64) error {
	if !(d > 0 && d <= 1) {
		return fmt.Errorf("--ingest-max-drop %v: want a share in (0, 1]", d)
	}
	return nil
}

// validateMemory: the embedder and the vector index.
func (c *Config) validateMemory() error {
	if c.EmbedderURL != "" && c.EmbedderModel == "" {
		return errors.New("--embedder-url needs --embedder-model")
	}
	if c.VectorHNSWThreshold < 0 {
		return errors.New("--vector-hnsw-threshold must be 0 or more")
	}
	return nil
}

// validateAnchoring: the --evm-* flags go together.
func (c *Config) validateAnchoring() error {
	on, err := c.anchorEnabled()
	switch {
	case err != nil:
		return err
	case c.EVMOracleFromBlock != 0 && (!on || !c.EVMOracle):
		return fmt.Errorf("--evm-oracle-from-block %d needs anchoring (--evm-rpc-url) with --evm-oracle", c.EVMOracleFromBlock)
	case c.PublicEVMRPCURL != "" && !on:
		return errors.New("--public-evm-rpc-url needs anchoring (--evm-rpc-url): without it no root is anchored to check")
	}
	return checkPublicRPCURL(c.PublicEVMRPCURL)
}

// checkPublicRPCURL: --public-evm-rpc-url, when set, is an absolute
// http(s) URL with a host and no user info, query or fragment (each
// reader's browser calls it, and the pages' Content-Security-Policy names
// it, which holds no query), written as it will be used.
func checkPublicRPCURL(raw string) error {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return fmt.Errorf("--public-evm-rpc-url %q: want an http(s) URL such as https://rpc.example/", raw)
	case u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return fmt.Errorf("--public-evm-rpc-url %q: no user info, query or fragment (every reader sees it; put no secret in it)", raw)
	case strings.ContainsAny(raw, " ;,'\"\\") || u.String() != raw:
		return fmt.Errorf("--public-evm-rpc-url %q: write it plainly, as %q", raw, u.String())
	}
	return nil
}

// validateWebhooks: the --webhook-* flags make a valid webhook.Config.
func (c *Config) validateWebhooks() error {
	if err := c.webhooks().Validate(); err != nil {
		return fmt.Errorf("webhooks: %w", err)
	}
	return nil
}
