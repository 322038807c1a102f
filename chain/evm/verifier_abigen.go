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
	ABI: "[{\"inputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"MerkleProofInvalidMultiproof\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"uint64\",\"name\":\"listVersion\",\"type\":\"uint64\"},{\"internalType\":\"uint64\",\"name\":\"current\",\"type\":\"uint64\"}],\"name\":\"StaleListVersion\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"caller\",\"type\":\"address\"}],\"name\":\"Unauthorized\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferred\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint64\",\"name\":\"listVersion\",\"type\":\"uint64\"},{\"indexed\":false,\"internalType\":\"bytes32\",\"name\":\"sanctionsRoot\",\"type\":\"bytes32\"},{\"indexed\":false,\"internalType\":\"bytes32\",\"name\":\"communityRoot\",\"type\":\"bytes32\"},{\"indexed\":false,\"internalType\":\"uint64\",\"name\":\"updatedAt\",\"type\":\"uint64\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"updater\",\"type\":\"address\"}],\"name\":\"RootsUpdated\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"bool\",\"name\":\"enabled\",\"type\":\"bool\"}],\"name\":\"UpdaterSet\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"communityRoot\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"string\",\"name\":\"family\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"addr\",\"type\":\"string\"},{\"internalType\":\"bytes32[]\",\"name\":\"proof\",\"type\":\"bytes32[]\"}],\"name\":\"isCommunityListed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"string\",\"name\":\"family\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"addr\",\"type\":\"string\"},{\"internalType\":\"bytes32[]\",\"name\":\"proof\",\"type\":\"bytes32[]\"}],\"name\":\"isListed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"internalType\":\"bytes32[]\",\"name\":\"proof\",\"type\":\"bytes32[]\"}],\"name\":\"isSanctioned\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"isUpdater\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"string\",\"name\":\"family\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"addr\",\"type\":\"string\"}],\"name\":\"leafOf\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"listVersion\",\"outputs\":[{\"internalType\":\"uint64\",\"name\":\"\",\"type\":\"uint64\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32[]\",\"name\":\"proof\",\"type\":\"bytes32[]\"},{\"internalType\":\"bool[]\",\"name\":\"flags\",\"type\":\"bool[]\"},{\"internalType\":\"bytes32[]\",\"name\":\"leaves\",\"type\":\"bytes32[]\"}],\"name\":\"multiProofVerify\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"root\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"roots\",\"outputs\":[{\"internalType\":\"bytes32\",\"name\":\"sanctionsRoot_\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"communityRoot_\",\"type\":\"bytes32\"},{\"internalType\":\"uint64\",\"name\":\"listVersion_\",\"type\":\"uint64\"},{\"internalType\":\"uint64\",\"name\":\"updatedAt_\",\"type\":\"uint64\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"sanctionsRoot_\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"communityRoot_\",\"type\":\"bytes32\"},{\"internalType\":\"uint64\",\"name\":\"listVersion_\",\"type\":\"uint64\"}],\"name\":\"setRoot\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"},{\"internalType\":\"bool\",\"name\":\"enabled\",\"type\":\"bool\"}],\"name\":\"setUpdater\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"transferOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"updatedAt\",\"outputs\":[{\"internalType\":\"uint64\",\"name\":\"\",\"type\":\"uint64\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32[]\",\"name\":\"proof\",\"type\":\"bytes32[]\"},{\"internalType\":\"bytes32\",\"name\":\"leaf\",\"type\":\"bytes32\"}],\"name\":\"verify\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32[]\",\"name\":\"proof\",\"type\":\"bytes32[]\"},{\"internalType\":\"bytes32\",\"name\":\"leaf\",\"type\":\"bytes32\"}],\"name\":\"verifyCommunity\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "Verifier",
	Bin: "0x6080604052348015600e575f5ffd5b505f80546001600160a01b0319163390811782556040519091907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0908290a3610fa38061005a5f395ff3fe608060405234801561000f575f5ffd5b5060043610610106575f3560e01c80638d41c4ca1161009e578063da57edc41161006e578063da57edc41461026f578063de0275e414610280578063ebf0c71714610293578063eedeca6d1461029b578063f2fde38b146102ae575f5ffd5b80638d41c4ca1461020c5780638da5cb5b1461021f578063972a2a62146102495780639ac972cd1461025c575f5ffd5b80634fdfb086116100d95780634fdfb0861461019957806356721e7a146101bb5780637519ab50146101ce578063894a5aef146101fa575f5ffd5b80631a1533911461010a578063393fe1cd1461011f5780634009c115146101635780634b97692a14610186575b5f5ffd5b61011d610118366004610afa565b6102c1565b005b6002546003546004546040805193845260208401929092526001600160401b0380821692840192909252600160401b90041660608201526080015b60405180910390f35b610176610171366004610b72565b610350565b604051901515815260200161015a565b610176610194366004610bb9565b610367565b6101766101a7366004610c55565b60016020525f908152604090205460ff1681565b6101766101c9366004610cab565b6103e8565b600454600160401b90046001600160401b03165b6040516001600160401b03909116815260200161015a565b6003545b60405190815260200161015a565b61017661021a366004610d0b565b610472565b5f54610231906001600160a01b031681565b6040516001600160a01b03909116815260200161015a565b610176610257366004610b72565b6104a3565b61017661026a366004610cab565b6104b2565b6004546001600160401b03166101e2565b6101fe61028e366004610df6565b61052c565b6002546101fe565b61011d6102a9366004610e59565b61057c565b61011d6102bc366004610c55565b610697565b5f546001600160a01b031633146102f25760405163472511eb60e11b81523360048201526024015b60405180910390fd5b6001600160a01b0382165f81815260016020908152604091829020805460ff191685151590811790915591519182527f9e0f3fc17a5f47bd46f3cab56d4d8a9ea9f32ad817657c3ea8e5dff28da3e3e7910160405180910390a25050565b5f61035f848460035485610743565b949350505050565b6002545f9080158061038c575061037f856001610eae565b6103898885610eae565b14155b1561039a575f9150506103de565b6103da88888888858989808060200260200160405190810160405280939291908181526020018383602002808284375f9201919091525061076392505050565b9150505b9695505050505050565b5f61046783836003546104628b8b8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f9201919091525050604080516020601f8f018190048102820181019092528d815292508d91508c90819084018382808284375f9201919091525061052c92505050565b610743565b979650505050505050565b5f61035f83836002546104626040518060400160405280600381526020016265766d60e81b81525061028e8a61077e565b5f61035f848460025485610743565b5f61046783836002546104628b8b8080601f0160208091040260200160405190810160405280939291908181526020018383808284375f9201919091525050604080516020601f8f018190048102820181019092528d815292508d91508c90819084018382808284375f9201919091525061052c92505050565b5f8282604051602001610540929190610f04565b60408051601f19818403018152828252805160209182012090830152016040516020818303038152906040528051906020012090505b92915050565b5f546001600160a01b031633148015906105a55750335f9081526001602052604090205460ff16155b156105c55760405163472511eb60e11b81523360048201526024016102e9565b6004546001600160401b03908116908216811061060857604051633c3b1c2360e11b81526001600160401b038084166004830152821660248201526044016102e9565b6002849055600383905560048054426001600160401b03818116600160401b81026fffffffffffffffffffffffffffffffff19909416918716918217939093179093556040805188815260208101889052908101929092529133917f7df048b0ccbf5d3e9082d9499aca311d9d8ad94e6c68810c4ccaa00e0a828c309060600160405180910390a35050505050565b5f546001600160a01b031633146106c35760405163472511eb60e11b81523360048201526024016102e9565b6001600160a01b0381166106ea5760405163d92e233d60e01b815260040160405180910390fd5b5f80546040516001600160a01b03808516939216917f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e091a35f80546001600160a01b0319166001600160a01b0392909216919091179055565b5f821580159061075a575061075a858585856107e6565b95945050505050565b5f8261077288888888876107fd565b14979650505050505050565b60408051602a80825260608281019093526020820181803683370190505090506020810160308153607860018201538260295b60018111156107de57600f8216602760098211026030018101828501535060049190911c905f19016107b1565b505050919050565b5f826107f3868685610a60565b1495945050505050565b80515f908361080d816001610eae565b6108178884610eae565b1461083557604051631a8a024960e11b815260040160405180910390fd5b8015610a11575f816001600160401b0381111561085457610854610d59565b60405190808252806020026020018201604052801561087d578160200160208202803683370190505b5090505f8080805b858110156109c6575f8785106108bf5785846108a081610f28565b9550815181106108b2576108b2610f40565b60200260200101516108e5565b89856108ca81610f28565b9650815181106108dc576108dc610f40565b60200260200101515b90505f8c8c848181106108fa576108fa610f40565b905060200201602081019061090f9190610f54565b61093c578e8e8561091f81610f28565b965081811061093057610930610f40565b90506020020135610993565b88861061096d57868561094e81610f28565b96508151811061096057610960610f40565b6020026020010151610993565b8a8661097881610f28565b97508151811061098a5761098a610f40565b60200260200101515b905061099f8282610aa1565b8784815181106109b1576109b1610f40565b60209081029190910101525050600101610885565b50808b146109e757604051631a8a024960e11b815260040160405180910390fd5b8360018603815181106109fc576109fc610f40565b6020026020010151965050505050505061075a565b8115610a3a57835f81518110610a2957610a29610f40565b60200260200101519250505061075a565b87875f818110610a4c57610a4c610f40565b905060200201359250505095945050505050565b5f81815b84811015610a9857610a8e82878784818110610a8257610a82610f40565b90506020020135610aa1565b9150600101610a64565b50949350505050565b5f818310610abb575f828152602084905260409020610ac9565b5f8381526020839052604090205b9392505050565b80356001600160a01b0381168114610ae6575f5ffd5b919050565b80358015158114610ae6575f5ffd5b5f5f60408385031215610b0b575f5ffd5b610b1483610ad0565b9150610b2260208401610aeb565b90509250929050565b5f5f83601f840112610b3b575f5ffd5b5081356001600160401b03811115610b51575f5ffd5b6020830191508360208260051b8501011115610b6b575f5ffd5b9250929050565b5f5f5f60408486031215610b84575f5ffd5b83356001600160401b03811115610b99575f5ffd5b610ba586828701610b2b565b909790965060209590950135949350505050565b5f5f5f5f5f5f60608789031215610bce575f5ffd5b86356001600160401b03811115610be3575f5ffd5b610bef89828a01610b2b565b90975095505060208701356001600160401b03811115610c0d575f5ffd5b610c1989828a01610b2b565b90955093505060408701356001600160401b03811115610c37575f5ffd5b610c4389828a01610b2b565b979a9699509497509295939492505050565b5f60208284031215610c65575f5ffd5b610ac982610ad0565b5f5f83601f840112610c7e575f5ffd5b5081356001600160401b03811115610c94575f5ffd5b602083019150836020828501011115610b6b575f5ffd5b5f5f5f5f5f5f60608789031215610cc0575f5ffd5b86356001600160401b03811115610cd5575f5ffd5b610ce189828a01610c6e565b90975095505060208701356001600160401b03811115610cff575f5ffd5b610c1989828a01610c6e565b5f5f5f60408486031215610d1d575f5ffd5b610d2684610ad0565b925060208401356001600160401b03811115610d40575f5ffd5b610d4c86828701610b2b565b9497909650939450505050565b634e487b7160e01b5f52604160045260245ffd5b5f82601f830112610d7c575f5ffd5b81356001600160401b03811115610d9557610d95610d59565b604051601f8201601f19908116603f011681016001600160401b0381118282101715610dc357610dc3610d59565b604052818152838201602001851015610dda575f5ffd5b816020850160208301375f918101602001919091529392505050565b5f5f60408385031215610e07575f5ffd5b82356001600160401b03811115610e1c575f5ffd5b610e2885828601610d6d565b92505060208301356001600160401b03811115610e43575f5ffd5b610e4f85828601610d6d565b9150509250929050565b5f5f5f60608486031215610e6b575f5ffd5b833592506020840135915060408401356001600160401b0381168114610e8f575f5ffd5b809150509250925092565b634e487b7160e01b5f52601160045260245ffd5b8082018082111561057657610576610e9a565b5f81518084525f5b81811015610ee557602081850181015186830182015201610ec9565b505f602082860101526020601f19601f83011685010191505092915050565b604081525f610f166040830185610ec1565b828103602084015261075a8185610ec1565b5f60018201610f3957610f39610e9a565b5060010190565b634e487b7160e01b5f52603260045260245ffd5b5f60208284031215610f64575f5ffd5b610ac982610aeb56fea26469706673582212203e50fc6425d209441ca3d15261fa2f11e4eb6433193d5e40fbd6c3be78e0e84e64736f6c63430008250033",
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
// Solidity: function roots() view returns(bytes32 sanctionsRoot_, bytes32 communityRoot_, uint64 listVersion_, uint64 updatedAt_)
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
// Solidity: function roots() view returns(bytes32 sanctionsRoot_, bytes32 communityRoot_, uint64 listVersion_, uint64 updatedAt_)
func (verifier *Verifier) TryPackRoots() ([]byte, error) {
	return verifier.abi.Pack("roots")
}

// RootsOutput serves as a container for the return parameters of contract
// method Roots.
type RootsOutput struct {
	SanctionsRoot [32]byte
	CommunityRoot [32]byte
	ListVersion   uint64
	UpdatedAt     uint64
}

// UnpackRoots is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x393fe1cd.
//
// Solidity: function roots() view returns(bytes32 sanctionsRoot_, bytes32 communityRoot_, uint64 listVersion_, uint64 updatedAt_)
func (verifier *Verifier) UnpackRoots(data []byte) (RootsOutput, error) {
	out, err := verifier.abi.Unpack("roots", data)
	outstruct := new(RootsOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.SanctionsRoot = *abi.ConvertType(out[0], new([32]byte)).(*[32]byte)
	outstruct.CommunityRoot = *abi.ConvertType(out[1], new([32]byte)).(*[32]byte)
	outstruct.ListVersion = *abi.ConvertType(out[2], new(uint64)).(*uint64)
	outstruct.UpdatedAt = *abi.ConvertType(out[3], new(uint64)).(*uint64)
	return *outstruct, nil
}

// PackSetRoot is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xeedeca6d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setRoot(bytes32 sanctionsRoot_, bytes32 communityRoot_, uint64 listVersion_) returns()
func (verifier *Verifier) PackSetRoot(sanctionsRoot [32]byte, communityRoot [32]byte, listVersion uint64) []byte {
	enc, err := verifier.abi.Pack("setRoot", sanctionsRoot, communityRoot, listVersion)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetRoot is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xeedeca6d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setRoot(bytes32 sanctionsRoot_, bytes32 communityRoot_, uint64 listVersion_) returns()
func (verifier *Verifier) TryPackSetRoot(sanctionsRoot [32]byte, communityRoot [32]byte, listVersion uint64) ([]byte, error) {
	return verifier.abi.Pack("setRoot", sanctionsRoot, communityRoot, listVersion)
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

// VerifierRootsUpdated represents a RootsUpdated event raised by the Verifier contract.
type VerifierRootsUpdated struct {
	ListVersion   uint64
	SanctionsRoot [32]byte
	CommunityRoot [32]byte
	UpdatedAt     uint64
	Updater       common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const VerifierRootsUpdatedEventName = "RootsUpdated"

// ContractEventName returns the user-defined event name.
func (VerifierRootsUpdated) ContractEventName() string {
	return VerifierRootsUpdatedEventName
}

// UnpackRootsUpdatedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RootsUpdated(uint64 indexed listVersion, bytes32 sanctionsRoot, bytes32 communityRoot, uint64 updatedAt, address indexed updater)
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
	if bytes.Equal(raw[:4], verifier.abi.Errors["MerkleProofInvalidMultiproof"].ID.Bytes()[:4]) {
		return verifier.UnpackMerkleProofInvalidMultiproofError(raw[4:])
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
