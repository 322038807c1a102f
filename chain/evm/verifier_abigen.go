// Code generated via abigen V2 - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package evm

import (
	"bytes"
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Reference imports to suppress errors if they are not otherwise used.
var (
	_ = bytes.Equal
	_ = errors.New
	_ = big.NewInt
	_ = common.Big1
	_ = types.BloomLookup
	_ = abi.ConvertType
)

// VerifierMetaData contains all meta data concerning the Verifier contract.
var VerifierMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"InvalidExclusionProof\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InvalidMembershipProof\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"LengthMismatch\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"MerkleProofInvalidMultiproof\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NoRoot\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint64\",\"name\":\"listVersion\",\"type\":\"uint64\"},{\"internalType\":\"uint64\",\"name\":\"current\",\"type\":\"uint64\"}],\"name\":\"StaleListVersion\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"caller\",\"type\":\"address\"}],\"name\":\"Unauthorized\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"addr\",\"type\":\"address\"}],\"name\":\"NonSanctionedAddress\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferred\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint64\",\"name\":\"listVersion\",\"type\":\"uint64\"},{\"indexed\":false,\"internalType\":\"uint64\",\"name\":\"previousListVersion\",\"type\":\"uint64\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"}],\"name\":\"RootsForced\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint64\",\"name\":\"listVersion\",\"type\":\"uint64\"},{\"indexed\":false,\"internalType\":\"bytes32\",\"name\":\"sanctionsRoot\",\"type\":\"bytes32\"},{\"indexed\":false,\"internalType\":\"bytes32\",\"name\":\"communityRoot\",\"type\":\"bytes32\"},{\"indexed\":false,\"internalType\":\"bytes32\",\"name\":\"exclusionRoot\",\"type\":\"bytes32\"},{\"indexed\":false,\"internalType\":\"bytes32\",\"name\":\"communityExclusionRoot\",\"type\":\"bytes32\"},{\"indexed\":false,\"internalType\":\"uint64\",\"name\":\"updatedAt\",\"type\":\"uint64\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"updater\",\"type\":\"address\"}],\"name\":\"RootsUpdated\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"addr\",\"type\":\"address\"}],\"name\":\"SanctionedAddress\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"address[]\",\"name\":\"addrs\",\"type\":\"address[]\"}],\"name\":\"SanctionedAddressesAdded\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"address[]\",\"name\":\"addrs\",\"type\":\"address[]\"}],\"name\":\"SanctionedAddressesRemoved\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"bool\",\"name\":\"enabled\",\"type\":\"bool\"}],\"name\":\"UpdaterSet\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"address[]\",\"name\":\"accounts\",\"type\":\"address[]\"},{\"internalType\":\"bytes32[]\",\"name\":\"proof\",\"type\":\"bytes32[]\"},{\"internalType\":\"bool[]\",\"name\":\"proofFlags\",\"type\":\"bool[]\"}],\"name\":\"addSanctioned\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"communityExclusionRoot\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"communityRoot\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"exclusionRoot\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"sanctionsRoot_\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"communityRoot_\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"exclusionRoot_\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"communityExclusionRoot_\",\"type\":\"bytes32\"},{\"internalType\":\"uint64\",\"name\":\"listVersion_\",\"type\":\"uint64\"}],\"name\":\"forceSetRoots\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"string\",\"name\":\"family\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"low\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"high\",\"type\":\"string\"}],\"name\":\"gapLeafOf\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"string\",\"name\":\"family\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"addr\",\"type\":\"string\"},{\"internalType\":\"bytes32[]\",\"name\":\"proof\",\"type\":\"bytes32[]\"}],\"name\":\"isCommunityListed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"string\",\"name\":\"family\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"addr\",\"type\":\"string\"},{\"internalType\":\"bytes32[]\",\"name\":\"proof\",\"type\":\"bytes32[]\"}],\"name\":\"isListed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"string\",\"name\":\"family\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"addr\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"low\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"high\",\"type\":\"string\"},{\"internalType\":\"bytes32[]\",\"name\":\"proof\",\"type\":\"bytes32[]\"}],\"name\":\"isNotCommunityListed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"string\",\"name\":\"family\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"addr\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"low\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"high\",\"type\":\"string\"},{\"internalType\":\"bytes32[]\",\"name\":\"proof\",\"type\":\"bytes32[]\"}],\"name\":\"isNotListed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"low\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"high\",\"type\":\"address\"},{\"internalType\":\"bytes32[]\",\"name\":\"proof\",\"type\":\"bytes32[]\"}],\"name\":\"isNotSanctioned\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"internalType\":\"bytes32[]\",\"name\":\"proof\",\"type\":\"bytes32[]\"}],\"name\":\"isSanctioned\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"addr\",\"type\":\"address\"}],\"name\":\"isSanctioned\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"addr\",\"type\":\"address\"}],\"name\":\"isSanctionedVerbose\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"isUpdater\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"string\",\"name\":\"family\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"addr\",\"type\":\"string\"}],\"name\":\"leafOf\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"listVersion\",\"outputs\":[{\"internalType\":\"uint64\",\"name\":\"\",\"type\":\"uint64\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32[]\",\"name\":\"proof\",\"type\":\"bytes32[]\"},{\"internalType\":\"bool[]\",\"name\":\"flags\",\"type\":\"bool[]\"},{\"internalType\":\"bytes32[]\",\"name\":\"leaves\",\"type\":\"bytes32[]\"}],\"name\":\"multiProofVerify\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address[]\",\"name\":\"accounts\",\"type\":\"address[]\"},{\"internalType\":\"address[]\",\"name\":\"lows\",\"type\":\"address[]\"},{\"internalType\":\"address[]\",\"name\":\"highs\",\"type\":\"address[]\"},{\"internalType\":\"bytes32[][]\",\"name\":\"proofs\",\"type\":\"bytes32[][]\"}],\"name\":\"removeSanctioned\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"root\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"roots\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"sanctionsRoot_\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"communityRoot_\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"exclusionRoot_\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"communityExclusionRoot_\",\"type\":\"bytes32\"},{\"internalType\":\"uint64\",\"name\":\"listVersion_\",\"type\":\"uint64\"},{\"internalType\":\"uint64\",\"name\":\"updatedAt_\",\"type\":\"uint64\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"sanctionsRoot_\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"communityRoot_\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"exclusionRoot_\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"communityExclusionRoot_\",\"type\":\"bytes32\"},{\"internalType\":\"uint64\",\"name\":\"listVersion_\",\"type\":\"uint64\"}],\"name\":\"setRoots\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"internalType\":\"bool\",\"name\":\"enabled\",\"type\":\"bool\"}],\"name\":\"setUpdater\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"transferOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"updatedAt\",\"outputs\":[{\"internalType\":\"uint64\",\"name\":\"\",\"type\":\"uint64\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32[]\",\"name\":\"proof\",\"type\":\"bytes32[]\"},{\"internalType\":\"bytes32\",\"name\":\"leaf\",\"type\":\"bytes32\"}],\"name\":\"verify\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32[]\",\"name\":\"proof\",\"type\":\"bytes32[]\"},{\"internalType\":\"bytes32\",\"name\":\"leaf\",\"type\":\"bytes32\"}],\"name\":\"verifyCommunity\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "Verifier",
	Bin: "0x6080604052348015600e575f5ffd5b505f80546001600160a01b0319163390811782556040519091907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0908290a36122298061005a5f395ff3fe608060405234801561000f575f5ffd5b50600436106101c6575f3560e01c8063860f4c25116100fe578063a453872d1161009e578063de0275e41161006e578063de0275e414610448578063df592f7d1461045b578063ebf0c71714610486578063f2fde38b1461048e575f5ffd5b8063a453872d146103fe578063af459ad314610411578063b700e34414610424578063da57edc414610437575f5ffd5b80638da5cb5b116100d95780638da5cb5b1461039b578063972a2a62146103c55780639ac972cd146103d8578063a2a6bbd8146103eb575f5ffd5b8063860f4c251461036d578063894a5aef146103805780638d41c4ca14610388575f5ffd5b80634fdfb086116101695780636cab2a19116101445780636cab2a19146103135780636d2478501461031b5780637519ab501461032e578063765f1aaf1461035a575f5ffd5b80634fdfb086146102cb57806356721e7a146102ed57806357959a0614610300575f5ffd5b8063393fe1cd116101a4578063393fe1cd146102435780634009c115146102935780634b7d9004146102a65780634b97692a146102b8575f5ffd5b806306fdde03146101ca57806319084f4d1461020b5780631a1533911461022e575b5f5ffd5b6040805180820182526016815275636169726e2073616e6374696f6e73206f7261636c6560501b6020820152905161020291906119c2565b60405180910390f35b61021e610219366004611a58565b6104a1565b6040519015158152602001610202565b61024161023c366004611b7d565b61059b565b005b6002546003546004546005546006546040805195865260208601949094529284019190915260608301526001600160401b038082166080840152600160401b9091041660a082015260c001610202565b61021e6102a1366004611bae565b61062a565b6004545b604051908152602001610202565b61021e6102c6366004611bf5565b610641565b61021e6102d9366004611c91565b60016020525f908152604090205460ff1681565b61021e6102fb366004611caa565b6106c2565b61024161030e366004611d0a565b610747565b6005546102aa565b610241610329366004611bf5565b6109a6565b600654600160401b90046001600160401b03165b6040516001600160401b039091168152602001610202565b610241610368366004611dd4565b610c4a565b61021e61037b366004611e28565b610ce3565b6003546102aa565b61021e610396366004611e98565b610d00565b5f546103ad906001600160a01b031681565b6040516001600160a01b039091168152602001610202565b61021e6103d3366004611bae565b610d31565b61021e6103e6366004611caa565b610d40565b61021e6103f9366004611c91565b610dba565b61024161040c366004611dd4565b610e4f565b61021e61041f366004611a58565b610ed4565b6102aa610432366004611f83565b610fba565b6006546001600160401b0316610342565b6102aa61045636600461200e565b61100c565b61021e610469366004611c91565b6001600160a01b03165f9081526007602052604090205460ff1690565b6002546102aa565b61024161049c366004611c91565b61105c565b5f6104b28b8b8b8b8b8b8b8b611108565b801561058c575061058c83836005546105878f8f8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f81840152601f19601f820116905080830192505050505050508c8c8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f81840152601f19601f820116905080830192505050505050508b8b8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f92019190915250610fba92505050565b611187565b9b9a5050505050505050505050565b5f546001600160a01b031633146105cc5760405163472511eb60e11b81523360048201526024015b60405180910390fd5b6001600160a01b0382165f81815260016020908152604091829020805460ff191685151590811790915591519182527f9e0f3fc17a5f47bd46f3cab56d4d8a9ea9f32ad817657c3ea8e5dff28da3e3e7910160405180910390a25050565b5f610639848460035485611187565b949350505050565b6002545f908015806106665750610659856001612085565b6106638885612085565b14155b15610674575f9150506106b8565b6106b488888888858989808060200260200160405190810160405280939291908181526020018383602002808284375f9201919091525061119e92505050565b9150505b9695505050505050565b5f61073c83836003546105878b8b8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f9201919091525050604080516020601f8f018190048102820181019092528d815292508d91508c90819084018382808284375f9201919091525061100c92505050565b979650505050505050565b8685811415806107575750838114155b806107625750818114155b15610783576040516001621398b960e31b0319815260040160405180910390fd5b805f03610790575061099c565b600454806107b05760405162cccc2760e81b815260040160405180910390fd5b5f826001600160401b038111156107c9576107c9611ee6565b6040519080825280602002602001820160405280156107f2578160200160208202803683370190505b5090505f5f5b84811015610955575f8d8d8381811061081357610813612098565b90506020020160208101906108289190611c91565b90506108a685828e8e8681811061084157610841612098565b90506020020160208101906108569190611c91565b8d8d8781811061086857610868612098565b905060200201602081019061087d9190611c91565b8c8c8881811061088f5761088f612098565b90506020028101906108a191906120ac565b6111b9565b6108ce5760405163828eb87560e01b81526001600160a01b03821660048201526024016105c3565b6001600160a01b0381165f9081526007602052604090205460ff161561094c576001600160a01b0381165f908152600760205260409020805460ff19169055808484610919816120f1565b95508151811061092b5761092b612098565b60200260200101906001600160a01b031690816001600160a01b0316815250505b506001016107f8565b508015610997578082527f32aab684eee99db715515d1a9987a8fe33bb6341b0e35e60db7eab48a08f9a3a8260405161098e9190612109565b60405180910390a15b505050505b5050505050505050565b845f8190036109b55750610c42565b600254806109d55760405162cccc2760e81b815260040160405180910390fd5b6109e0836001612085565b6109ea8684612085565b14610a0857604051637293bd3160e11b815260040160405180910390fd5b5f826001600160401b03811115610a2157610a21611ee6565b604051908082528060200260200182016040528015610a4a578160200160208202803683370190505b5090505f5b83811015610aca57610aa56040518060400160405280600381526020016265766d60e81b8152506104568c8c85818110610a8b57610a8b612098565b9050602002016020810190610aa09190611c91565b61132f565b828281518110610ab757610ab7612098565b6020908102919091010152600101610a4f565b50610ad987878787868661119e565b610af657604051637293bd3160e11b815260040160405180910390fd5b5f836001600160401b03811115610b0f57610b0f611ee6565b604051908082528060200260200182016040528015610b38578160200160208202803683370190505b5090505f5f5b85811015610bfa575f8c8c83818110610b5957610b59612098565b9050602002016020810190610b6e9190611c91565b6001600160a01b0381165f9081526007602052604090205490915060ff16610bf1576001600160a01b0381165f908152600760205260409020805460ff19166001179055808484610bbe816120f1565b955081518110610bd057610bd0612098565b60200260200101906001600160a01b031690816001600160a01b0316815250505b50600101610b3e565b508015610c3c578082527f2596d7dd6966c5673f9c06ddb0564c4f0e6d8d206ea075b83ad9ddd71a4fb92782604051610c339190612109565b60405180910390a15b50505050505b505050505050565b5f546001600160a01b03163314801590610c735750335f9081526001602052604090205460ff16155b15610c935760405163472511eb60e11b81523360048201526024016105c3565b6006546001600160401b039081169082168110610cd657604051633c3b1c2360e11b81526001600160401b038084166004830152821660248201526044016105c3565b610c428686868686611397565b5f610cf460045487878787876111b9565b90505b95945050505050565b5f61063983836002546105876040518060400160405280600381526020016265766d60e81b8152506104568a61132f565b5f610639848460025485611187565b5f61073c83836002546105878b8b8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f9201919091525050604080516020601f8f018190048102820181019092528d815292508d91508c90819084018382808284375f9201919091525061100c92505050565b6001600160a01b0381165f9081526007602052604081205460ff1615610e15576040516001600160a01b038316907f8027911123971054d93579ebea046c8461473fa4d2e510b9b49eed3bed3270e0905f90a2506001919050565b6040516001600160a01b038316907fd595018321fcb8c2bcbf5bfe4b27d74bea505825f7d195abe8517f94a065539c905f90a2505f919050565b5f546001600160a01b03163314610e7b5760405163472511eb60e11b81523360048201526024016105c3565b6006546040516001600160401b03918216815233918316907f8ee50da32718b32dd997995e4a3318d1e48e65628aaaff870d7760f16fef12de9060200160405180910390a3610ecd8585858585611397565b5050505050565b5f610ee58b8b8b8b8b8b8b8b611108565b801561058c575061058c83836004546105878f8f8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f81840152601f19601f820116905080830192505050505050508c8c8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f81840152601f19601f820116905080830192505050505050508b8b8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f92019190915250610fba92505050565b5f838383604051602001610fd093929190612154565b60408051601f19818403018152828252805160209182012090830152016040516020818303038152906040528051906020012090509392505050565b5f828260405160200161102092919061218c565b60408051601f19818403018152828252805160209182012090830152016040516020818303038152906040528051906020012090505b92915050565b5f546001600160a01b031633146110885760405163472511eb60e11b81523360048201526024016105c3565b6001600160a01b0381166110af5760405163d92e233d60e01b815260040160405180910390fd5b5f80546040516001600160a01b03808516939216917f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e091a35f80546001600160a01b0319166001600160a01b0392909216919091179055565b5f85810361111757505f61117b565b611121898961143f565b8015611134575061113287876114e9565b155b1561114057505f61117b565b8315801590611158575061115685858989611609565b155b1561116457505f61117b565b811580611178575061117887878585611609565b90505b98975050505050505050565b5f8215801590610cf75750610cf78585858561169c565b5f826111ad88888888876116b3565b14979650505050505050565b5f866111c657505f6106b8565b6001600160a01b038581161590858116145f5b6004811015611320575f600182161515806111f2575083155b90505f60028316151580611204575083155b90506001831615801590611216575084155b8061122c5750600283161580159061122c575083155b15611238575050611318565b81801561125757508a6001600160a01b03168a6001600160a01b031610155b15611263575050611318565b8080156112825750886001600160a01b03168b6001600160a01b031610155b1561128e575050611318565b5f6112f26040518060400160405280600381526020016265766d60e81b815250846112c75760405180602001604052805f8152506112d0565b6112d08d61132f565b846112e95760405180602001604052805f815250610fba565b6104328d61132f565b905061130089898f8461169c565b1561131457600196505050505050506106b8565b5050505b6001016111d9565b505f9998505050505050505050565b60408051602a80825260608281019093526020820181803683370190505090506020810160308153607860018201538260295b600181111561138f57600f8216602760098211026030018101828501535060049190911c905f1901611362565b505050919050565b600285905560038490556004839055600582905560068054426001600160401b03818116600160401b81026fffffffffffffffffffffffffffffffff199094169186169182179390931790935560408051898152602081018990529081018790526060810186905260808101929092529133917f874629c64207ccadef833ed3445595f4d2537c0d05ab941f523f1651a981c0399060a00160405180910390a3505050505050565b5f600382148015611478575082825f81811061145d5761145d612098565b9050013560f81c60f81b6001600160f81b031916606560f81b145b80156114ad57508282600181811061149257611492612098565b9050013560f81c60f81b6001600160f81b031916603b60f91b145b80156114e25750828260028181106114c7576114c7612098565b9050013560f81c60f81b6001600160f81b031916606d60f81b145b9392505050565b5f602a82141580611523575082825f81811061150757611507612098565b9050013560f81c60f81b6001600160f81b031916600360fc1b14155b8061155857508282600181811061153c5761153c612098565b9050013560f81c60f81b6001600160f81b031916600f60fb1b14155b1561156457505f611056565b60025b602a8110156115ff575f84848381811061158357611583612098565b909101356001600160f81b031916915050600360fc1b81108015906115b65750603960f81b6001600160f81b0319821611155b806115e85750606160f81b6001600160f81b03198216108015906115e85750603360f91b6001600160f81b0319821611155b6115f6575f92505050611056565b50600101611567565b5060019392505050565b5f80828510611618578261161a565b845b90505f5b818110156116905786810135858201355f61163984866121b0565b90506020811015611666575f6116508260206121b0565b61165b9060086121c3565b93841c939290921c91505b8183146116795750119250610639915050565b5050506020816116899190612085565b905061161e565b50505090911092915050565b5f826116a9868685611912565b1495945050505050565b80515f90836116c3816001612085565b6116cd8884612085565b146116eb57604051631a8a024960e11b815260040160405180910390fd5b80156118c7575f816001600160401b0381111561170a5761170a611ee6565b604051908082528060200260200182016040528015611733578160200160208202803683370190505b5090505f8080805b8581101561187c575f878510611775578584611756816120f1565b95508151811061176857611768612098565b602002602001015161179b565b8985611780816120f1565b96508151811061179257611792612098565b60200260200101515b90505f8c8c848181106117b0576117b0612098565b90506020020160208101906117c591906121da565b6117f2578e8e856117d5816120f1565b96508181106117e6576117e6612098565b90506020020135611849565b888610611823578685611804816120f1565b96508151811061181657611816612098565b6020026020010151611849565b8a8661182e816120f1565b97508151811061184057611840612098565b60200260200101515b90506118558282611953565b87848151811061186757611867612098565b6020908102919091010152505060010161173b565b50808b1461189d57604051631a8a024960e11b815260040160405180910390fd5b8360018603815181106118b2576118b2612098565b60200260200101519650505050505050610cf7565b81156118f057835f815181106118df576118df612098565b602002602001015192505050610cf7565b87875f81811061190257611902612098565b9050602002013592505050610cf7565b5f81815b8481101561194a576119408287878481811061193457611934612098565b90506020020135611953565b9150600101611916565b50949350505050565b5f81831061196d575f8281526020849052604090206114e2565b5f8381526020839052604090206114e2565b5f81518084525f5b818110156119a357602081850181015186830182015201611987565b505f602082860101526020601f19601f83011685010191505092915050565b602081525f6114e2602083018461197f565b5f5f83601f8401126119e4575f5ffd5b5081356001600160401b038111156119fa575f5ffd5b602083019150836020828501011115611a11575f5ffd5b9250929050565b5f5f83601f840112611a28575f5ffd5b5081356001600160401b03811115611a3e575f5ffd5b6020830191508360208260051b8501011115611a11575f5ffd5b5f5f5f5f5f5f5f5f5f5f60a08b8d031215611a71575f5ffd5b8a356001600160401b03811115611a86575f5ffd5b611a928d828e016119d4565b909b5099505060208b01356001600160401b03811115611ab0575f5ffd5b611abc8d828e016119d4565b90995097505060408b01356001600160401b03811115611ada575f5ffd5b611ae68d828e016119d4565b90975095505060608b01356001600160401b03811115611b04575f5ffd5b611b108d828e016119d4565b90955093505060808b01356001600160401b03811115611b2e575f5ffd5b611b3a8d828e01611a18565b915080935050809150509295989b9194979a5092959850565b80356001600160a01b0381168114611b69575f5ffd5b919050565b80358015158114611b69575f5ffd5b5f5f60408385031215611b8e575f5ffd5b611b9783611b53565b9150611ba560208401611b6e565b90509250929050565b5f5f5f60408486031215611bc0575f5ffd5b83356001600160401b03811115611bd5575f5ffd5b611be186828701611a18565b909790965060209590950135949350505050565b5f5f5f5f5f5f60608789031215611c0a575f5ffd5b86356001600160401b03811115611c1f575f5ffd5b611c2b89828a01611a18565b90975095505060208701356001600160401b03811115611c49575f5ffd5b611c5589828a01611a18565b90955093505060408701356001600160401b03811115611c73575f5ffd5b611c7f89828a01611a18565b979a9699509497509295939492505050565b5f60208284031215611ca1575f5ffd5b6114e282611b53565b5f5f5f5f5f5f60608789031215611cbf575f5ffd5b86356001600160401b03811115611cd4575f5ffd5b611ce089828a016119d4565b90975095505060208701356001600160401b03811115611cfe575f5ffd5b611c5589828a016119d4565b5f5f5f5f5f5f5f5f6080898b031215611d21575f5ffd5b88356001600160401b03811115611d36575f5ffd5b611d428b828c01611a18565b90995097505060208901356001600160401b03811115611d60575f5ffd5b611d6c8b828c01611a18565b90975095505060408901356001600160401b03811115611d8a575f5ffd5b611d968b828c01611a18565b90955093505060608901356001600160401b03811115611db4575f5ffd5b611dc08b828c01611a18565b999c989b5096995094979396929594505050565b5f5f5f5f5f60a08688031215611de8575f5ffd5b8535945060208601359350604086013592506060860135915060808601356001600160401b0381168114611e1a575f5ffd5b809150509295509295909350565b5f5f5f5f5f60808688031215611e3c575f5ffd5b611e4586611b53565b9450611e5360208701611b53565b9350611e6160408701611b53565b925060608601356001600160401b03811115611e7b575f5ffd5b611e8788828901611a18565b969995985093965092949392505050565b5f5f5f60408486031215611eaa575f5ffd5b611eb384611b53565b925060208401356001600160401b03811115611ecd575f5ffd5b611ed986828701611a18565b9497909650939450505050565b634e487b7160e01b5f52604160045260245ffd5b5f82601f830112611f09575f5ffd5b81356001600160401b03811115611f2257611f22611ee6565b604051601f8201601f19908116603f011681016001600160401b0381118282101715611f5057611f50611ee6565b604052818152838201602001851015611f67575f5ffd5b816020850160208301375f918101602001919091529392505050565b5f5f5f60608486031215611f95575f5ffd5b83356001600160401b03811115611faa575f5ffd5b611fb686828701611efa565b93505060208401356001600160401b03811115611fd1575f5ffd5b611fdd86828701611efa565b92505060408401356001600160401b03811115611ff8575f5ffd5b61200486828701611efa565b9150509250925092565b5f5f6040838503121561201f575f5ffd5b82356001600160401b03811115612034575f5ffd5b61204085828601611efa565b92505060208301356001600160401b0381111561205b575f5ffd5b61206785828601611efa565b9150509250929050565b634e487b7160e01b5f52601160045260245ffd5b8082018082111561105657611056612071565b634e487b7160e01b5f52603260045260245ffd5b5f5f8335601e198436030181126120c1575f5ffd5b8301803591506001600160401b038211156120da575f5ffd5b6020019150600581901b3603821315611a11575f5ffd5b5f6001820161210257612102612071565b5060010190565b602080825282518282018190525f918401906040840190835b818110156121495783516001600160a01b0316835260209384019390920191600101612122565b509095945050505050565b606081525f612166606083018661197f565b8281036020840152612178818661197f565b905082810360408401526106b8818561197f565b604081525f61219e604083018561197f565b8281036020840152610cf7818561197f565b8181038181111561105657611056612071565b808202811582820484141761105657611056612071565b5f602082840312156121ea575f5ffd5b6114e282611b6e56fea264697066735822122083232317cb065e3eaed3acfa77c0fef265f12e96c2cc9b3529a613acf6a105c864736f6c63430008250033",
}

// Verifier is an auto generated Go binding around an Ethereum contract.
type Verifier struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *Verifier) GetABI() abi.ABI {
	return c.abi
}

// NewVerifier creates a new instance of Verifier.
func NewVerifier() *Verifier {
	parsed, err := VerifierMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &Verifier{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *Verifier) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackAddSanctioned is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6d247850.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function addSanctioned(address[] accounts, bytes32[] proof, bool[] proofFlags) returns()
func (verifier *Verifier) PackAddSanctioned(accounts []common.Address, proof [][32]byte, proofFlags []bool) []byte {
	enc, err := verifier.abi.Pack("addSanctioned", accounts, proof, proofFlags)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAddSanctioned is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6d247850.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function addSanctioned(address[] accounts, bytes32[] proof, bool[] proofFlags) returns()
func (verifier *Verifier) TryPackAddSanctioned(accounts []common.Address, proof [][32]byte, proofFlags []bool) ([]byte, error) {
	return verifier.abi.Pack("addSanctioned", accounts, proof, proofFlags)
}

// PackCommunityExclusionRoot is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6cab2a19.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function communityExclusionRoot() view returns(bytes32)
func (verifier *Verifier) PackCommunityExclusionRoot() []byte {
	enc, err := verifier.abi.Pack("communityExclusionRoot")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCommunityExclusionRoot is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6cab2a19.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function communityExclusionRoot() view returns(bytes32)
func (verifier *Verifier) TryPackCommunityExclusionRoot() ([]byte, error) {
	return verifier.abi.Pack("communityExclusionRoot")
}

// UnpackCommunityExclusionRoot is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x6cab2a19.
//
// Solidity: function communityExclusionRoot() view returns(bytes32)
func (verifier *Verifier) UnpackCommunityExclusionRoot(data []byte) ([32]byte, error) {
	out, err := verifier.abi.Unpack("communityExclusionRoot", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackCommunityRoot is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x894a5aef.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function communityRoot() view returns(bytes32)
func (verifier *Verifier) PackCommunityRoot() []byte {
	enc, err := verifier.abi.Pack("communityRoot")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCommunityRoot is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x894a5aef.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function communityRoot() view returns(bytes32)
func (verifier *Verifier) TryPackCommunityRoot() ([]byte, error) {
	return verifier.abi.Pack("communityRoot")
}

// UnpackCommunityRoot is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x894a5aef.
//
// Solidity: function communityRoot() view returns(bytes32)
func (verifier *Verifier) UnpackCommunityRoot(data []byte) ([32]byte, error) {
	out, err := verifier.abi.Unpack("communityRoot", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackExclusionRoot is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4b7d9004.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function exclusionRoot() view returns(bytes32)
func (verifier *Verifier) PackExclusionRoot() []byte {
	enc, err := verifier.abi.Pack("exclusionRoot")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackExclusionRoot is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4b7d9004.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function exclusionRoot() view returns(bytes32)
func (verifier *Verifier) TryPackExclusionRoot() ([]byte, error) {
	return verifier.abi.Pack("exclusionRoot")
}

// UnpackExclusionRoot is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x4b7d9004.
//
// Solidity: function exclusionRoot() view returns(bytes32)
func (verifier *Verifier) UnpackExclusionRoot(data []byte) ([32]byte, error) {
	out, err := verifier.abi.Unpack("exclusionRoot", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackForceSetRoots is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa453872d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function forceSetRoots(bytes32 sanctionsRoot_, bytes32 communityRoot_, bytes32 exclusionRoot_, bytes32 communityExclusionRoot_, uint64 listVersion_) returns()
func (verifier *Verifier) PackForceSetRoots(sanctionsRoot [32]byte, communityRoot [32]byte, exclusionRoot [32]byte, communityExclusionRoot [32]byte, listVersion uint64) []byte {
	enc, err := verifier.abi.Pack("forceSetRoots", sanctionsRoot, communityRoot, exclusionRoot, communityExclusionRoot, listVersion)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackForceSetRoots is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa453872d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function forceSetRoots(bytes32 sanctionsRoot_, bytes32 communityRoot_, bytes32 exclusionRoot_, bytes32 communityExclusionRoot_, uint64 listVersion_) returns()
func (verifier *Verifier) TryPackForceSetRoots(sanctionsRoot [32]byte, communityRoot [32]byte, exclusionRoot [32]byte, communityExclusionRoot [32]byte, listVersion uint64) ([]byte, error) {
	return verifier.abi.Pack("forceSetRoots", sanctionsRoot, communityRoot, exclusionRoot, communityExclusionRoot, listVersion)
}

// PackGapLeafOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb700e344.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function gapLeafOf(string family, string low, string high) pure returns(bytes32)
func (verifier *Verifier) PackGapLeafOf(family string, low string, high string) []byte {
	enc, err := verifier.abi.Pack("gapLeafOf", family, low, high)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGapLeafOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb700e344.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function gapLeafOf(string family, string low, string high) pure returns(bytes32)
func (verifier *Verifier) TryPackGapLeafOf(family string, low string, high string) ([]byte, error) {
	return verifier.abi.Pack("gapLeafOf", family, low, high)
}

// UnpackGapLeafOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb700e344.
//
// Solidity: function gapLeafOf(string family, string low, string high) pure returns(bytes32)
func (verifier *Verifier) UnpackGapLeafOf(data []byte) ([32]byte, error) {
	out, err := verifier.abi.Unpack("gapLeafOf", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackIsCommunityListed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x56721e7a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isCommunityListed(string family, string addr, bytes32[] proof) view returns(bool)
func (verifier *Verifier) PackIsCommunityListed(family string, addr string, proof [][32]byte) []byte {
	enc, err := verifier.abi.Pack("isCommunityListed", family, addr, proof)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsCommunityListed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x56721e7a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isCommunityListed(string family, string addr, bytes32[] proof) view returns(bool)
func (verifier *Verifier) TryPackIsCommunityListed(family string, addr string, proof [][32]byte) ([]byte, error) {
	return verifier.abi.Pack("isCommunityListed", family, addr, proof)
}

// UnpackIsCommunityListed is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x56721e7a.
//
// Solidity: function isCommunityListed(string family, string addr, bytes32[] proof) view returns(bool)
func (verifier *Verifier) UnpackIsCommunityListed(data []byte) (bool, error) {
	out, err := verifier.abi.Unpack("isCommunityListed", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackIsListed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9ac972cd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isListed(string family, string addr, bytes32[] proof) view returns(bool)
func (verifier *Verifier) PackIsListed(family string, addr string, proof [][32]byte) []byte {
	enc, err := verifier.abi.Pack("isListed", family, addr, proof)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsListed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x9ac972cd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isListed(string family, string addr, bytes32[] proof) view returns(bool)
func (verifier *Verifier) TryPackIsListed(family string, addr string, proof [][32]byte) ([]byte, error) {
	return verifier.abi.Pack("isListed", family, addr, proof)
}

// UnpackIsListed is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x9ac972cd.
//
// Solidity: function isListed(string family, string addr, bytes32[] proof) view returns(bool)
func (verifier *Verifier) UnpackIsListed(data []byte) (bool, error) {
	out, err := verifier.abi.Unpack("isListed", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackIsNotCommunityListed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x19084f4d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isNotCommunityListed(string family, string addr, string low, string high, bytes32[] proof) view returns(bool)
func (verifier *Verifier) PackIsNotCommunityListed(family string, addr string, low string, high string, proof [][32]byte) []byte {
	enc, err := verifier.abi.Pack("isNotCommunityListed", family, addr, low, high, proof)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsNotCommunityListed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x19084f4d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isNotCommunityListed(string family, string addr, string low, string high, bytes32[] proof) view returns(bool)
func (verifier *Verifier) TryPackIsNotCommunityListed(family string, addr string, low string, high string, proof [][32]byte) ([]byte, error) {
	return verifier.abi.Pack("isNotCommunityListed", family, addr, low, high, proof)
}

// UnpackIsNotCommunityListed is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x19084f4d.
//
// Solidity: function isNotCommunityListed(string family, string addr, string low, string high, bytes32[] proof) view returns(bool)
func (verifier *Verifier) UnpackIsNotCommunityListed(data []byte) (bool, error) {
	out, err := verifier.abi.Unpack("isNotCommunityListed", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackIsNotListed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xaf459ad3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isNotListed(string family, string addr, string low, string high, bytes32[] proof) view returns(bool)
func (verifier *Verifier) PackIsNotListed(family string, addr string, low string, high string, proof [][32]byte) []byte {
	enc, err := verifier.abi.Pack("isNotListed", family, addr, low, high, proof)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsNotListed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xaf459ad3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isNotListed(string family, string addr, string low, string high, bytes32[] proof) view returns(bool)
func (verifier *Verifier) TryPackIsNotListed(family string, addr string, low string, high string, proof [][32]byte) ([]byte, error) {
	return verifier.abi.Pack("isNotListed", family, addr, low, high, proof)
}

// UnpackIsNotListed is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xaf459ad3.
//
// Solidity: function isNotListed(string family, string addr, string low, string high, bytes32[] proof) view returns(bool)
func (verifier *Verifier) UnpackIsNotListed(data []byte) (bool, error) {
	out, err := verifier.abi.Unpack("isNotListed", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackIsNotSanctioned is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x860f4c25.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isNotSanctioned(address account, address low, address high, bytes32[] proof) view returns(bool)
func (verifier *Verifier) PackIsNotSanctioned(account common.Address, low common.Address, high common.Address, proof [][32]byte) []byte {
	enc, err := verifier.abi.Pack("isNotSanctioned", account, low, high, proof)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsNotSanctioned is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x860f4c25.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isNotSanctioned(address account, address low, address high, bytes32[] proof) view returns(bool)
func (verifier *Verifier) TryPackIsNotSanctioned(account common.Address, low common.Address, high common.Address, proof [][32]byte) ([]byte, error) {
	return verifier.abi.Pack("isNotSanctioned", account, low, high, proof)
}

// UnpackIsNotSanctioned is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x860f4c25.
//
// Solidity: function isNotSanctioned(address account, address low, address high, bytes32[] proof) view returns(bool)
func (verifier *Verifier) UnpackIsNotSanctioned(data []byte) (bool, error) {
	out, err := verifier.abi.Unpack("isNotSanctioned", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackIsSanctioned is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8d41c4ca.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isSanctioned(address account, bytes32[] proof) view returns(bool)
func (verifier *Verifier) PackIsSanctioned(account common.Address, proof [][32]byte) []byte {
	enc, err := verifier.abi.Pack("isSanctioned", account, proof)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsSanctioned is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8d41c4ca.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isSanctioned(address account, bytes32[] proof) view returns(bool)
func (verifier *Verifier) TryPackIsSanctioned(account common.Address, proof [][32]byte) ([]byte, error) {
	return verifier.abi.Pack("isSanctioned", account, proof)
}

// UnpackIsSanctioned is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8d41c4ca.
//
// Solidity: function isSanctioned(address account, bytes32[] proof) view returns(bool)
func (verifier *Verifier) UnpackIsSanctioned(data []byte) (bool, error) {
	out, err := verifier.abi.Unpack("isSanctioned", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackIsSanctioned0 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdf592f7d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isSanctioned(address addr) view returns(bool)
func (verifier *Verifier) PackIsSanctioned0(addr common.Address) []byte {
	enc, err := verifier.abi.Pack("isSanctioned0", addr)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsSanctioned0 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdf592f7d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isSanctioned(address addr) view returns(bool)
func (verifier *Verifier) TryPackIsSanctioned0(addr common.Address) ([]byte, error) {
	return verifier.abi.Pack("isSanctioned0", addr)
}

// UnpackIsSanctioned0 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xdf592f7d.
//
// Solidity: function isSanctioned(address addr) view returns(bool)
func (verifier *Verifier) UnpackIsSanctioned0(data []byte) (bool, error) {
	out, err := verifier.abi.Unpack("isSanctioned0", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackIsSanctionedVerbose is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa2a6bbd8.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isSanctionedVerbose(address addr) returns(bool)
func (verifier *Verifier) PackIsSanctionedVerbose(addr common.Address) []byte {
	enc, err := verifier.abi.Pack("isSanctionedVerbose", addr)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsSanctionedVerbose is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa2a6bbd8.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isSanctionedVerbose(address addr) returns(bool)
func (verifier *Verifier) TryPackIsSanctionedVerbose(addr common.Address) ([]byte, error) {
	return verifier.abi.Pack("isSanctionedVerbose", addr)
}

// UnpackIsSanctionedVerbose is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa2a6bbd8.
//
// Solidity: function isSanctionedVerbose(address addr) returns(bool)
func (verifier *Verifier) UnpackIsSanctionedVerbose(data []byte) (bool, error) {
	out, err := verifier.abi.Unpack("isSanctionedVerbose", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackIsUpdater is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4fdfb086.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isUpdater(address account) view returns(bool)
func (verifier *Verifier) PackIsUpdater(account common.Address) []byte {
	enc, err := verifier.abi.Pack("isUpdater", account)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsUpdater is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4fdfb086.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isUpdater(address account) view returns(bool)
func (verifier *Verifier) TryPackIsUpdater(account common.Address) ([]byte, error) {
	return verifier.abi.Pack("isUpdater", account)
}

// UnpackIsUpdater is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x4fdfb086.
//
// Solidity: function isUpdater(address account) view returns(bool)
func (verifier *Verifier) UnpackIsUpdater(data []byte) (bool, error) {
	out, err := verifier.abi.Unpack("isUpdater", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackLeafOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xde0275e4.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function leafOf(string family, string addr) pure returns(bytes32)
func (verifier *Verifier) PackLeafOf(family string, addr string) []byte {
	enc, err := verifier.abi.Pack("leafOf", family, addr)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackLeafOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xde0275e4.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function leafOf(string family, string addr) pure returns(bytes32)
func (verifier *Verifier) TryPackLeafOf(family string, addr string) ([]byte, error) {
	return verifier.abi.Pack("leafOf", family, addr)
}

// UnpackLeafOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xde0275e4.
//
// Solidity: function leafOf(string family, string addr) pure returns(bytes32)
func (verifier *Verifier) UnpackLeafOf(data []byte) ([32]byte, error) {
	out, err := verifier.abi.Unpack("leafOf", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackListVersion is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xda57edc4.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function listVersion() view returns(uint64)
func (verifier *Verifier) PackListVersion() []byte {
	enc, err := verifier.abi.Pack("listVersion")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackListVersion is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xda57edc4.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function listVersion() view returns(uint64)
func (verifier *Verifier) TryPackListVersion() ([]byte, error) {
	return verifier.abi.Pack("listVersion")
}

// UnpackListVersion is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xda57edc4.
//
// Solidity: function listVersion() view returns(uint64)
func (verifier *Verifier) UnpackListVersion(data []byte) (uint64, error) {
	out, err := verifier.abi.Unpack("listVersion", data)
	if err != nil {
		return *new(uint64), err
	}
	out0 := *abi.ConvertType(out[0], new(uint64)).(*uint64)
	return out0, nil
}

// PackMultiProofVerify is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4b97692a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function multiProofVerify(bytes32[] proof, bool[] flags, bytes32[] leaves) view returns(bool)
func (verifier *Verifier) PackMultiProofVerify(proof [][32]byte, flags []bool, leaves [][32]byte) []byte {
	enc, err := verifier.abi.Pack("multiProofVerify", proof, flags, leaves)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMultiProofVerify is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4b97692a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function multiProofVerify(bytes32[] proof, bool[] flags, bytes32[] leaves) view returns(bool)
func (verifier *Verifier) TryPackMultiProofVerify(proof [][32]byte, flags []bool, leaves [][32]byte) ([]byte, error) {
	return verifier.abi.Pack("multiProofVerify", proof, flags, leaves)
}

// UnpackMultiProofVerify is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x4b97692a.
//
// Solidity: function multiProofVerify(bytes32[] proof, bool[] flags, bytes32[] leaves) view returns(bool)
func (verifier *Verifier) UnpackMultiProofVerify(data []byte) (bool, error) {
	out, err := verifier.abi.Unpack("multiProofVerify", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function name() pure returns(string)
func (verifier *Verifier) PackName() []byte {
	enc, err := verifier.abi.Pack("name")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function name() pure returns(string)
func (verifier *Verifier) TryPackName() ([]byte, error) {
	return verifier.abi.Pack("name")
}

// UnpackName is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x06fdde03.
//
// Solidity: function name() pure returns(string)
func (verifier *Verifier) UnpackName(data []byte) (string, error) {
	out, err := verifier.abi.Unpack("name", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (verifier *Verifier) PackOwner() []byte {
	enc, err := verifier.abi.Pack("owner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function owner() view returns(address)
func (verifier *Verifier) TryPackOwner() ([]byte, error) {
	return verifier.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (verifier *Verifier) UnpackOwner(data []byte) (common.Address, error) {
	out, err := verifier.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackRemoveSanctioned is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x57959a06.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function removeSanctioned(address[] accounts, address[] lows, address[] highs, bytes32[][] proofs) returns()
func (verifier *Verifier) PackRemoveSanctioned(accounts []common.Address, lows []common.Address, highs []common.Address, proofs [][][32]byte) []byte {
	enc, err := verifier.abi.Pack("removeSanctioned", accounts, lows, highs, proofs)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRemoveSanctioned is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x57959a06.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function removeSanctioned(address[] accounts, address[] lows, address[] highs, bytes32[][] proofs) returns()
func (verifier *Verifier) TryPackRemoveSanctioned(accounts []common.Address, lows []common.Address, highs []common.Address, proofs [][][32]byte) ([]byte, error) {
	return verifier.abi.Pack("removeSanctioned", accounts, lows, highs, proofs)
}

// PackRoot is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xebf0c717.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function root() view returns(bytes32)
func (verifier *Verifier) PackRoot() []byte {
	enc, err := verifier.abi.Pack("root")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRoot is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xebf0c717.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function root() view returns(bytes32)
func (verifier *Verifier) TryPackRoot() ([]byte, error) {
	return verifier.abi.Pack("root")
}

// UnpackRoot is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xebf0c717.
//
// Solidity: function root() view returns(bytes32)
func (verifier *Verifier) UnpackRoot(data []byte) ([32]byte, error) {
	out, err := verifier.abi.Unpack("root", data)
	if err != nil {
		return *new([32]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	return out0, nil
}

// PackRoots is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x393fe1cd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function roots() view returns(bytes32 sanctionsRoot_, bytes32 communityRoot_, bytes32 exclusionRoot_, bytes32 communityExclusionRoot_, uint64 listVersion_, uint64 updatedAt_)
func (verifier *Verifier) PackRoots() []byte {
	enc, err := verifier.abi.Pack("roots")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRoots is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x393fe1cd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function roots() view returns(bytes32 sanctionsRoot_, bytes32 communityRoot_, bytes32 exclusionRoot_, bytes32 communityExclusionRoot_, uint64 listVersion_, uint64 updatedAt_)
func (verifier *Verifier) TryPackRoots() ([]byte, error) {
	return verifier.abi.Pack("roots")
}

// RootsOutput serves as a container for the return parameters of contract
// method Roots.
type RootsOutput struct {
	SanctionsRoot          [32]byte
	CommunityRoot          [32]byte
	ExclusionRoot          [32]byte
	CommunityExclusionRoot [32]byte
	ListVersion            uint64
	UpdatedAt              uint64
}

// UnpackRoots is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x393fe1cd.
//
// Solidity: function roots() view returns(bytes32 sanctionsRoot_, bytes32 communityRoot_, bytes32 exclusionRoot_, bytes32 communityExclusionRoot_, uint64 listVersion_, uint64 updatedAt_)
func (verifier *Verifier) UnpackRoots(data []byte) (RootsOutput, error) {
	out, err := verifier.abi.Unpack("roots", data)
	outstruct := new(RootsOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.SanctionsRoot = *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	outstruct.CommunityRoot = *abi.ConvertType(out[1], new([32]byte)).(*[32]byte)
	outstruct.ExclusionRoot = *abi.ConvertType(out[2], new([32]byte)).(*[32]byte)
	outstruct.CommunityExclusionRoot = *abi.ConvertType(out[3], new([32]byte)).(*[32]byte)
	outstruct.ListVersion = *abi.ConvertType(out[4], new(uint64)).(*uint64)
	outstruct.UpdatedAt = *abi.ConvertType(out[5], new(uint64)).(*uint64)
	return *outstruct, nil
}

// PackSetRoots is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x765f1aaf.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setRoots(bytes32 sanctionsRoot_, bytes32 communityRoot_, bytes32 exclusionRoot_, bytes32 communityExclusionRoot_, uint64 listVersion_) returns()
func (verifier *Verifier) PackSetRoots(sanctionsRoot [32]byte, communityRoot [32]byte, exclusionRoot [32]byte, communityExclusionRoot [32]byte, listVersion uint64) []byte {
	enc, err := verifier.abi.Pack("setRoots", sanctionsRoot, communityRoot, exclusionRoot, communityExclusionRoot, listVersion)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetRoots is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x765f1aaf.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setRoots(bytes32 sanctionsRoot_, bytes32 communityRoot_, bytes32 exclusionRoot_, bytes32 communityExclusionRoot_, uint64 listVersion_) returns()
func (verifier *Verifier) TryPackSetRoots(sanctionsRoot [32]byte, communityRoot [32]byte, exclusionRoot [32]byte, communityExclusionRoot [32]byte, listVersion uint64) ([]byte, error) {
	return verifier.abi.Pack("setRoots", sanctionsRoot, communityRoot, exclusionRoot, communityExclusionRoot, listVersion)
}

// PackSetUpdater is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1a153391.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setUpdater(address account, bool enabled) returns()
func (verifier *Verifier) PackSetUpdater(account common.Address, enabled bool) []byte {
	enc, err := verifier.abi.Pack("setUpdater", account, enabled)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetUpdater is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1a153391.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setUpdater(address account, bool enabled) returns()
func (verifier *Verifier) TryPackSetUpdater(account common.Address, enabled bool) ([]byte, error) {
	return verifier.abi.Pack("setUpdater", account, enabled)
}

// PackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (verifier *Verifier) PackTransferOwnership(newOwner common.Address) []byte {
	enc, err := verifier.abi.Pack("transferOwnership", newOwner)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (verifier *Verifier) TryPackTransferOwnership(newOwner common.Address) ([]byte, error) {
	return verifier.abi.Pack("transferOwnership", newOwner)
}

// PackUpdatedAt is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7519ab50.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function updatedAt() view returns(uint64)
func (verifier *Verifier) PackUpdatedAt() []byte {
	enc, err := verifier.abi.Pack("updatedAt")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackUpdatedAt is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7519ab50.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function updatedAt() view returns(uint64)
func (verifier *Verifier) TryPackUpdatedAt() ([]byte, error) {
	return verifier.abi.Pack("updatedAt")
}

// UnpackUpdatedAt is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x7519ab50.
//
// Solidity: function updatedAt() view returns(uint64)
func (verifier *Verifier) UnpackUpdatedAt(data []byte) (uint64, error) {
	out, err := verifier.abi.Unpack("updatedAt", data)
	if err != nil {
		return *new(uint64), err
	}
	out0 := *abi.ConvertType(out[0], new(uint64)).(*uint64)
	return out0, nil
}

// PackVerify is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x972a2a62.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function verify(bytes32[] proof, bytes32 leaf) view returns(bool)
func (verifier *Verifier) PackVerify(proof [][32]byte, leaf [32]byte) []byte {
	enc, err := verifier.abi.Pack("verify", proof, leaf)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackVerify is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x972a2a62.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function verify(bytes32[] proof, bytes32 leaf) view returns(bool)
func (verifier *Verifier) TryPackVerify(proof [][32]byte, leaf [32]byte) ([]byte, error) {
	return verifier.abi.Pack("verify", proof, leaf)
}

// UnpackVerify is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x972a2a62.
//
// Solidity: function verify(bytes32[] proof, bytes32 leaf) view returns(bool)
func (verifier *Verifier) UnpackVerify(data []byte) (bool, error) {
	out, err := verifier.abi.Unpack("verify", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackVerifyCommunity is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4009c115.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function verifyCommunity(bytes32[] proof, bytes32 leaf) view returns(bool)
func (verifier *Verifier) PackVerifyCommunity(proof [][32]byte, leaf [32]byte) []byte {
	enc, err := verifier.abi.Pack("verifyCommunity", proof, leaf)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackVerifyCommunity is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4009c115.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function verifyCommunity(bytes32[] proof, bytes32 leaf) view returns(bool)
func (verifier *Verifier) TryPackVerifyCommunity(proof [][32]byte, leaf [32]byte) ([]byte, error) {
	return verifier.abi.Pack("verifyCommunity", proof, leaf)
}

// UnpackVerifyCommunity is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x4009c115.
//
// Solidity: function verifyCommunity(bytes32[] proof, bytes32 leaf) view returns(bool)
func (verifier *Verifier) UnpackVerifyCommunity(data []byte) (bool, error) {
	out, err := verifier.abi.Unpack("verifyCommunity", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// VerifierNonSanctionedAddress represents a NonSanctionedAddress event raised by the Verifier contract.
type VerifierNonSanctionedAddress struct {
	Addr common.Address
	Raw  *types.Log // Blockchain specific contextual infos
}

const VerifierNonSanctionedAddressEventName = "NonSanctionedAddress"

// ContractEventName returns the user-defined event name.
func (VerifierNonSanctionedAddress) ContractEventName() string {
	return VerifierNonSanctionedAddressEventName
}

// UnpackNonSanctionedAddressEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event NonSanctionedAddress(address indexed addr)
func (verifier *Verifier) UnpackNonSanctionedAddressEvent(log *types.Log) (*VerifierNonSanctionedAddress, error) {
	event := "NonSanctionedAddress"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != verifier.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(VerifierNonSanctionedAddress)
	if len(log.Data) > 0 {
		if err := verifier.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range verifier.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// VerifierOwnershipTransferred represents a OwnershipTransferred event raised by the Verifier contract.
type VerifierOwnershipTransferred struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const VerifierOwnershipTransferredEventName = "OwnershipTransferred"

// ContractEventName returns the user-defined event name.
func (VerifierOwnershipTransferred) ContractEventName() string {
	return VerifierOwnershipTransferredEventName
}

// UnpackOwnershipTransferredEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (verifier *Verifier) UnpackOwnershipTransferredEvent(log *types.Log) (*VerifierOwnershipTransferred, error) {
	event := "OwnershipTransferred"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != verifier.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(VerifierOwnershipTransferred)
	if len(log.Data) > 0 {
		if err := verifier.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range verifier.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// VerifierRootsForced represents a RootsForced event raised by the Verifier contract.
type VerifierRootsForced struct {
	ListVersion         uint64
	PreviousListVersion uint64
	Owner               common.Address
	Raw                 *types.Log // Blockchain specific contextual infos
}

const VerifierRootsForcedEventName = "RootsForced"

// ContractEventName returns the user-defined event name.
func (VerifierRootsForced) ContractEventName() string {
	return VerifierRootsForcedEventName
}

// UnpackRootsForcedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RootsForced(uint64 indexed listVersion, uint64 previousListVersion, address indexed owner)
func (verifier *Verifier) UnpackRootsForcedEvent(log *types.Log) (*VerifierRootsForced, error) {
	event := "RootsForced"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != verifier.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(VerifierRootsForced)
	if len(log.Data) > 0 {
		if err := verifier.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range verifier.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// VerifierRootsUpdated represents a RootsUpdated event raised by the Verifier contract.
type VerifierRootsUpdated struct {
	ListVersion            uint64
	SanctionsRoot          [32]byte
	CommunityRoot          [32]byte
	ExclusionRoot          [32]byte
	CommunityExclusionRoot [32]byte
	UpdatedAt              uint64
	Updater                common.Address
	Raw                    *types.Log // Blockchain specific contextual infos
}

const VerifierRootsUpdatedEventName = "RootsUpdated"

// ContractEventName returns the user-defined event name.
func (VerifierRootsUpdated) ContractEventName() string {
	return VerifierRootsUpdatedEventName
}

// UnpackRootsUpdatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RootsUpdated(uint64 indexed listVersion, bytes32 sanctionsRoot, bytes32 communityRoot, bytes32 exclusionRoot, bytes32 communityExclusionRoot, uint64 updatedAt, address indexed updater)
func (verifier *Verifier) UnpackRootsUpdatedEvent(log *types.Log) (*VerifierRootsUpdated, error) {
	event := "RootsUpdated"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != verifier.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(VerifierRootsUpdated)
	if len(log.Data) > 0 {
		if err := verifier.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range verifier.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// VerifierSanctionedAddress represents a SanctionedAddress event raised by the Verifier contract.
type VerifierSanctionedAddress struct {
	Addr common.Address
	Raw  *types.Log // Blockchain specific contextual infos
}

const VerifierSanctionedAddressEventName = "SanctionedAddress"

// ContractEventName returns the user-defined event name.
func (VerifierSanctionedAddress) ContractEventName() string {
	return VerifierSanctionedAddressEventName
}

// UnpackSanctionedAddressEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event SanctionedAddress(address indexed addr)
func (verifier *Verifier) UnpackSanctionedAddressEvent(log *types.Log) (*VerifierSanctionedAddress, error) {
	event := "SanctionedAddress"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != verifier.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(VerifierSanctionedAddress)
	if len(log.Data) > 0 {
		if err := verifier.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range verifier.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// VerifierSanctionedAddressesAdded represents a SanctionedAddressesAdded event raised by the Verifier contract.
type VerifierSanctionedAddressesAdded struct {
	Addrs []common.Address
	Raw   *types.Log // Blockchain specific contextual infos
}

const VerifierSanctionedAddressesAddedEventName = "SanctionedAddressesAdded"

// ContractEventName returns the user-defined event name.
func (VerifierSanctionedAddressesAdded) ContractEventName() string {
	return VerifierSanctionedAddressesAddedEventName
}

// UnpackSanctionedAddressesAddedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event SanctionedAddressesAdded(address[] addrs)
func (verifier *Verifier) UnpackSanctionedAddressesAddedEvent(log *types.Log) (*VerifierSanctionedAddressesAdded, error) {
	event := "SanctionedAddressesAdded"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != verifier.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(VerifierSanctionedAddressesAdded)
	if len(log.Data) > 0 {
		if err := verifier.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range verifier.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// VerifierSanctionedAddressesRemoved represents a SanctionedAddressesRemoved event raised by the Verifier contract.
type VerifierSanctionedAddressesRemoved struct {
	Addrs []common.Address
	Raw   *types.Log // Blockchain specific contextual infos
}

const VerifierSanctionedAddressesRemovedEventName = "SanctionedAddressesRemoved"

// ContractEventName returns the user-defined event name.
func (VerifierSanctionedAddressesRemoved) ContractEventName() string {
	return VerifierSanctionedAddressesRemovedEventName
}

// UnpackSanctionedAddressesRemovedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event SanctionedAddressesRemoved(address[] addrs)
func (verifier *Verifier) UnpackSanctionedAddressesRemovedEvent(log *types.Log) (*VerifierSanctionedAddressesRemoved, error) {
	event := "SanctionedAddressesRemoved"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != verifier.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(VerifierSanctionedAddressesRemoved)
	if len(log.Data) > 0 {
		if err := verifier.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range verifier.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// VerifierUpdaterSet represents a UpdaterSet event raised by the Verifier contract.
type VerifierUpdaterSet struct {
	Account common.Address
	Enabled bool
	Raw     *types.Log // Blockchain specific contextual infos
}

const VerifierUpdaterSetEventName = "UpdaterSet"

// ContractEventName returns the user-defined event name.
func (VerifierUpdaterSet) ContractEventName() string {
	return VerifierUpdaterSetEventName
}

// UnpackUpdaterSetEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event UpdaterSet(address indexed account, bool enabled)
func (verifier *Verifier) UnpackUpdaterSetEvent(log *types.Log) (*VerifierUpdaterSet, error) {
	event := "UpdaterSet"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != verifier.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(VerifierUpdaterSet)
	if len(log.Data) > 0 {
		if err := verifier.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range verifier.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (verifier *Verifier) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], verifier.abi.Errors["InvalidExclusionProof"].ID.Bytes()[:4]) {
		return verifier.UnpackInvalidExclusionProofError(raw[4:])
	}
	if bytes.Equal(raw[:4], verifier.abi.Errors["InvalidMembershipProof"].ID.Bytes()[:4]) {
		return verifier.UnpackInvalidMembershipProofError(raw[4:])
	}
	if bytes.Equal(raw[:4], verifier.abi.Errors["LengthMismatch"].ID.Bytes()[:4]) {
		return verifier.UnpackLengthMismatchError(raw[4:])
	}
	if bytes.Equal(raw[:4], verifier.abi.Errors["MerkleProofInvalidMultiproof"].ID.Bytes()[:4]) {
		return verifier.UnpackMerkleProofInvalidMultiproofError(raw[4:])
	}
	if bytes.Equal(raw[:4], verifier.abi.Errors["NoRoot"].ID.Bytes()[:4]) {
		return verifier.UnpackNoRootError(raw[4:])
	}
	if bytes.Equal(raw[:4], verifier.abi.Errors["StaleListVersion"].ID.Bytes()[:4]) {
		return verifier.UnpackStaleListVersionError(raw[4:])
	}
	if bytes.Equal(raw[:4], verifier.abi.Errors["Unauthorized"].ID.Bytes()[:4]) {
		return verifier.UnpackUnauthorizedError(raw[4:])
	}
	if bytes.Equal(raw[:4], verifier.abi.Errors["ZeroAddress"].ID.Bytes()[:4]) {
		return verifier.UnpackZeroAddressError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// VerifierInvalidExclusionProof represents a InvalidExclusionProof error raised by the Verifier contract.
type VerifierInvalidExclusionProof struct {
	Account common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidExclusionProof(address account)
func VerifierInvalidExclusionProofErrorID() common.Hash {
	return common.HexToHash("0x828eb8750f3f577f1ace7bc36910b2406ea71d168f2727acfce0161c7021ea90")
}

// UnpackInvalidExclusionProofError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidExclusionProof(address account)
func (verifier *Verifier) UnpackInvalidExclusionProofError(raw []byte) (*VerifierInvalidExclusionProof, error) {
	out := new(VerifierInvalidExclusionProof)
	if err := verifier.abi.UnpackIntoInterface(out, "InvalidExclusionProof", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// VerifierInvalidMembershipProof represents a InvalidMembershipProof error raised by the Verifier contract.
type VerifierInvalidMembershipProof struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InvalidMembershipProof()
func VerifierInvalidMembershipProofErrorID() common.Hash {
	return common.HexToHash("0xe5277a62735630aa7b64fb666ae035fbf0009f92ae1002d24166f0c0dabe1cfd")
}

// UnpackInvalidMembershipProofError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InvalidMembershipProof()
func (verifier *Verifier) UnpackInvalidMembershipProofError(raw []byte) (*VerifierInvalidMembershipProof, error) {
	out := new(VerifierInvalidMembershipProof)
	if err := verifier.abi.UnpackIntoInterface(out, "InvalidMembershipProof", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// VerifierLengthMismatch represents a LengthMismatch error raised by the Verifier contract.
type VerifierLengthMismatch struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error LengthMismatch()
func VerifierLengthMismatchErrorID() common.Hash {
	return common.HexToHash("0xff633a3803c58b9bc21e58efecee59f27e033cc0b1883fccb4969c76146fe60f")
}

// UnpackLengthMismatchError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error LengthMismatch()
func (verifier *Verifier) UnpackLengthMismatchError(raw []byte) (*VerifierLengthMismatch, error) {
	out := new(VerifierLengthMismatch)
	if err := verifier.abi.UnpackIntoInterface(out, "LengthMismatch", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// VerifierMerkleProofInvalidMultiproof represents a MerkleProofInvalidMultiproof error raised by the Verifier contract.
type VerifierMerkleProofInvalidMultiproof struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error MerkleProofInvalidMultiproof()
func VerifierMerkleProofInvalidMultiproofErrorID() common.Hash {
	return common.HexToHash("0x351404920163d662c9e55a2ededa2a037e643758bbfddef8b612fa4d17ed11ea")
}

// UnpackMerkleProofInvalidMultiproofError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error MerkleProofInvalidMultiproof()
func (verifier *Verifier) UnpackMerkleProofInvalidMultiproofError(raw []byte) (*VerifierMerkleProofInvalidMultiproof, error) {
	out := new(VerifierMerkleProofInvalidMultiproof)
	if err := verifier.abi.UnpackIntoInterface(out, "MerkleProofInvalidMultiproof", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// VerifierNoRoot represents a NoRoot error raised by the Verifier contract.
type VerifierNoRoot struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NoRoot()
func VerifierNoRootErrorID() common.Hash {
	return common.HexToHash("0xcccc270076ac29b347992e66fdf9a41a4a8ebc17b51afac65734259c203b2388")
}

// UnpackNoRootError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NoRoot()
func (verifier *Verifier) UnpackNoRootError(raw []byte) (*VerifierNoRoot, error) {
	out := new(VerifierNoRoot)
	if err := verifier.abi.UnpackIntoInterface(out, "NoRoot", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// VerifierStaleListVersion represents a StaleListVersion error raised by the Verifier contract.
type VerifierStaleListVersion struct {
	ListVersion uint64
	Current     uint64
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error StaleListVersion(uint64 listVersion, uint64 current)
func VerifierStaleListVersionErrorID() common.Hash {
	return common.HexToHash("0x78763846d4ad1584675941bcb0057f26fe85208a1c293dde1ad0db8028808d1c")
}

// UnpackStaleListVersionError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error StaleListVersion(uint64 listVersion, uint64 current)
func (verifier *Verifier) UnpackStaleListVersionError(raw []byte) (*VerifierStaleListVersion, error) {
	out := new(VerifierStaleListVersion)
	if err := verifier.abi.UnpackIntoInterface(out, "StaleListVersion", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// VerifierUnauthorized represents a Unauthorized error raised by the Verifier contract.
type VerifierUnauthorized struct {
	Caller common.Address
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error Unauthorized(address caller)
func VerifierUnauthorizedErrorID() common.Hash {
	return common.HexToHash("0x8e4a23d6a5d81f013eca4bc92aeb9214ccafcaebd1f097c350c922d6e19122d5")
}

// UnpackUnauthorizedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error Unauthorized(address caller)
func (verifier *Verifier) UnpackUnauthorizedError(raw []byte) (*VerifierUnauthorized, error) {
	out := new(VerifierUnauthorized)
	if err := verifier.abi.UnpackIntoInterface(out, "Unauthorized", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// VerifierZeroAddress represents a ZeroAddress error raised by the Verifier contract.
type VerifierZeroAddress struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroAddress()
func VerifierZeroAddressErrorID() common.Hash {
	return common.HexToHash("0xd92e233df2717d4a40030e20904abd27b68fcbeede117eaaccbbdac9618c8c73")
}

// UnpackZeroAddressError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroAddress()
func (verifier *Verifier) UnpackZeroAddressError(raw []byte) (*VerifierZeroAddress, error) {
	out := new(VerifierZeroAddress)
	if err := verifier.abi.UnpackIntoInterface(out, "ZeroAddress", raw); err != nil {
		return nil, err
	}
	return out, nil
}
