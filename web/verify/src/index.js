// cairn-verify: the verifier of cairn's proofs in JavaScript, for the
// proof report page, wallets and dapps. It trusts nothing the server says
// about a document: it recomputes leaves, proofs, multiproofs, exclusion
// gaps, the results hash and the issuer's Ed25519 signature, and encodes
// the verifier contract's calls that check the same proofs on chain.
export { keccak256, sha256, snapshotDigest, toHex, fromHex } from './bytes.js';
export {
  parseHash,
  hashHex,
  standardLeaf,
  leafHash,
  gapLeafHash,
  hashPair,
  processProof,
  verifyProof,
  processMultiProof,
  verifyMultiProof,
  inGap,
} from './merkle.js';
export { topLevelMembers, compact } from './rawjson.js';
export { statement, verifySignature, keyId, SIGNATURE_ALG } from './signature.js';
export { verifyDocument, signingKeysURL } from './document.js';
export { selector, selectors, encodeIsSanctioned, encodeIsNotSanctioned, encodeMultiProofVerify } from './calls.js';
