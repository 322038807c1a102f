// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";

/// @title CairnVerifier
/// @notice Holds the Merkle roots of cairn's current list version so that
/// anyone can check on chain that an address is listed, or that it is not,
/// and answers the Chainalysis sanctions oracle interface
/// (`isSanctioned(address)`) from storage that anyone keeps in step with the
/// anchored tree by proofs.
///
/// Four trees per list version, all OpenZeppelin StandardMerkleTree trees
/// (leaf = keccak256(bytes.concat(keccak256(abi.encode(values))))):
///  - the sanctions tree and the community tree, of ["string","string"]
///    leaves (family, canonical address), for example ("evm", "0x8589...")
///    with an EVM address in lower-case hex;
///  - their exclusion trees, of ["string","string","string"] leaves
///    (family, low, high): low and high are consecutive listed addresses of
///    the family in bytewise order, "" standing for "below every address"
///    (low) or "above every address" (high). A family with no listed
///    address has the one leaf (family, "", ""). Address x is proven not
///    listed by a leaf with (low == "" || low < x) && (high == "" || x < high).
///
/// Only the owner and the updaters it grants set the roots, and only for a
/// list version newer than the current one, so a replayed or duplicated
/// update is refused rather than applied twice. The owner alone may set
/// roots at any version (forceSetRoots), to recover from a compromised
/// updater key.
contract CairnVerifier {
    /// @notice The account that may set roots, grant and revoke updaters and
    /// hand the contract over.
    address public owner;
    /// @notice Accounts the owner allowed to set roots.
    mapping(address account => bool) public isUpdater;

    bytes32 private _sanctionsRoot;
    bytes32 private _communityRoot;
    bytes32 private _exclusionRoot;
    bytes32 private _communityExclusionRoot;
    uint64 private _listVersion;
    uint64 private _updatedAt;
    /// @dev The oracle's storage: EVM accounts proven in the sanctions tree.
    mapping(address account => bool) private _sanctioned;

    /// @dev The highest address: in isNotSanctioned it stands for the high
    /// sentinel "" (above every address).
    address private constant MAX_ADDRESS = address(type(uint160).max);

    /// @notice The roots of list version `listVersion` were set at block
    /// time `updatedAt` by `updater`.
    event RootsUpdated(
        uint64 indexed listVersion,
        bytes32 sanctionsRoot,
        bytes32 communityRoot,
        bytes32 exclusionRoot,
        bytes32 communityExclusionRoot,
        uint64 updatedAt,
        address indexed updater
    );
    /// @notice The owner set the roots of `listVersion` by forceSetRoots,
    /// replacing those of `previousListVersion` whatever their order.
    event RootsForced(uint64 indexed listVersion, uint64 previousListVersion, address indexed owner);
    /// @notice The owner granted (`enabled`) or revoked the updater role.
    event UpdaterSet(address indexed account, bool enabled);
    /// @notice The contract changed hands.
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);
    /// @notice isSanctionedVerbose found `addr` sanctioned (Chainalysis' event).
    event SanctionedAddress(address indexed addr);
    /// @notice isSanctionedVerbose found `addr` not sanctioned (Chainalysis' event).
    event NonSanctionedAddress(address indexed addr);
    /// @notice `addrs` were proven in the sanctions tree and are now
    /// sanctioned for isSanctioned(address) (Chainalysis' event).
    event SanctionedAddressesAdded(address[] addrs);
    /// @notice `addrs` were proven absent from the sanctions tree and are no
    /// longer sanctioned for isSanctioned(address) (Chainalysis' event).
    event SanctionedAddressesRemoved(address[] addrs);

    /// @notice `caller` may not do this: it is not the owner (nor, for
    /// setRoots, an updater).
    error Unauthorized(address caller);
    /// @notice The update is for `listVersion`, not newer than `current`.
    error StaleListVersion(uint64 listVersion, uint64 current);
    /// @notice The zero address cannot own the contract.
    error ZeroAddress();
    /// @notice No sanctions or exclusion root is set: nothing can be proven.
    error NoRoot();
    /// @notice The multiproof does not prove the accounts' membership
    /// leaves against the current sanctions root.
    error InvalidMembershipProof();
    /// @notice The exclusion proof does not prove that `account` is absent
    /// from the current sanctions tree.
    error InvalidExclusionProof(address account);
    /// @notice The arrays of one call differ in length.
    error LengthMismatch();

    constructor() {
        owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert Unauthorized(msg.sender);
        _;
    }

    // ---------------------------------------------------------------- roots

    /// @notice Sets the four roots of list version `listVersion`, which must
    /// be newer than the current one. Owner or updater only.
    /// @param sanctionsRoot_ root of the sanctions tree (membership)
    /// @param communityRoot_ root of the community tree (membership)
    /// @param exclusionRoot_ root of the sanctions exclusion tree (gaps)
    /// @param communityExclusionRoot_ root of the community exclusion tree
    /// @param listVersion_ the list version these roots belong to
    function setRoots(
        bytes32 sanctionsRoot_,
        bytes32 communityRoot_,
        bytes32 exclusionRoot_,
        bytes32 communityExclusionRoot_,
        uint64 listVersion_
    ) external {
        if (msg.sender != owner && !isUpdater[msg.sender]) revert Unauthorized(msg.sender);
        uint64 current = _listVersion;
        if (listVersion_ <= current) revert StaleListVersion(listVersion_, current);
        _setRoots(sanctionsRoot_, communityRoot_, exclusionRoot_, communityExclusionRoot_, listVersion_);
    }

    /// @notice Sets the four roots at any list version, lower than the
    /// current one included. Owner only: the way back after an updater key
    /// was compromised (revoke it with setUpdater, then set the true roots
    /// here, even when the updater set a version of 2^64-1). Emits
    /// RootsForced and RootsUpdated.
    /// @param sanctionsRoot_ root of the sanctions tree (membership)
    /// @param communityRoot_ root of the community tree (membership)
    /// @param exclusionRoot_ root of the sanctions exclusion tree (gaps)
    /// @param communityExclusionRoot_ root of the community exclusion tree
    /// @param listVersion_ the list version these roots belong to
    function forceSetRoots(
        bytes32 sanctionsRoot_,
        bytes32 communityRoot_,
        bytes32 exclusionRoot_,
        bytes32 communityExclusionRoot_,
        uint64 listVersion_
    ) external onlyOwner {
        emit RootsForced(listVersion_, _listVersion, msg.sender);
        _setRoots(sanctionsRoot_, communityRoot_, exclusionRoot_, communityExclusionRoot_, listVersion_);
    }

    function _setRoots(bytes32 s, bytes32 c, bytes32 e, bytes32 ce, uint64 v) private {
        uint64 setAt = uint64(block.timestamp);
        _sanctionsRoot = s;
        _communityRoot = c;
        _exclusionRoot = e;
        _communityExclusionRoot = ce;
        _listVersion = v;
        _updatedAt = setAt;
        emit RootsUpdated(v, s, c, e, ce, setAt, msg.sender);
    }

    /// @notice Grants (`enabled`) or revokes the updater role of `account`.
    /// Owner only.
    function setUpdater(address account, bool enabled) external onlyOwner {
        isUpdater[account] = enabled;
        emit UpdaterSet(account, enabled);
    }

    /// @notice Hands the contract to `newOwner`. Owner only.
    function transferOwnership(address newOwner) external onlyOwner {
        if (newOwner == address(0)) revert ZeroAddress();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    /// @notice The current sanctions root.
    function root() external view returns (bytes32) {
        return _sanctionsRoot;
    }

    /// @notice The current community root.
    function communityRoot() external view returns (bytes32) {
        return _communityRoot;
    }

    /// @notice The current root of the sanctions exclusion tree.
    function exclusionRoot() external view returns (bytes32) {
        return _exclusionRoot;
    }

    /// @notice The current root of the community exclusion tree.
    function communityExclusionRoot() external view returns (bytes32) {
        return _communityExclusionRoot;
    }

    /// @notice The list version the current roots belong to (0: none set).
    function listVersion() external view returns (uint64) {
        return _listVersion;
    }

    /// @notice The block time (Unix seconds) the current roots were set at.
    function updatedAt() external view returns (uint64) {
        return _updatedAt;
    }

    /// @notice Everything about the current roots in one call.
    function roots()
        external
        view
        returns (
            bytes32 sanctionsRoot_,
            bytes32 communityRoot_,
            bytes32 exclusionRoot_,
            bytes32 communityExclusionRoot_,
            uint64 listVersion_,
            uint64 updatedAt_
        )
    {
        return (_sanctionsRoot, _communityRoot, _exclusionRoot, _communityExclusionRoot, _listVersion, _updatedAt);
    }

    // ----------------------------------------------------------- membership

    /// @notice Whether the leaf hash `leaf` is in the current sanctions tree.
    /// `leaf` is a leaf HASH, the double-hashed standard leaf
    /// keccak256(bytes.concat(keccak256(abi.encode(family, addr)))) (see
    /// leafOf), not an address. Any node of the tree with its path verifies
    /// here too, the root itself with an empty proof: prefer isListed and
    /// isSanctioned, which compute the leaf from the address.
    function verify(bytes32[] calldata proof, bytes32 leaf) external view returns (bool) {
        return _verify(proof, _sanctionsRoot, leaf);
    }

    /// @notice Whether (family, addr) is in the current sanctions tree;
    /// addr is the canonical form cairn lists it under.
    function isListed(string calldata family, string calldata addr, bytes32[] calldata proof)
        external
        view
        returns (bool)
    {
        return _verify(proof, _sanctionsRoot, leafOf(family, addr));
    }

    /// @notice Whether the EVM account is in the current sanctions tree
    /// (the leaf of ("evm", its lower-case 0x hex)), by its proof.
    function isSanctioned(address account, bytes32[] calldata proof) external view returns (bool) {
        return _verify(proof, _sanctionsRoot, leafOf("evm", _lowerHex(account)));
    }

    /// @notice Whether every one of the leaf hashes `leaves` is in the
    /// current sanctions tree, by an OpenZeppelin multiproof. Like verify,
    /// it takes leaf HASHES (double-hashed standard leaves, see leafOf), in
    /// the multiproof's order. A proof whose lengths do not fit together is
    /// false; other malformed multiproofs revert with
    /// MerkleProofInvalidMultiproof.
    function multiProofVerify(bytes32[] calldata proof, bool[] calldata flags, bytes32[] calldata leaves)
        external
        view
        returns (bool)
    {
        bytes32 r = _sanctionsRoot;
        if (r == bytes32(0) || leaves.length + proof.length != flags.length + 1) return false;
        return MerkleProof.multiProofVerifyCalldata(proof, flags, r, leaves);
    }

    /// @notice Whether the leaf hash `leaf` is in the current community
    /// tree; a leaf HASH as in verify.
    function verifyCommunity(bytes32[] calldata proof, bytes32 leaf) external view returns (bool) {
        return _verify(proof, _communityRoot, leaf);
    }

    /// @notice Whether (family, addr) is in the current community tree.
    function isCommunityListed(string calldata family, string calldata addr, bytes32[] calldata proof)
        external
        view
        returns (bool)
    {
        return _verify(proof, _communityRoot, leafOf(family, addr));
    }

    /// @notice The OpenZeppelin StandardMerkleTree leaf of (family, addr)
    /// with the leaf encoding ["string","string"].
    function leafOf(string memory family, string memory addr) public pure returns (bytes32) {
        return keccak256(bytes.concat(keccak256(abi.encode(family, addr))));
    }

    /// @notice The OpenZeppelin StandardMerkleTree leaf of the gap (family,
    /// low, high) with the leaf encoding ["string","string","string"].
    function gapLeafOf(string memory family, string memory low, string memory high) public pure returns (bytes32) {
        return keccak256(bytes.concat(keccak256(abi.encode(family, low, high))));
    }

    // ------------------------------------------------------------ exclusion

    /// @notice Whether `account` is proven absent from the current sanctions
    /// tree: (low, high) is a gap leaf ("evm", low, high) of the current
    /// exclusion tree and low < account < high. Addresses cannot spell the
    /// "" sentinel, so low == address(0) stands for the low sentinel (below
    /// every address) and high == 0xff..ff for the high one (above every
    /// address); a sentinel bound compares nothing, so 0x00..00 and 0xff..ff
    /// are provable when unlisted. When 0x00..00 or 0xff..ff is itself
    /// listed, its gap leaf holds the literal address: a bound of 0 or
    /// 0xff..ff whose sentinel reading does not verify is tried literally
    /// too (strict comparison). False when no exclusion root is set.
    /// @param account the address proven not sanctioned
    /// @param low the listed address below it (address(0): none)
    /// @param high the listed address above it (0xff..ff: none)
    /// @param proof the Merkle proof of the gap leaf
    function isNotSanctioned(address account, address low, address high, bytes32[] calldata proof)
        external
        view
        returns (bool)
    {
        return _isNotSanctioned(_exclusionRoot, account, low, high, proof);
    }

    /// @notice Whether (family, addr) is proven absent from the current
    /// sanctions tree: (family, low, high) is a gap leaf of the current
    /// exclusion tree and (low == "" || low < addr) && (high == "" || addr <
    /// high), bytewise. addr must be cairn's canonical form of the address
    /// (`canonicalAddress` in the API's answers): for family "evm" "0x" and
    /// 40 lower-case hex digits, anything else is false, since another
    /// spelling of a listed address would sort into a gap; for other
    /// families no check is possible here, and a proof for a non-canonical
    /// spelling proves nothing about the address. An empty addr is false.
    /// @param family the address family, as in the membership leaves
    /// @param addr the canonical address proven not listed
    /// @param low the listed address of the family below addr ("": none)
    /// @param high the listed address of the family above addr ("": none)
    /// @param proof the Merkle proof of the gap leaf
    function isNotListed(
        string calldata family,
        string calldata addr,
        string calldata low,
        string calldata high,
        bytes32[] calldata proof
    ) external view returns (bool) {
        return _between(family, addr, low, high) && _verify(proof, _exclusionRoot, gapLeafOf(family, low, high));
    }

    /// @notice isNotListed against the community exclusion tree: whether
    /// (family, addr) is proven absent from the current community tree.
    /// @param family the address family, as in the membership leaves
    /// @param addr the canonical address proven not listed
    /// @param low the listed address of the family below addr ("": none)
    /// @param high the listed address of the family above addr ("": none)
    /// @param proof the Merkle proof of the gap leaf
    function isNotCommunityListed(
        string calldata family,
        string calldata addr,
        string calldata low,
        string calldata high,
        bytes32[] calldata proof
    ) external view returns (bool) {
        return _between(family, addr, low, high)
            && _verify(proof, _communityExclusionRoot, gapLeafOf(family, low, high));
    }

    // --------------------------------------------------------------- oracle

    /// @notice The Chainalysis oracle's name() of this oracle.
    function name() external pure returns (string memory) {
        return "cairn sanctions oracle";
    }

    /// @notice Whether `addr` is sanctioned, from storage (Chainalysis'
    /// SanctionsList interface): true once addSanctioned proved it in the
    /// sanctions tree, false again once removeSanctioned proved it absent.
    /// It is as current as the last add/remove calls: compare listVersion()
    /// and updatedAt() with what the operator anchored.
    function isSanctioned(address addr) public view returns (bool) {
        return _sanctioned[addr];
    }

    /// @notice isSanctioned(addr), emitting SanctionedAddress or
    /// NonSanctionedAddress as Chainalysis' oracle does.
    function isSanctionedVerbose(address addr) external returns (bool) {
        if (_sanctioned[addr]) {
            emit SanctionedAddress(addr);
            return true;
        }
        emit NonSanctionedAddress(addr);
        return false;
    }

    /// @notice Marks `accounts` sanctioned for isSanctioned(address), proven
    /// by an OpenZeppelin multiproof of their membership leaves ("evm",
    /// lower-case hex) against the current sanctions root, the accounts in
    /// the multiproof's leaf order. Anyone may call it; nobody, the owner
    /// included, can mark an account that is not in the anchored tree.
    /// Accounts already marked stay so (not repeated in the event).
    /// @param accounts the accounts, in the multiproof's leaf order
    /// @param proof the multiproof's sibling hashes
    /// @param proofFlags the multiproof's flags
    function addSanctioned(address[] calldata accounts, bytes32[] calldata proof, bool[] calldata proofFlags)
        external
    {
        uint256 n = accounts.length;
        if (n == 0) return;
        bytes32 r = _sanctionsRoot;
        if (r == bytes32(0)) revert NoRoot();
        if (n + proof.length != proofFlags.length + 1) revert InvalidMembershipProof();
        bytes32[] memory leaves = new bytes32[](n);
        for (uint256 i; i < n; ++i) {
            leaves[i] = leafOf("evm", _lowerHex(accounts[i]));
        }
        if (!MerkleProof.multiProofVerifyCalldata(proof, proofFlags, r, leaves)) revert InvalidMembershipProof();
        address[] memory added = new address[](n);
        uint256 k;
        for (uint256 i; i < n; ++i) {
            address a = accounts[i];
            if (!_sanctioned[a]) {
                _sanctioned[a] = true;
                added[k++] = a;
            }
        }
        if (k > 0) {
            assembly ("memory-safe") {
                mstore(added, k)
            }
            emit SanctionedAddressesAdded(added);
        }
    }

    /// @notice Unmarks `accounts`, each proven absent from the current
    /// sanctions tree by an exclusion proof as isNotSanctioned takes it
    /// (lows[i], highs[i], proofs[i]). Anyone may call it; the whole call
    /// reverts (InvalidExclusionProof) when one account is not proven.
    /// Accounts not marked stay so (not repeated in the event).
    /// @param accounts the accounts to unmark
    /// @param lows the listed address below each (address(0): none)
    /// @param highs the listed address above each (0xff..ff: none)
    /// @param proofs the Merkle proof of each gap leaf
    function removeSanctioned(
        address[] calldata accounts,
        address[] calldata lows,
        address[] calldata highs,
        bytes32[][] calldata proofs
    ) external {
        uint256 n = accounts.length;
        if (lows.length != n || highs.length != n || proofs.length != n) revert LengthMismatch();
        if (n == 0) return;
        bytes32 r = _exclusionRoot;
        if (r == bytes32(0)) revert NoRoot();
        address[] memory removed = new address[](n);
        uint256 k;
        for (uint256 i; i < n; ++i) {
            address a = accounts[i];
            if (!_isNotSanctioned(r, a, lows[i], highs[i], proofs[i])) revert InvalidExclusionProof(a);
            if (_sanctioned[a]) {
                _sanctioned[a] = false;
                removed[k++] = a;
            }
        }
        if (k > 0) {
            assembly ("memory-safe") {
                mstore(removed, k)
            }
            emit SanctionedAddressesRemoved(removed);
        }
    }

    // ------------------------------------------------------------- internal

    /// @dev isNotSanctioned against root r. Each bound is read as the
    /// sentinel first when it can be one (0 / 0xff..ff), then literally:
    /// at most 4 leaves are tried, more than one only on that path.
    function _isNotSanctioned(bytes32 r, address account, address low, address high, bytes32[] calldata proof)
        private
        pure
        returns (bool)
    {
        if (r == bytes32(0)) return false;
        bool lowSentinel = low == address(0);
        bool highSentinel = high == MAX_ADDRESS;
        // i bit 0: read low literally; bit 1: read high literally.
        for (uint256 i; i < 4; ++i) {
            bool lowLiteral = (i & 1) != 0 || !lowSentinel;
            bool highLiteral = (i & 2) != 0 || !highSentinel;
            if (((i & 1) != 0 && !lowSentinel) || ((i & 2) != 0 && !highSentinel)) continue; // same as a lower i
            if (lowLiteral && uint160(low) >= uint160(account)) continue;
            if (highLiteral && uint160(account) >= uint160(high)) continue;
            bytes32 leaf = gapLeafOf("evm", lowLiteral ? _lowerHex(low) : "", highLiteral ? _lowerHex(high) : "");
            if (MerkleProof.verifyCalldata(proof, r, leaf)) return true;
        }
        return false;
    }

    /// @dev Whether the bounds of isNotListed hold: addr is not empty,
    /// canonical for family "evm", and strictly between low and high
    /// (bytewise, "" bounding nothing).
    function _between(string calldata family, string calldata addr, string calldata low, string calldata high)
        private
        pure
        returns (bool)
    {
        if (bytes(addr).length == 0) return false;
        if (_isEvm(bytes(family)) && !_isCanonicalEvm(bytes(addr))) return false;
        if (bytes(low).length != 0 && !_less(bytes(low), bytes(addr))) return false;
        return bytes(high).length == 0 || _less(bytes(addr), bytes(high));
    }

    /// @dev Whether a sorts strictly before b, bytewise (a shorter string
    /// before the longer ones it starts). Compares 32-byte words.
    function _less(bytes calldata a, bytes calldata b) private pure returns (bool) {
        uint256 n = a.length < b.length ? a.length : b.length;
        for (uint256 i; i < n; i += 32) {
            uint256 wa;
            uint256 wb;
            assembly ("memory-safe") {
                wa := calldataload(add(a.offset, i))
                wb := calldataload(add(b.offset, i))
            }
            uint256 left = n - i;
            if (left < 32) {
                // Only the first `left` bytes belong to both strings.
                uint256 shift = (32 - left) * 8;
                wa >>= shift;
                wb >>= shift;
            }
            if (wa != wb) return wa < wb;
        }
        return a.length < b.length;
    }

    /// @dev Whether family is "evm".
    function _isEvm(bytes calldata family) private pure returns (bool) {
        return family.length == 3 && family[0] == "e" && family[1] == "v" && family[2] == "m";
    }

    /// @dev Whether s is "0x" and 40 lower-case hex digits.
    function _isCanonicalEvm(bytes calldata s) private pure returns (bool) {
        if (s.length != 42 || s[0] != "0" || s[1] != "x") return false;
        for (uint256 i = 2; i < 42; ++i) {
            bytes1 c = s[i];
            if (!((c >= "0" && c <= "9") || (c >= "a" && c <= "f"))) return false;
        }
        return true;
    }

    /// @dev The lower-case 0x hex of an address, as cairn lists EVM
    /// addresses (OpenZeppelin's Strings needs Cancun's MCOPY since 5.x; this
    /// loop also costs a tenth of a Solidity one).
    function _lowerHex(address account) private pure returns (string memory s) {
        s = new string(42);
        assembly ("memory-safe") {
            let p := add(s, 32)
            mstore8(p, 0x30) // "0"
            mstore8(add(p, 1), 0x78) // "x"
            let v := account
            for { let i := 41 } gt(i, 1) { i := sub(i, 1) } {
                let d := and(v, 0xf)
                // "0".."9" are 48..57, "a".."f" 97..102
                mstore8(add(p, i), add(d, add(48, mul(gt(d, 9), 39))))
                v := shr(4, v)
            }
        }
    }

    /// @dev No root (none set yet, or an empty tree) proves nothing.
    function _verify(bytes32[] calldata proof, bytes32 r, bytes32 leaf) private pure returns (bool) {
        return r != bytes32(0) && MerkleProof.verifyCalldata(proof, r, leaf);
    }
}
