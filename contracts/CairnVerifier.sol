// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";

/// @title CairnVerifier
/// @notice Holds the Merkle roots of cairn's current list version so that
/// anyone can check a membership proof on chain. Two trees: the sanctions
/// tree (government lists and aggregated sanctions data) and the community
/// tree (addresses escalated from community reports). Both are OpenZeppelin
/// StandardMerkleTree trees of ["string","string"] leaves: (family,
/// canonical address), for example ("evm", "0x8589...") with the address in
/// lower-case hex. A leaf is keccak256(bytes.concat(keccak256(abi.encode(
/// family, addr)))).
///
/// Only the owner and the updaters it grants set the roots, and only for a
/// list version newer than the current one, so a replayed or duplicated
/// update is refused rather than applied twice.
contract CairnVerifier {
    /// @notice The account that may set roots, grant and revoke updaters and
    /// hand the contract over.
    address public owner;
    /// @notice Accounts the owner allowed to set roots.
    mapping(address account => bool) public isUpdater;

    bytes32 private _sanctionsRoot;
    bytes32 private _communityRoot;
    uint64 private _listVersion;
    uint64 private _updatedAt;

    /// @notice The roots of list version `listVersion` were set at block
    /// time `updatedAt` by `updater`.
    event RootsUpdated(
        uint64 indexed listVersion,
        bytes32 sanctionsRoot,
        bytes32 communityRoot,
        uint64 updatedAt,
        address indexed updater
    );
    /// @notice The owner granted (`enabled`) or revoked the updater role.
    event UpdaterSet(address indexed account, bool enabled);
    /// @notice The contract changed hands.
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    /// @notice `caller` may not do this: it is not the owner (nor, for
    /// setRoot, an updater).
    error Unauthorized(address caller);
    /// @notice The update is for `listVersion`, not newer than `current`.
    error StaleListVersion(uint64 listVersion, uint64 current);
    /// @notice The zero address cannot own the contract.
    error ZeroAddress();

    constructor() {
        owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert Unauthorized(msg.sender);
        _;
    }

    /// @notice Sets the roots of list version `listVersion`, which must be
    /// newer than the current one.
    function setRoot(bytes32 sanctionsRoot_, bytes32 communityRoot_, uint64 listVersion_) external {
        if (msg.sender != owner && !isUpdater[msg.sender]) revert Unauthorized(msg.sender);
        uint64 current = _listVersion;
        if (listVersion_ <= current) revert StaleListVersion(listVersion_, current);
        uint64 setAt = uint64(block.timestamp);
        _sanctionsRoot = sanctionsRoot_;
        _communityRoot = communityRoot_;
        _listVersion = listVersion_;
        _updatedAt = setAt;
        emit RootsUpdated(listVersion_, sanctionsRoot_, communityRoot_, setAt, msg.sender);
    }

    /// @notice Grants (`enabled`) or revokes the updater role of `account`.
    function setUpdater(address account, bool enabled) external onlyOwner {
        isUpdater[account] = enabled;
        emit UpdaterSet(account, enabled);
    }

    /// @notice Hands the contract to `newOwner`.
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
        returns (bytes32 sanctionsRoot_, bytes32 communityRoot_, uint64 listVersion_, uint64 updatedAt_)
    {
        return (_sanctionsRoot, _communityRoot, _listVersion, _updatedAt);
    }

    /// @notice Whether `leaf` is in the current sanctions tree.
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
    /// (the leaf of ("evm", its lower-case 0x hex)).
    function isSanctioned(address account, bytes32[] calldata proof) external view returns (bool) {
        return _verify(proof, _sanctionsRoot, leafOf("evm", _lowerHex(account)));
    }

    /// @notice Whether every one of `leaves` is in the current sanctions
    /// tree, by an OpenZeppelin multiproof. A proof whose lengths do not fit
    /// together is false; other malformed multiproofs revert with
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

    /// @notice Whether `leaf` is in the current community tree.
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
