package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/api"
	"github.com/cairn-dev/cairn/billing"
	blobfs "github.com/cairn-dev/cairn/blob/fs"
	blobs3 "github.com/cairn-dev/cairn/blob/s3"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/ingest"
	"github.com/cairn-dev/cairn/store/postgres"
	"github.com/cairn-dev/cairn/webhook"
)

// Config is everything `cairn serve` can be told, by section (the
// sections of `cairn serve --help`). Every flag --some-name can also be
// given as the environment variable CAIRN_SOME_NAME; a flag on the
// command line wins over the environment. The sections are embedded, so
// that cfg.Listen names cfg.HTTPConfig.Listen; Validate checks them all.
type Config struct {
	HTTPConfig
	StoreConfig
	BlobConfig
	OperatorConfig
	AptosConfig
	LimitsConfig
	IngestConfig
	EVMConfig
	MemoryConfig
	WebhookConfig
}

// HTTPConfig is the HTTP server: where it listens, what third parties
// reach it at, whose X-Forwarded-For it trusts and its limits of time and
// size.
type HTTPConfig struct {
	Listen string
	// PublicURL is the base URL third parties reach the service at.
	PublicURL        string
	TrustedProxies   string
	HTTPReadTimeout  time.Duration
	HTTPWriteTimeout time.Duration
	HTTPIdleTimeout  time.Duration
	MaxHeaderBytes   int
	ShutdownTimeout  time.Duration
}

// StoreConfig is where the records are kept and how instances sharing a
// PostgreSQL store keep in step.
type StoreConfig struct {
	DataDir        string
	Store          string
	PostgresURL    string
	PostgresSchema string
	// LeaderInterval is how often, on a Postgres store, a follower tries
	// the leader lock and the leader checks its connection;
	// ListPollInterval is how often an instance compares the stored list
	// version with its own, besides the notifications of new versions.
	LeaderInterval   time.Duration
	ListPollInterval time.Duration
	// MemoryCatchUpInterval is how often, on a Postgres store, an
	// instance compares its memory vectors and keys with the store, in
	// case a memory change notification was lost without its connection
	// failing.
	MemoryCatchUpInterval time.Duration
	// PostgresChargeDefer is the longest a charge accepted without a round
	// trip to PostgreSQL waits to be applied with its account's others (0:
	// each charge is applied on the request's path).
	PostgresChargeDefer time.Duration
	TTLSweepInterval    time.Duration
	// CacheTTL is how long an authenticated API key's agent and a media
	// record read are remembered (0: not at all).
	CacheTTL time.Duration
}

// BlobConfig is the blob store: "fs" (files under the data dir) or "s3"
// (an S3-compatible service, the S3* fields). S3AccessKey and S3SecretKey
// are read from the environment only (envOnlyFlags).
type BlobConfig struct {
	Blob string
	// BlobCacheBytes bounds the blob store's read cache of sidecars and
	// verified chunks (0: none).
	BlobCacheBytes int64
	S3Endpoint     string
	S3Bucket       string
	S3AccessKey    string
	S3SecretKey    string
	S3Secure       bool
	S3Region       string
}

// OperatorConfig is the operators' access: the admin token and the JWT
// secret (or the files holding them), the metrics and profile listeners
// and the logs.
type OperatorConfig struct {
	AdminToken string
	JWTSecret  string
	// AdminTokenFile and JWTSecretFile name files (mode 0600) holding
	// those secrets, so that they stay off the command line.
	AdminTokenFile string
	JWTSecretFile  string
	// ProofKeyFile holds the Ed25519 seed screening proof documents are
	// signed with (empty: proof-signing.key in the data dir); the public
	// keys it replaced are listed in ProofKeyFile + ".retired".
	ProofKeyFile string
	// MetricsListen is the address of a listener serving only GET
	// /metrics without a token (empty: none).
	MetricsListen string
	// PprofListen is the address of a listener serving the Go runtime's
	// profiles (net/http/pprof) under /debug/pprof/ ("": none).
	PprofListen string
	LogLevel    string
	LogFormat   string
}

// AptosConfig is accounts and their APT deposits.
type AptosConfig struct {
	StarterCredits  int64
	DepositMnemonic string
	// DepositMnemonicFile names a file (mode 0600) holding the mnemonic,
	// which the instances sharing a store share.
	DepositMnemonicFile string
	AptosNetwork        string
	// AptosNodeURL is the REST endpoint deposits are verified against
	// (empty: the public endpoint of AptosNetwork).
	AptosNodeURL  string
	CreditsPerAPT int64
}

// LimitsConfig is the request limits, the front end's api.Limits
// (apiLimits).
type LimitsConfig struct {
	RateLimitPerKey    int
	WriteLimitPerAgent int
	RotateLimitPerIP   int
	RegisterLimitPerIP int
	RegisterLimitAll   int
	PublicLimitPerIP   int
	SnapshotMiBPerIP   int
	MaxBodyBytes       int64
}

// apiLimits maps the limits onto the front end's; shared: instances
// sharing the store count together.
func (l LimitsConfig) apiLimits(shared bool) api.Limits {
	limits := api.DefaultLimits()
	limits.RequestsPerKey = l.RateLimitPerKey
	limits.WritesPerAgent = l.WriteLimitPerAgent
	limits.RotationsPerIP = l.RotateLimitPerIP
	limits.RegistrationsPerIP = l.RegisterLimitPerIP
	limits.RegistrationsAll = l.RegisterLimitAll
	limits.PublicPerIP = l.PublicLimitPerIP
	limits.SnapshotMiBPerIP = l.SnapshotMiBPerIP
	limits.MaxBodyBytes = l.MaxBodyBytes
	limits.Shared = shared
	return limits
}

// IngestConfig is the sanctions sources, their ingestion and the
// community reports that add to them.
type IngestConfig struct {
	Sources stringList
	// SourceHeaders are SOURCE:HEADER=VALUE, sent with every request for
	// that source (keys kept out of its URL); never logged.
	SourceHeaders     stringList
	DefaultSources    bool
	IngestSchedule    string
	IngestMaxBytes    int64
	IngestMaxXMLToken int
	IngestMaxDrop     float64
	// ReportMinAccountAge: community reports of an account that never
	// paid count toward escalation once it is this old and has used the
	// service.
	ReportMinAccountAge time.Duration
}

// EVMConfig is the anchoring of the list roots on an EVM chain.
type EVMConfig struct {
	EVMRPCURL        string
	EVMChainID       uint64
	EVMContract      string
	EVMKeyFile       string
	EVMConfirmations uint64
	EVMPollInterval  time.Duration
	// EVMOracle keeps the contract's isSanctioned(address) storage in
	// step with each anchored version (on by default with anchoring).
	EVMOracle bool
	// EVMOracleFromBlock is the first block whose oracle events are read
	// (0: the block of the first roots this data dir anchored).
	EVMOracleFromBlock uint64
	// PublicEVMRPCURL is a JSON-RPC endpoint of the anchoring chain that
	// readers' browsers may call: the proof report page reads the anchored
	// roots from it by eth_call (empty: the page does not check the chain).
	PublicEVMRPCURL string
}

// MemoryConfig is memory search: EmbedderURL (an OpenAI-compatible
// embeddings endpoint) and EmbedderModel make the memory vector space
// "server"; VectorHNSWThreshold is the number of vectors in one agent's
// server or client space from which its vector search goes through an
// HNSW graph (0: exact search only).
type MemoryConfig struct {
	EmbedderURL         string
	EmbedderModel       string
	VectorHNSWThreshold int
}

// WebhookConfig is how webhook deliveries are sent (webhook.Config):
// WebhookAllowPrivate lets endpoints be http and reach loopback, private
// and link-local addresses (tests and internal deployments).
type WebhookConfig struct {
	WebhookAllowPrivate  bool
	WebhookTimeout       time.Duration
	WebhookConcurrency   int
	WebhookPerEndpoint   int
	WebhookPollInterval  time.Duration
	WebhookRetryFor      time.Duration
	WebhookMaxRetryDelay time.Duration
}

// webhooks is the webhook.Config of the flags.
func (c WebhookConfig) webhooks() webhook.Config {
	w := webhook.DefaultConfig()
	w.AllowPrivate, w.Timeout, w.Concurrency, w.PerEndpoint, w.Poll = c.WebhookAllowPrivate, c.WebhookTimeout, c.WebhookConcurrency,
		c.WebhookPerEndpoint, c.WebhookPollInterval
	w.RetryFor, w.DisableAfter, w.MaxRetry = c.WebhookRetryFor, c.WebhookRetryFor, c.WebhookMaxRetryDelay
	w.Lease = max(w.Lease, 2*w.Timeout)
	return w
}

// DefaultConfig returns the defaults of every flag.
func DefaultConfig() Config {
	return Config{
		HTTPConfig: HTTPConfig{
			Listen:           "127.0.0.1:8080",
			HTTPReadTimeout:  5 * time.Minute,
			HTTPWriteTimeout: 15 * time.Minute,
			HTTPIdleTimeout:  2 * time.Minute,
			MaxHeaderBytes:   64 << 10,
			ShutdownTimeout:  30 * time.Second,
		},
		StoreConfig: StoreConfig{
			DataDir:               "./data",
			Store:                 "pebble",
			PostgresSchema:        "cairn",
			LeaderInterval:        5 * time.Second,
			ListPollInterval:      30 * time.Second,
			MemoryCatchUpInterval: 5 * time.Minute,
			PostgresChargeDefer:   postgres.DefaultChargeDefer,
			TTLSweepInterval:      time.Minute,
			CacheTTL:              5 * time.Second,
		},
		BlobConfig: BlobConfig{
			Blob:           "fs",
			BlobCacheBytes: blobfs.DefaultCacheBytes,
			S3Secure:       true,
			S3Region:       blobs3.DefaultRegion,
		},
		OperatorConfig: OperatorConfig{LogLevel: "info", LogFormat: "json"},
		AptosConfig:    AptosConfig{StarterCredits: 100, AptosNetwork: "mainnet", CreditsPerAPT: billing.DefaultCreditsPerAPT},
		LimitsConfig: LimitsConfig{
			RateLimitPerKey:    300,
			WriteLimitPerAgent: 30,
			RotateLimitPerIP:   3,
			RegisterLimitPerIP: 10,
			RegisterLimitAll:   1000,
			PublicLimitPerIP:   120,
			SnapshotMiBPerIP:   api.DefaultLimits().SnapshotMiBPerIP,
			MaxBodyBytes:       1 << 20,
		},
		IngestConfig: IngestConfig{
			DefaultSources:      true,
			IngestSchedule:      "@every 6h",
			IngestMaxBytes:      ingest.DefaultMaxSourceBytes,
			IngestMaxXMLToken:   ingest.DefaultMaxXMLToken,
			IngestMaxDrop:       0.20,
			ReportMinAccountAge: compliance.DefaultMinAccountAge,
		},
		EVMConfig:    EVMConfig{EVMConfirmations: 3, EVMPollInterval: 4 * time.Second, EVMOracle: true},
		MemoryConfig: MemoryConfig{VectorHNSWThreshold: 20000},
		WebhookConfig: WebhookConfig{WebhookTimeout: webhook.DefaultConfig().Timeout, WebhookConcurrency: webhook.DefaultConfig().Concurrency,
			WebhookPerEndpoint: webhook.DefaultConfig().PerEndpoint, WebhookPollInterval: webhook.DefaultConfig().Poll,
			WebhookRetryFor: webhook.DefaultConfig().RetryFor, WebhookMaxRetryDelay: webhook.DefaultConfig().MaxRetry},
	}
}

// newServeFlagSet declares the flags of `cairn serve`, bound to c.
func newServeFlagSet(c *Config) *flag.FlagSet {
	fs := flag.NewFlagSet("cairn serve", flag.ContinueOnError)
	fs.Usage = func() { writeServeHelp(fs.Output(), fs) }
	fs.StringVar(&c.Listen, "listen", c.Listen, "address to serve HTTP on")
	addStoreFlags(fs, c)
	fs.StringVar(&c.AdminToken, "admin-token", c.AdminToken, "bearer token of the admin API, at least 32 bytes (empty: admin API disabled)")
	fs.StringVar(&c.JWTSecret, "jwt-secret", c.JWTSecret, "HS256 secret of developer JWTs, at least 32 bytes (empty: derived from the data dir's service key)")
	fs.StringVar(&c.PprofListen, "pprof-listen", c.PprofListen, "address serving the Go profiles under /debug/pprof/ without a token, for operators only, e.g. 127.0.0.1:6060 (empty: none)")
	fs.StringVar(&c.MetricsListen, "metrics-listen", c.MetricsListen, "address serving GET /metrics without a token, for operators only, e.g. 127.0.0.1:9090 (empty: none; /metrics on --listen needs the admin token)")
	fs.StringVar(&c.AdminTokenFile, "admin-token-file", c.AdminTokenFile, "file (mode 0600) holding the admin token")
	fs.StringVar(&c.JWTSecretFile, "jwt-secret-file", c.JWTSecretFile, "file (mode 0600) holding the JWT secret")
	fs.StringVar(&c.ProofKeyFile, "proof-key-file", c.ProofKeyFile, "file (mode 0600, created on first start) holding the Ed25519 key screening proof documents are signed with; instances sharing a store share it (default: proof-signing.key in --data-dir; cairn proof-key rotate replaces it)")
	fs.DurationVar(&c.TTLSweepInterval, "ttl-sweep-interval", c.TTLSweepInterval, "how often expired items are removed")
	fs.DurationVar(&c.LeaderInterval, "leader-interval", c.LeaderInterval, "with a postgres:// --store: how often an instance that does not lead tries to become the leader (which runs the TTL sweeps, scheduled ingestion and anchoring), and the leader checks its lock; also how often the price list is read again for another instance's change")
	fs.DurationVar(&c.MemoryCatchUpInterval, "memory-catch-up-interval", c.MemoryCatchUpInterval, "with a postgres:// --store: how often an instance compares its memory vector index with the store, in case the notification of another instance's change was lost")
	fs.DurationVar(&c.PostgresChargeDefer, "postgres-charge-defer", c.PostgresChargeDefer, "with a postgres:// --store: the longest a charge accepted against the account's balance as last read waits to be written with the account's others, off the request's path (0: each charge is written on its request's path)")
	fs.DurationVar(&c.ListPollInterval, "list-poll-interval", c.ListPollInterval, "with a postgres:// --store: how often an instance checks for a list version another instance stored, besides being notified of each")
	fs.StringVar(&c.DepositMnemonic, "deposit-mnemonic", c.DepositMnemonic, "BIP-39 mnemonic of the deposit HD seed (empty: generated once and kept in the data dir)")
	fs.StringVar(&c.DepositMnemonicFile, "deposit-mnemonic-file", c.DepositMnemonicFile, "file (mode 0600) holding the BIP-39 mnemonic of the deposit HD seed: one file for every instance sharing a store, whose seed must be the same (a start with another is refused)")
	fs.StringVar(&c.AptosNetwork, "aptos-network", c.AptosNetwork, "Aptos network deposits are expected on")
	fs.StringVar(&c.AptosNodeURL, "aptos-node-url", c.AptosNodeURL, "Aptos node REST endpoint (…/v1) deposits are verified against (default: the public endpoint of --aptos-network)")
	fs.Int64Var(&c.CreditsPerAPT, "credits-per-apt", c.CreditsPerAPT, "credits one APT of deposit buys (octas x rate / 10^8, rounded down)")
	fs.DurationVar(&c.HTTPReadTimeout, "http-read-timeout", c.HTTPReadTimeout, "longest time to read a whole request, body included (a 10 MB upload at 40 KB/s needs about 4 minutes)")
	fs.DurationVar(&c.HTTPWriteTimeout, "http-write-timeout", c.HTTPWriteTimeout, "longest time to write a whole response, streams included: a slow client gets what it read by then")
	fs.DurationVar(&c.HTTPIdleTimeout, "http-idle-timeout", c.HTTPIdleTimeout, "how long an idle keep-alive connection stays open")
	fs.IntVar(&c.MaxHeaderBytes, "max-header-bytes", c.MaxHeaderBytes, "largest request header block (431 beyond)")
	fs.DurationVar(&c.ShutdownTimeout, "shutdown-timeout", c.ShutdownTimeout, "how long in-flight requests may take after a stop signal")
	fs.StringVar(&c.LogLevel, "log-level", c.LogLevel, "debug, info, warn or error")
	fs.StringVar(&c.LogFormat, "log-format", c.LogFormat, "json or text")
	fs.StringVar(&c.TrustedProxies, "trusted-proxies", c.TrustedProxies, "comma-separated proxy addresses/CIDRs whose X-Forwarded-For is trusted")
	fs.IntVar(&c.RateLimitPerKey, "rate-limit-per-key", c.RateLimitPerKey, "requests per minute per API key (0: unlimited)")
	fs.IntVar(&c.WriteLimitPerAgent, "write-limit-per-agent", c.WriteLimitPerAgent, "writes (POST, PUT, PATCH, DELETE) per minute per agent (0: unlimited)")
	fs.IntVar(&c.RotateLimitPerIP, "rotate-limit-per-ip", c.RotateLimitPerIP, "key rotation attempts per 15 minutes per client IP (0: unlimited)")
	fs.IntVar(&c.PublicLimitPerIP, "public-limit-per-ip", c.PublicLimitPerIP, "reads of screening proofs and snapshots without an account, per minute per client IP, IPv6 clients per /64 (0: unlimited)")
	fs.IntVar(&c.SnapshotMiBPerIP, "snapshot-mib-per-ip", c.SnapshotMiBPerIP, "MiB of source snapshots one client network may download per hour (IPv6 clients per /64; a range counts what it asks for; counted per instance; 0: unlimited)")
	fs.IntVar(&c.RegisterLimitPerIP, "register-limit-per-ip", c.RegisterLimitPerIP, "registrations per hour per client IP, IPv6 clients per /64 (0: unlimited)")
	fs.IntVar(&c.RegisterLimitAll, "register-limit-global", c.RegisterLimitAll, "registrations per hour from all clients together (0: unlimited)")
	fs.Int64Var(&c.MaxBodyBytes, "max-body-bytes", c.MaxBodyBytes, "largest JSON request body")
	addSourceFlags(fs, c)
	fs.DurationVar(&c.ReportMinAccountAge, "report-min-account-age", c.ReportMinAccountAge, "community reports of an account that never paid (deposit or admin grant) count toward escalation once it is this old and has used the service")
	fs.StringVar(&c.PublicURL, "public-url", c.PublicURL, "base URL third parties reach this service at (e.g. https://cairn.example.com): proof documents name their own URL and their snapshots' under it (default: http:// and the listen address)")
	fs.BoolVar(&c.DefaultSources, "default-sources", c.DefaultSources, "with no --source, fetch the public OFAC SDN_ADVANCED.XML as gov_sdn on the ingest schedule (the bundled snapshot serves until the first success)")
	fs.StringVar(&c.IngestSchedule, "ingest-schedule", c.IngestSchedule, "when to ingest the sources again (cron spec or @every d)")
	fs.Int64Var(&c.IngestMaxBytes, "ingest-max-bytes", c.IngestMaxBytes, "largest download of a source fetched over HTTP; a larger one fails and keeps the previous version")
	fs.IntVar(&c.IngestMaxXMLToken, "ingest-max-xml-token", c.IngestMaxXMLToken, "longest tag or text run of an XML source; a longer one fails the source")
	fs.StringVar(&c.EVMRPCURL, "evm-rpc-url", c.EVMRPCURL, "JSON-RPC endpoint of the EVM chain the list roots are anchored on (empty: anchoring off)")
	fs.Uint64Var(&c.EVMChainID, "evm-chain-id", c.EVMChainID, "chain id of --evm-rpc-url (0: asked of the node at start)")
	fs.StringVar(&c.EVMContract, "evm-contract", c.EVMContract, "0x address of the verifier contract (cairn contract deploy)")
	fs.StringVar(&c.EVMKeyFile, "evm-key-file", c.EVMKeyFile, "file (mode 0600) with the hex private key of the contract's owner or an updater")
	fs.Uint64Var(&c.EVMConfirmations, "evm-confirmations", c.EVMConfirmations, "blocks, counting the one with the transaction, before a version is synced")
	fs.DurationVar(&c.EVMPollInterval, "evm-poll-interval", c.EVMPollInterval, "how often the anchoring transaction is checked on chain")
	fs.BoolVar(&c.EVMOracle, "evm-oracle", c.EVMOracle, "with anchoring: keep the contract's Chainalysis-compatible isSanctioned(address) storage in step with each anchored version (addSanctioned/removeSanctioned transactions from --evm-key-file, paid by it)")
	fs.Uint64Var(&c.EVMOracleFromBlock, "evm-oracle-from-block", c.EVMOracleFromBlock, "with --evm-oracle: first block whose SanctionedAddressesAdded/Removed events are read to learn what the contract marks, e.g. its deployment block (cairn contract deploy prints it); needed when the contract held roots before this data dir anchored any, where the scan would start at block 0 (0: the block of the first roots this data dir anchored)")
	fs.StringVar(&c.PublicEVMRPCURL, "public-evm-rpc-url", c.PublicEVMRPCURL, "with anchoring: an http(s) JSON-RPC endpoint of the same chain, without credentials, that the proof report page calls from the reader's browser to check the anchored roots (eth_call); shown to every reader and allowed by the page's Content-Security-Policy (empty: the page leaves the chain to cairn verify-proof)")
	fs.Int64Var(&c.StarterCredits, "starter-credits", c.StarterCredits, "credits a self-registered account starts with")
	fs.DurationVar(&c.CacheTTL, "cache-ttl", c.CacheTTL, "how long an authenticated API key and a media record are remembered in memory (0: every request reads the store); a rotation, revocation or media delete made through another instance sharing the store takes effect within it")
	fs.Int64Var(&c.BlobCacheBytes, "blob-cache-bytes", c.BlobCacheBytes, "memory for the blob store's read cache of metadata and verified chunks (0: none)")
	addBlobFlags(fs, c)
	addWebhookFlags(fs, c)
	fs.StringVar(&c.EmbedderURL, "embedder-url", c.EmbedderURL, "OpenAI-compatible embeddings endpoint (Ollama, vLLM, text-embeddings-inference; …/v1/embeddings is appended to a base URL) whose vectors make the memory space server (empty: hash-v1 only)")
	fs.StringVar(&c.EmbedderModel, "embedder-model", c.EmbedderModel, "model name sent to --embedder-url")
	fs.IntVar(&c.VectorHNSWThreshold, "vector-hnsw-threshold", c.VectorHNSWThreshold, "vectors in one agent's server or client vector space from which its search uses an HNSW graph instead of an exact scan (hash-v1 is always exact; 0: exact only)")
	return fs
}

// addStoreFlags adds the flags of the store, as serve and ingest take them.
func addStoreFlags(fs *flag.FlagSet, c *Config) {
	fs.StringVar(&c.DataDir, "data-dir", c.DataDir, "directory of the embedded store, blobs and keys")
	fs.StringVar(&c.Store, "store", c.Store, "pebble (embedded, in the data dir), or postgres with --postgres-url (or a postgres:// URL here) for accounts, keys, ledger, audit, settings, media records, screening windows, list versions and reports")
	fs.StringVar(&c.PostgresURL, "postgres-url", c.PostgresURL, "with --store postgres: the database's postgres:// URL (better from CAIRN_POSTGRES_URL, which keeps its password off the command line)")
	fs.StringVar(&c.PostgresSchema, "postgres-schema", c.PostgresSchema, "schema of the Postgres store (created if absent)")
}

// addSourceFlags adds the flags of the sanctions sources, as serve and
// ingest take them.
func addSourceFlags(fs *flag.FlagSet, c *Config) {
	fs.Var(&c.Sources, "source", "sanctions source NAME=PATH_OR_URL (gov_sdn, aggregated_sanctions, list:<chain>); repeatable, \";\"-separated in the environment")
	fs.Var(&c.SourceHeaders, "source-header", "SOURCE:HEADER=VALUE, a header sent with every HTTP request for that source, e.g. gov_sdn:Authorization=Bearer KEY, so that keys need not sit in its URL (never logged); repeatable, \";\"-separated in the environment (better from CAIRN_SOURCE_HEADER)")
	fs.Float64Var(&c.IngestMaxDrop, "ingest-max-drop", c.IngestMaxDrop, "share of a source's entries a new version may drop before it is refused (0 < x <= 1)")
}

// addWebhookFlags declares the flags of webhook deliveries.
func addWebhookFlags(fs *flag.FlagSet, c *Config) {
	fs.BoolVar(&c.WebhookAllowPrivate, "webhook-allow-private", c.WebhookAllowPrivate, "let webhook URLs be http and reach loopback, private and link-local addresses (tests and internal deployments; off, such targets are refused when each connection is made)")
	fs.DurationVar(&c.WebhookTimeout, "webhook-timeout", c.WebhookTimeout, "longest time of one webhook delivery attempt (connect, TLS, answer)")
	fs.IntVar(&c.WebhookConcurrency, "webhook-concurrency", c.WebhookConcurrency, "webhook delivery attempts in flight at once, in total")
	fs.IntVar(&c.WebhookPerEndpoint, "webhook-per-endpoint", c.WebhookPerEndpoint, "webhook delivery attempts in flight at once to one endpoint")
	fs.DurationVar(&c.WebhookPollInterval, "webhook-poll-interval", c.WebhookPollInterval, "how often due webhook deliveries are looked for, besides the wake-ups of new ones (another instance's alerts are found so)")
	fs.DurationVar(&c.WebhookRetryFor, "webhook-retry-for", c.WebhookRetryFor, "how long a webhook delivery is retried before it is failed, and an endpoint may fail before it is disabled")
	fs.DurationVar(&c.WebhookMaxRetryDelay, "webhook-max-retry-delay", c.WebhookMaxRetryDelay, "longest delay between two attempts of a webhook delivery (the first retry is 5s after the failure, each next one twice as late)")
}

// addBlobFlags declares the flags of the blob store (serve and ingest).
func addBlobFlags(fs *flag.FlagSet, c *Config) {
	fs.StringVar(&c.Blob, "blob", c.Blob, "blob store: fs (files under the data dir) or s3 (an S3-compatible service: --s3-*)")
	fs.StringVar(&c.S3Endpoint, "s3-endpoint", c.S3Endpoint, "host[:port] of the S3 API, e.g. s3.amazonaws.com, or its URL, e.g. http://127.0.0.1:9000 (the scheme sets --s3-secure)")
	fs.StringVar(&c.S3Bucket, "s3-bucket", c.S3Bucket, "bucket of the blobs (it must exist)")
	fs.Var(envOnly{&c.S3AccessKey}, "s3-access-key", "access key of the S3 service: from the environment only ("+EnvName("s3-access-key")+")")
	fs.Var(envOnly{&c.S3SecretKey}, "s3-secret-key", "secret key of the S3 service: from the environment only ("+EnvName("s3-secret-key")+")")
	fs.BoolVar(&c.S3Secure, "s3-secure", c.S3Secure, "talk https to the S3 service (an http:// or https:// --s3-endpoint overrides it)")
	fs.StringVar(&c.S3Region, "s3-region", c.S3Region, "region requests to the S3 service are signed for")
}

// envOnlyFlags are the flags read from the environment only: a secret on a
// command line is visible to every local user in the process list.
var envOnlyFlags = map[string]bool{"s3-access-key": true, "s3-secret-key": true}

// envOnly is the value of an env-only flag: its String never shows the
// value, so no usage or error message prints it.
type envOnly struct{ p *string }

func (v envOnly) String() string { return "" }

func (v envOnly) Set(s string) error { *v.p = s; return nil }

// parseWithEnv parses args after applying CAIRN_* environment variables to
// the flags not given on the command line. An env-only flag on the command
// line is refused.
func parseWithEnv(fs *flag.FlagSet, args []string, getenv func(string) string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for name := range given {
		if envOnlyFlags[name] {
			return fmt.Errorf("--%s is read from the environment only (%s): a command line is visible to every local user", name, EnvName(name))
		}
	}
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if given[f.Name] || err != nil {
			return
		}
		env := EnvName(f.Name)
		if v := getenv(env); v != "" {
			if e := f.Value.Set(v); e != nil && wants(f) != "" {
				err = fmt.Errorf("%s=%q is not a value of --%s, which takes %s", env, v, f.Name, wants(f))
			} else if e != nil {
				err = fmt.Errorf("%s=%q is not a value of --%s: %v", env, v, f.Name, e)
			}
		}
	})
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	return err
}

// EnvName returns the environment variable of a flag: CAIRN_ + upper snake.
func EnvName(flagName string) string {
	return "CAIRN_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}
