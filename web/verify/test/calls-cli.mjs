// calls-cli reads {account, low, high, proof, flags, leaves} as JSON on
// stdin and writes the calldata the committed bundle encodes for the
// verifier contract's isSanctioned(address,bytes32[]),
// isNotSanctioned(address,address,address,bytes32[]) and
// multiProofVerify(bytes32[],bool[],bytes32[]), with their selectors, as
// JSON on stdout; the Go tests compare them with go-ethereum's encoding
// of the contract's ABI.
import { encodeIsSanctioned, encodeIsNotSanctioned, encodeMultiProofVerify, selectors } from '../dist/cairn-verify.js';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const r = JSON.parse(input);
process.stdout.write(
  JSON.stringify({
    selectors,
    isSanctioned: encodeIsSanctioned(r.account, r.proof),
    isNotSanctioned: encodeIsNotSanctioned(r.account, r.low, r.high, r.proof),
    multiProofVerify: encodeMultiProofVerify(r.proof, r.flags, r.leaves),
  }) + '\n',
);
