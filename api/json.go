package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/wire"
	"github.com/gin-gonic/gin"
)

// jsonEncode writes v as JSON without HTML escaping.
func jsonEncode(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

type jsonRender struct{ v any }

func (r jsonRender) Render(w http.ResponseWriter) error {
	r.WriteContentType(w)
	return jsonEncode(w, r.v)
}

const jsonContentType = "application/json; charset=utf-8"

func (r jsonRender) WriteContentType(w http.ResponseWriter) {
	w.Header().Set("Content-Type", jsonContentType)
}

// writeJSON writes a success response.
func writeJSON(c *gin.Context, status int, v any) {
	c.Render(status, jsonRender{v})
}

// respond returns err when it is not nil, else writes v, converted by conv,
// with status: the end of a handler that answers with what it called
// returned.
func respond[T, W any](c *gin.Context, status int, v T, err error, conv func(T) W) error {
	if err != nil {
		return err
	}
	writeJSON(c, status, conv(v))
	return nil
}

// bindJSON decodes the request body into v. An empty body is accepted when
// optional is true. A body that is not application/json is 415, a body
// over the limit 413, malformed JSON or a wrongly typed field 400.
func bindJSON(c *gin.Context, v any, optional bool) error {
	r := c.Request
	if r.ContentLength == 0 && optional {
		return nil
	}
	if err := checkJSONContentType(r, optional); err != nil {
		return err
	}
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) && optional {
			return nil
		}
		return decodeError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return decodeError(err)
		}
		return cairn.Errorf(cairn.EINVALID, "Request body must hold exactly one JSON value.")
	}
	return nil
}

// checkJSONContentType is EUNSUPPORTEDMEDIA for a request whose
// Content-Type is not JSON; with optional, no Content-Type is accepted too.
func checkJSONContentType(r *http.Request, optional bool) error {
	if ct := r.Header.Get("Content-Type"); ct != "" || !optional {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || !(mt == "application/json" || strings.HasSuffix(mt, "+json")) {
			return cairn.Errorf(cairn.EUNSUPPORTEDMEDIA, "Content-Type must be application/json.")
		}
	}
	return nil
}

func decodeError(err error) error {
	var (
		mbe *http.MaxBytesError
		se  *json.SyntaxError
		ute *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &mbe):
		return cairn.Errorf(cairn.ETOOLARGE, "Request body exceeds %d bytes.", mbe.Limit).With("limit", mbe.Limit)
	case errors.As(err, &se):
		return cairn.Errorf(cairn.EINVALID, "Malformed JSON at byte %d.", se.Offset)
	case errors.As(err, &ute):
		field := ute.Field
		if field == "" {
			return cairn.Errorf(cairn.EINVALID, "Request body must be a JSON %s.", "object")
		}
		return cairn.Errorf(cairn.EINVALID, "Field %q must be %s, not %s.", field, jsonKind(ute.Type), jsonValueKind(ute.Value)).With("field", field)
	case errors.Is(err, io.EOF):
		return cairn.Errorf(cairn.EINVALID, "Request body is empty; a JSON object is required.")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return cairn.Errorf(cairn.EINVALID, "Malformed JSON: unexpected end of input.")
	default:
		return cairn.Errorf(cairn.EINVALID, "Malformed JSON: %s", sanitize(err.Error()))
	}
}

// jsonKind names the JSON value a Go type decodes from, as a client
// writes it: never a Go type name.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "another JSON value"
}

// jsonValueKind names the JSON value encoding/json found (its
// UnmarshalTypeError.Value: "string", "number", "number 1.5", "bool",
// "array", "object").
func jsonValueKind(v string) string {
	switch {
	case v == "bool":
		return "true or false"
	case v == "array", v == "object":
		return "an " + v
	case strings.HasPrefix(v, "number"):
		if n := strings.TrimSpace(strings.TrimPrefix(v, "number")); n != "" {
			return "the number " + n
		}
		return "a number"
	case v == "string":
		return "a string"
	}
	return v
}

// sanitize bounds an error text taken from a decoder before it is shown.
func sanitize(s string) string {
	s = strings.TrimPrefix(s, "json: ")
	if len(s) > 200 {
		s = s[:200]
	}
	return fmt.Sprintf("%s.", strings.TrimSuffix(s, "."))
}

// timestamp formats t as the service's ISO 8601 UTC timestamps.
func timestamp(t time.Time) string { return wire.At(t).String() }

// rawJSON is v encoded as jsonEncode writes it, for a free-form member of
// a wire type; nil (JSON null) if v cannot be encoded.
func rawJSON(v any) json.RawMessage {
	var b bytes.Buffer
	if err := jsonEncode(&b, v); err != nil {
		return nil
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// optString is s, or nil (JSON null) when s is empty.
func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
