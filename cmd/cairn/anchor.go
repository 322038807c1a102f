package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/screening"
	"github.com/cairn-dev/cairn/store"
	"github.com/ethereum/go-ethereum/common"
)

// anchorEnabled reports whether the service anchors list roots on an EVM
// chain: only when --evm-rpc-url is set. Other --evm-* flags without it
// are a mistake, not a silent no.
func (c Config) anchorEnabled() (bool, error) {
	if c.EVMRPCURL == "" {
		if c.EVMContract != "" || c.EVMKeyFile != "" || c.EVMChainID != 0 {
			return false, errors.New("--evm-contract, --evm-key-file and --evm-chain-id need --evm-rpc-url")
		}
		return false, nil
	}
	if c.EVMContract == "" || c.EVMKeyFile == "" {
		return false, errors.New("anchoring (--evm-rpc-url) needs --evm-contract and --evm-key-file")
	}
	if !common.IsHexAddress(c.EVMContract) {
		return false, fmt.Errorf("--evm-contract %q is not a 0x address", c.EVMContract)
	}
	return true, nil
}

// openAnchorer builds the anchorer when anchoring is configured. The node
// is dialled lazily by go-ethereum: an unreachable node does not stop the
// service (give --evm-chain-id so that nothing is asked of it at start).
func (m *Main) openAnchorer(ctx context.Context, s store.Anchors) error {
	on, err := m.Config.anchorEnabled()
	if err != nil || !on {
		return err
	}
	key, err := evm.LoadKeyFile(m.Config.EVMKeyFile)
	if err != nil {
		return fmt.Errorf("--evm-key-file: %w", err)
	}
	backend := m.EVMBackend
	if backend == nil {
		c, err := evm.Dial(ctx, m.Config.EVMRPCURL)
		if err != nil {
			return fmt.Errorf("--evm-rpc-url: %s", evm.Redact(err))
		}
		m.evmClose = c.Close
		backend = c
	}
	m.anchorer, err = evm.NewAnchorer(ctx, evm.Options{
		Backend: backend, Key: key, ChainID: m.Config.EVMChainID, Contract: common.HexToAddress(m.Config.EVMContract),
		Confirmations: m.Config.EVMConfirmations, PollInterval: m.Config.EVMPollInterval,
		Store: s, Clock: m.Clock, Logger: m.Logger.With("component", "anchor"),
		OnSynced: func(ctx context.Context, a cairn.Anchor) {
			if m.webhooks != nil {
				m.webhooks.AnchorSynced(ctx, a)
			}
		},
	})
	return err
}

// openOracle builds the oracle when anchoring is on and --evm-oracle is
// set: it keeps the contract's isSanctioned(address) storage in step with
// the anchored versions the holder keeps. It runs on the leader beside the
// anchorer, whose key and records it shares.
func (m *Main) openOracle(holder *screening.Holder) error {
	if m.anchorer == nil || !m.Config.EVMOracle {
		return nil
	}
	var err error
	m.oracle, err = evm.NewOracle(m.anchorer, evm.OracleOptions{Lists: compliance.OracleLists(holder), MaxGas: m.EVMOracleMaxGas,
		FromBlock: m.Config.EVMOracleFromBlock})
	return err
}

// chainAnchorer is the anchorer as the front end takes it: a nil interface
// when anchoring is off (never a typed nil *evm.Anchorer, which would look
// configured), so that GET /v1/compliance/merkle-root shows "disabled".
func (m *Main) chainAnchorer() chain.Anchorer {
	if m.anchorer == nil {
		return nil
	}
	return m.anchorer
}

// anchorVersion hands a list version's roots to the anchorer. Errors are
// logged: anchoring never fails ingestion.
func (m *Main) anchorVersion(ctx context.Context, v cairn.ListVersion) {
	if m.anchorer == nil {
		return
	}
	sanctions, community, ok := listRoots(v)
	if !ok {
		m.Logger.Warn("list version stored with one tree over every source, community included: not anchored; the next version is",
			"version", v.Version)
		return
	}
	roots := chain.Roots{Sanctions: sanctions, Community: community}
	copy(roots.Exclusion[:], common.FromHex(v.ExclusionRoot))
	copy(roots.CommunityExclusion[:], common.FromHex(v.CommunityExclusionRoot))
	if v.ExclusionRoot == "" {
		// A version stored before the exclusion trees existed: its index,
		// rebuilt at start, has them.
		ix := m.pipeline.Holder.Current()
		if ix.Version != v.Version || ix.Root() != sanctions || ix.CommunityRoot() != community {
			m.Logger.Warn("list version stored without exclusion roots: not anchored; the next version is", "version", v.Version)
			return
		}
		roots.Exclusion, roots.CommunityExclusion = ix.ExclusionRoot(), ix.CommunityExclusionRoot()
	}
	if err := m.anchorer.Submit(ctx, v.Version, roots); err != nil {
		m.Logger.Error("recording the list version to anchor failed", "version", v.Version, "err", err)
	}
}

// anchorCurrent submits the stored list version at start-up: a version
// built while anchoring was off, or for another contract, is anchored now.
func (m *Main) anchorCurrent(ctx context.Context) error {
	if m.anchorer == nil {
		return nil
	}
	v, err := m.core.LastListVersion(ctx)
	if cairn.IsCode(err, cairn.ENOTFOUND) {
		return nil
	} else if err != nil {
		return err
	}
	m.anchorVersion(ctx, v)
	return nil
}

// listRoots returns the sanctions and community roots of a list version.
// A version stored before the community tree existed has only Root, over
// every source: without community entries it is the sanctions root (and
// the community root is zero); with them it would let a community flag
// verify as sanctioned on chain, so it is not anchored (ok false).
func listRoots(v cairn.ListVersion) (sanctions, community [32]byte, ok bool) {
	if v.SanctionsRoot == "" {
		if _, mixed := v.Sources[screening.SourceCommunity]; mixed {
			return sanctions, community, false
		}
		copy(sanctions[:], common.FromHex(v.Root))
		return sanctions, community, true
	}
	copy(sanctions[:], common.FromHex(v.SanctionsRoot))
	copy(community[:], common.FromHex(v.CommunityRoot))
	return sanctions, community, true
}
