package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn"
	"github.com/gin-gonic/gin"
)

// strictBody checks a JSON request body before anything else of the route
// runs (idempotency, the charge): a body whose members the request type
// T does not have, at any depth, is refused with a 400 naming each one
// and, where the member exists elsewhere, where it belongs; a malformed
// body or a wrongly typed member is refused the same way. The body is put
// back for the handler, which decodes it again. An empty body, or one
// that is not JSON, is left to the handler (optional bodies, 415).
func strictBody[T any]() gin.HandlerFunc {
	typ := reflect.TypeFor[T]()
	return func(c *gin.Context) {
		r := c.Request
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 || checkJSONContentType(r, true) != nil {
			c.Next()
			return
		}
		raw, err := io.ReadAll(r.Body)
		if err != nil {
			writeError(c, decodeError(err))
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(raw))
		if len(bytes.TrimSpace(raw)) == 0 {
			c.Next()
			return
		}
		if err := checkStrict(raw, typ); err != nil {
			writeError(c, err)
			return
		}
		c.Next()
	}
}

// checkStrict decodes raw into a new value of typ as bindJSON would, then
// refuses the members typ does not have.
func checkStrict(raw []byte, typ reflect.Type) error {
	v := reflect.New(typ).Interface()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return cairn.Errorf(cairn.EINVALID, "Request body must hold exactly one JSON value.")
	}
	var unknown []unknownField
	walkUnknown(raw, typ, "", &unknown)
	if len(unknown) == 0 {
		return nil
	}
	return unknownFieldsError(unknown)
}

// unknownField is a member the request type does not have, with a hint
// saying where it belongs or what was probably meant ("" when none).
type unknownField struct{ Field, Hint string }

func unknownFieldsError(unknown []unknownField) error {
	parts := make([]string, len(unknown))
	fields := make([]string, len(unknown))
	for i, u := range unknown {
		fields[i] = u.Field
		parts[i] = strconv.Quote(u.Field)
		if u.Hint != "" {
			parts[i] += " (" + u.Hint + ")"
		}
	}
	noun := "Unknown field"
	if len(unknown) > 1 {
		noun = "Unknown fields"
	}
	return cairn.Errorf(cairn.EINVALID, "%s %s. Nothing was stored or charged; remove or move them and send the request again.",
		noun, strings.Join(parts, ", ")).With("field", fields[0]).With("unknownFields", fields)
}

// jsonFields are the members a struct type decodes, by lower-cased name
// (encoding/json matches names without regard to case), with their types.
type jsonField struct {
	name string
	typ  reflect.Type
}

func jsonFields(t reflect.Type) map[string]jsonField {
	out := map[string]jsonField{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				for k, v := range jsonFields(et) {
					out[k] = v
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[strings.ToLower(name)] = jsonField{name, f.Type}
	}
	return out
}

// walkUnknown appends to out the members of raw, at path prefix, that t
// does not decode. Values of the wrong kind were refused by the decoder
// already; here they are skipped.
func walkUnknown(raw []byte, t reflect.Type, prefix string, out *[]unknownField) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		dec := json.NewDecoder(bytes.NewReader(raw))
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return
		}
		fields := jsonFields(t)
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return
			}
			key, _ := tok.(string)
			var val json.RawMessage
			if err := dec.Decode(&val); err != nil {
				return
			}
			if f, ok := fields[strings.ToLower(key)]; ok {
				walkUnknown(val, f.typ, join(prefix, f.name), out)
				continue
			}
			*out = append(*out, unknownField{join(prefix, key), hintFor(key, prefix, fields)})
		}
	case reflect.Slice, reflect.Array:
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return
		}
		for i, item := range items {
			walkUnknown(item, t.Elem(), fmt.Sprintf("%s[%d]", prefix, i), out)
		}
	}
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// ttlNames are the names other APIs give a time to live.
var ttlNames = map[string]bool{"ttl": true, "expires_in": true, "expiresat": true, "expires_at": true, "expires": true,
	"expiry": true, "expiration": true, "ttlseconds": true, "ttl_seconds": true, "expire": true, "expiresafter": true}

// hintFor says where an unknown member key belongs among fields: in a
// nested object that has it (tags goes in metadata.tags), under the
// service's name for it (expiresIn for ttl), or the known name closest to
// it (contnt: content).
func hintFor(key, prefix string, fields map[string]jsonField) string {
	lk := strings.ToLower(key)
	for _, f := range fields {
		t := f.typ
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			continue
		}
		if inner, ok := jsonFields(t)[lk]; ok {
			return fmt.Sprintf("%s goes in %s", key, join(prefix, f.name+"."+inner.name))
		}
	}
	if f, ok := fields["expiresin"]; ok && ttlNames[lk] {
		return fmt.Sprintf("the time to live is %s, a duration such as \"7d\" or \"24h\"", join(prefix, f.name))
	}
	best, bestD := "", 3
	for k, f := range fields {
		if d := editDistance(lk, k); d < bestD && d*2 < len(lk) {
			best, bestD = f.name, d
		}
	}
	if best != "" {
		return fmt.Sprintf("did you mean %s?", join(prefix, best))
	}
	return ""
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
