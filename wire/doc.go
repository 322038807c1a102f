// Package wire holds the JSON bodies of cairn's HTTP API: the requests a
// client sends and the responses the server writes. Package api renders
// them, package client decodes into them (its result types are aliases of
// these), and api's TestWireTypesFollowOpenAPI checks them against the
// OpenAPI document, so that a member added on one side only fails a test.
//
// Not here: the screening answer and the stored screening proof document,
// whose bytes compliance makes (the results are hashed as written), and
// the memory write and vector search requests, which api reads into types
// that tell an absent member from a zero one.
//
// A type's fields are declared in the order of the members in the bytes
// the server writes; where a body was once written from a map, that is
// the members sorted by name. Timestamps are Time, free-form members
// json.RawMessage, members that may be null pointers.
//
// It imports the standard library only: no package of the module, no
// HTTP framework.
package wire
