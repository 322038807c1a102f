package evm

import (
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/store"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
)

// Options configure an Anchorer.
type Options struct {
	Backend  Backend
	Key      *ecdsa.PrivateKey // signs setRoots; must be the contract's owner or an updater
	ChainID  uint64            // 0: the node's, asked once by NewAnchorer
	Contract common.Address
	// Confirmations is how many blocks, counting the one that includes the
	// transaction, make a version synced (0 counts as 1).
	Confirmations uint64
	Store         store.Anchors
	Clock         cairn.Clock
	Logger        *slog.Logger
	// PollInterval is how often Run looks at the chain (0: 4 s). A new
	// version wakes it at once.
	PollInterval time.Duration
	// MinBackoff and MaxBackoff bound the wait after a failure, doubled at
	// each failure in a row (0: 2 s and 5 min).
	MinBackoff, MaxBackoff time.Duration
	// GapGrace is how long a nonce gap below the transaction must last
	// before the version is signed again at the missing nonce (0: 1 min).
	GapGrace time.Duration
	// CallTimeout bounds each round's calls to the node (0: 30 s).
	CallTimeout time.Duration
	// OnSynced, when set, hears each version once it is synced (the
	// anchor.synced webhook).
	OnSynced func(context.Context, cairn.Anchor)
}

// Anchorer is chain.Anchorer on an EVM chain: Submit records a version,
// Run sends and follows its transaction. See the package doc and
// README.md ("Anchoring the roots on chain") for the rules.
type Anchorer struct {
	opts     Options
	b        Backend
	chainID  *big.Int
	target   string
	from     common.Address
	verifier *Verifier
	contract *bind.BoundContract
	log      *slog.Logger
	wake     chan struct{}
	// sendMu makes the anchorer's rounds and the oracle's one at a time:
	// they sign with the same key, so never at the same nonce.
	sendMu sync.Mutex
	// onSynced, set before Run, is called when a version becomes synced
	// (the oracle's nudge).
	onSynced func()

	mu       sync.Mutex
	gapSince map[common.Hash]time.Time // first time a nonce gap was seen below a transaction
	waitHead uint64                    // the head logWaiting last logged, for waitTx
	head     atomic.Uint64             // the newest head read while a transaction was mined
	waitTx   string
}

var _ chain.Anchorer = (*Anchorer)(nil)

// NewAnchorer checks the options and returns an Anchorer. It talks to the
// node only when opts.ChainID is 0 (to learn the chain id), so a node that
// is down does not stop the service from starting when the id is given.
func NewAnchorer(ctx context.Context, opts Options) (*Anchorer, error) {
	if opts.Backend == nil || opts.Key == nil || opts.Store == nil {
		return nil, errors.New("evm: an anchorer needs a backend, a key and a store")
	}
	if opts.Contract == (common.Address{}) {
		return nil, errors.New("evm: no contract address")
	}
	if opts.Clock == nil {
		opts.Clock = cairn.SystemClock{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Confirmations == 0 {
		opts.Confirmations = 1
	}
	setDefault(&opts.PollInterval, 4*time.Second)
	setDefault(&opts.MinBackoff, 2*time.Second)
	setDefault(&opts.MaxBackoff, 5*time.Minute)
	setDefault(&opts.GapGrace, time.Minute)
	setDefault(&opts.CallTimeout, 30*time.Second)
	id := new(big.Int).SetUint64(opts.ChainID)
	if opts.ChainID == 0 {
		var err error
		if id, err = CheckChainID(ctx, opts.Backend, 0); err != nil {
			return nil, fmt.Errorf("evm: %s (give the chain id to start while the node is unreachable)", Redact(err))
		}
	}
	v := NewVerifier()
	a := &Anchorer{
		opts: opts, b: opts.Backend, chainID: id, from: Address(opts.Key), verifier: v,
		contract: v.Instance(opts.Backend, opts.Contract),
		target:   Target(id.Uint64(), opts.Contract),
		log:      opts.Logger.With("chain_id", id.String(), "contract", strings.ToLower(opts.Contract.Hex())),
		wake:     make(chan struct{}, 1), gapSince: map[common.Hash]time.Time{},
	}
	return a, nil
}

func setDefault(d *time.Duration, v time.Duration) {
	if *d <= 0 {
		*d = v
	}
}

// Target names a contract on a chain in the anchor records: "<chain
// id>:<lower-case 0x address>". Records of another target are ignored, so
// pointing cairn at a new contract anchors the current version there.
func Target(chainID uint64, contract common.Address) string {
	return fmt.Sprintf("%d:%s", chainID, strings.ToLower(contract.Hex()))
}

// From is the account that sends the anchoring transactions.
func (a *Anchorer) From() common.Address { return a.from }

// Submit records that list version v, with these roots, is to be anchored
// and wakes Run. It writes only to the store: a chain outage never blocks
// it. A version not newer than the newest recorded one is ignored, and so
// is version 0 (no list yet). So is a version whose four roots equal those
// of the newest recorded one (the sources did not change): the contract
// keeps the older version number, and every proof of the new version
// verifies against it all the same, without paying for a transaction.
func (a *Anchorer) Submit(ctx context.Context, v uint64, roots chain.Roots) error {
	if v == 0 {
		return nil
	}
	last, err := store.LatestAnchor(ctx, a.opts.Store, a.target)
	if err == nil && chain.RootsOf(last) == roots {
		a.log.Debug("list version has the anchored roots; not sent", "list_version", v, "anchored_version", last.ListVersion)
		return nil
	} else if err != nil && !cairn.IsCode(err, cairn.ENOTFOUND) {
		return err
	}
	err = a.opts.Store.CreateAnchor(ctx, cairn.Anchor{
		Target: a.target, ListVersion: v, Status: chain.AnchorPending,
		SanctionsRoot: hex0x(roots.Sanctions[:]), CommunityRoot: hex0x(roots.Community[:]),
		ExclusionRoot: hex0x(roots.Exclusion[:]), CommunityExclusionRoot: hex0x(roots.CommunityExclusion[:]),
		From: strings.ToLower(a.from.Hex()), CreatedAt: a.opts.Clock.Now(),
	})
	if cairn.IsCode(err, cairn.ECONFLICT) {
		return nil
	} else if err != nil {
		return err
	}
	a.log.Info("list version to anchor", "list_version", v)
	a.nudge()
	return nil
}

// onChainRoots are the four roots of the contract's roots().
func onChainRoots(on RootsOutput) chain.Roots {
	return chain.Roots{Sanctions: on.SanctionsRoot, Community: on.CommunityRoot, Exclusion: on.ExclusionRoot,
		CommunityExclusion: on.CommunityExclusionRoot}
}

// nudge makes Run start a round now, or right after the current one.
func (a *Anchorer) nudge() { nudge(a.wake) }

// Status reports the newest recorded version; before any, it is pending
// with list version 0.
func (a *Anchorer) Status(ctx context.Context) (cairn.Anchor, error) {
	r, err := store.LatestAnchor(ctx, a.opts.Store, a.target)
	if cairn.IsCode(err, cairn.ENOTFOUND) {
		return cairn.Anchor{Status: chain.AnchorPending, Target: a.target}, nil
	} else if err != nil {
		return cairn.Anchor{Status: chain.AnchorPending, Target: a.target}, err
	}
	if r.Status == chain.AnchorPending && len(r.RawTx) == 0 {
		// Waiting for an older version's transaction: show its failure.
		older, err := a.opts.Store.ListAnchors(ctx, a.target, r.ListVersion, 1)
		if err == nil && len(older) == 1 && older[0].Status == chain.AnchorFailed && len(older[0].RawTx) != 0 {
			r.Status = chain.AnchorFailed
			r.Error = fmt.Sprintf("waiting for transaction %s of list version %d: %s", older[0].TxHash, older[0].ListVersion, older[0].Error)
		}
	}
	return r, nil
}

// Run anchors until ctx ends: a round at once, then every poll interval,
// whenever Submit records a version, and a second (at most a poll interval)
// after each broadcast. Failures are recorded in the
// store and retried with backoff; Run itself never fails.
func (a *Anchorer) Run(ctx context.Context) {
	a.log.Info("anchoring list roots", "from", a.from.Hex(), "confirmations", a.opts.Confirmations)
	a.warnIfOwner(ctx)
	rounds(ctx, a.opts.PollInterval, a.wake, func() {
		if err := a.Step(ctx); err != nil && ctx.Err() == nil {
			a.log.Error("anchoring round failed", "err", Redact(err))
		}
	})
}

// nudge asks a rounds loop waiting on wake for a round now; a round
// already asked for is not asked again.
func nudge(wake chan struct{}) {
	select {
	case wake <- struct{}{}:
	default:
	}
}

// rounds calls round at once, then every interval and whenever wake
// receives, until ctx ends.
func rounds(ctx context.Context, every time.Duration, wake <-chan struct{}, round func()) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		round()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-wake:
		}
	}
}

// warnIfOwner logs a warning when the anchoring key is the contract's
// owner: a key that lives on the server should be an updater only, so
// that its theft cannot hand the contract over or lock the owner out. A
// node that cannot be read now says nothing (the first rounds report it).
func (a *Anchorer) warnIfOwner(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, a.opts.CallTimeout)
	defer cancel()
	owner, err := bind.Call(a.contract, &bind.CallOpts{Context: ctx}, a.verifier.PackOwner(), a.verifier.UnpackOwner)
	if err == nil && owner == a.from {
		a.log.Warn("the anchoring key is the contract's owner: grant a separate updater key "+
			"(cairn contract deploy --updater ADDR, or setUpdater from the owner) and keep the owner key off the server",
			"owner", owner.Hex())
	}
}

func hex0x(b []byte) string { return "0x" + hex.EncodeToString(b) }
