// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice What a DeFi contract needs of a sanctions oracle: Chainalysis'
/// SanctionsList call, and the time its data was last set, which cairn's
/// CairnVerifier answers with updatedAt().
interface ISanctionsOracle {
    /// @notice Whether `addr` is sanctioned.
    function isSanctioned(address addr) external view returns (bool);
    /// @notice The block time (Unix seconds) the oracle's roots were set at.
    function updatedAt() external view returns (uint64);
}

/// @title SanctionsGuard
/// @notice An example for integrators: the modifier notSanctioned refuses a
/// sanctioned account through the oracle's isSanctioned(address), and fails
/// closed (refuses everyone) when the oracle's data is older than a maximum
/// age fixed at deploy, or was never set. Swapping Chainalysis' oracle for
/// cairn's is a change of the oracle address.
abstract contract SanctionsGuard {
    /// @notice The oracle asked (cairn's CairnVerifier).
    ISanctionsOracle public immutable sanctionsOracle;
    /// @notice How old, in seconds, the oracle's data may be before every
    /// guarded call is refused.
    uint256 public immutable maxOracleAge;

    /// @notice `account` is sanctioned.
    error SanctionedAccount(address account);
    /// @notice The oracle's data was set at `updatedAt`, more than `maxAge`
    /// seconds ago (or never: 0).
    error StaleSanctionsOracle(uint64 updatedAt, uint256 maxAge);

    /// @param oracle the sanctions oracle's address
    /// @param maxAge the largest age, in seconds, of the oracle's data
    constructor(ISanctionsOracle oracle, uint256 maxAge) {
        sanctionsOracle = oracle;
        maxOracleAge = maxAge;
    }

    /// @notice Refuses `account` when the oracle says it is sanctioned, and
    /// everyone when the oracle is stale.
    modifier notSanctioned(address account) {
        _checkNotSanctioned(account);
        _;
    }

    function _checkNotSanctioned(address account) internal view {
        uint64 setAt = sanctionsOracle.updatedAt();
        if (setAt == 0 || block.timestamp > uint256(setAt) + maxOracleAge) revert StaleSanctionsOracle(setAt, maxOracleAge);
        if (sanctionsOracle.isSanctioned(account)) revert SanctionedAccount(account);
    }
}

/// @title GuardedToken
/// @notice A minimal token whose transfers refuse sanctioned senders:
/// `transfer` carries notSanctioned(msg.sender). An example, not a full
/// ERC-20.
contract GuardedToken is SanctionsGuard {
    /// @notice The balance of each account.
    mapping(address account => uint256) public balanceOf;

    /// @notice `value` tokens moved from `from` to `to`.
    event Transfer(address indexed from, address indexed to, uint256 value);

    /// @notice The sender holds fewer than the amount.
    error InsufficientBalance(uint256 balance, uint256 needed);

    /// @param oracle the sanctions oracle's address
    /// @param maxAge the largest age, in seconds, of the oracle's data
    /// @param supply the tokens minted to the deployer
    constructor(ISanctionsOracle oracle, uint256 maxAge, uint256 supply) SanctionsGuard(oracle, maxAge) {
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    /// @notice Moves `amount` tokens from the sender to `to`, unless the
    /// sender is sanctioned or the oracle is stale.
    function transfer(address to, uint256 amount) external notSanctioned(msg.sender) returns (bool) {
        uint256 bal = balanceOf[msg.sender];
        if (bal < amount) revert InsufficientBalance(bal, amount);
        unchecked {
            balanceOf[msg.sender] = bal - amount;
        }
        balanceOf[to] += amount;
        emit Transfer(msg.sender, to, amount);
        return true;
    }
}
