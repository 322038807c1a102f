#!/usr/bin/env bash
# Regenerates everything derived from the contracts: the ABI and the
# creation bytecode of CairnVerifier.sol (contracts/CairnVerifier.{abi,bin})
# and of the integrator example examples/SanctionsGuard.sol
# (contracts/examples/GuardedToken.{abi,bin}), compiled by solc 0.8.37 from
# npm, offline, and the go-ethereum abigen v2 bindings of the verifier
# (chain/evm/verifier_abigen.go). The compiler and OpenZeppelin come from
# the committed package-lock.json.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
node build.js
cd ..
# abigen runs from its own module, pinned to the go-ethereum version of go.mod.
GOFLAGS= go run github.com/ethereum/go-ethereum/cmd/abigen@v1.17.10 --v2 \
  --abi contracts/CairnVerifier.abi --bin contracts/CairnVerifier.bin \
  --pkg evm --type Verifier --out chain/evm/verifier_abigen.go
gofmt -l chain/evm/verifier_abigen.go | (! grep .)
