package evm

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// rootsTopic is the RootsUpdated event's signature topic.
var rootsTopic = crypto.Keccak256Hash([]byte("RootsUpdated(uint64,bytes32,bytes32,bytes32,bytes32,uint64,address)"))

// AnchoredRoots are the roots a RootsUpdated event of the verifier
// contract recorded for one list version, and where.
type AnchoredRoots struct {
	Sanctions, Community, Exclusion, CommunityExclusion common.Hash
	Block                                               uint64
	TxHash                                              common.Hash
}

// RootsOf returns what the contract's RootsUpdated events recorded for
// list version v, oldest first (none: v was never anchored there; more
// than one: the owner forced the same version again). It reads the logs
// from fromBlock to the newest block, with the version as the indexed
// topic, so that a verifier needs no record of its own.
func RootsOf(ctx context.Context, b bind.ContractFilterer, contract common.Address, v uint64, fromBlock uint64) ([]AnchoredRoots, error) {
	logs, err := b.FilterLogs(ctx, ethereum.FilterQuery{
		FromBlock: new(big.Int).SetUint64(fromBlock), Addresses: []common.Address{contract},
		Topics: [][]common.Hash{{rootsTopic}, {common.BigToHash(new(big.Int).SetUint64(v))}},
	})
	if err != nil {
		return nil, fmt.Errorf("read the RootsUpdated events of list version %d: %w", v, err)
	}
	verifier := NewVerifier()
	var out []AnchoredRoots
	for i := range logs {
		if logs[i].Removed {
			continue
		}
		ev, err := verifier.UnpackRootsUpdatedEvent(&logs[i])
		if err != nil {
			return nil, fmt.Errorf("decode RootsUpdated in %s: %w", logs[i].TxHash, err)
		}
		if ev.ListVersion != v {
			continue
		}
		out = append(out, AnchoredRoots{Sanctions: ev.SanctionsRoot, Community: ev.CommunityRoot, Exclusion: ev.ExclusionRoot,
			CommunityExclusion: ev.CommunityExclusionRoot, Block: logs[i].BlockNumber, TxHash: logs[i].TxHash})
	}
	return out, nil
}
