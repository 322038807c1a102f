// Package wire holds the JSON bodies of cairn's HTTP API: the requests a
// client sends and the responses the server writes. Package api renders
// them, package client decodes into them, and the tests of both check
// them against the OpenAPI document, so that a member added on one side
// only fails a test.
//
// A type's fields are declared in the order of the members in the bytes
// the server writes; where a body was once written from a map, that is
// the members sorted by name. Timestamps are Time, free-form members
// json.RawMessage, members that may be null pointers.
//
// It imports the standard library only: no package of the module, no
// HTTP framework.
package wire
