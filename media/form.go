package media

import (
	"errors"
	"time"

	"github.com/cairn-dev/cairn"
)

// Options are the attributes of an upload besides the file (spec 4.12).
type Options struct {
	Title       *string
	Description *string
	Pinned      bool
	Metadata    map[string]any
	ExpiresIn   string // "" for DefaultTTL
	RequestID   string
}

// MaxFieldBytes bounds one form field besides the file.
const MaxFieldBytes = MaxMetadataBytes

// ParseOptions reads the upload form fields through get, which reports a
// field's first value and whether it was sent: expiresIn ({n}{unit},
// default 90d), title, description, pinned ("true", or "false" and absent
// for unpinned) and metadata (a JSON object). Anything else is EINVALID
// naming the field; fields it does not know are ignored.
func ParseOptions(get func(name string) (string, bool)) (Options, error) {
	var o Options
	if v, ok := get("expiresIn"); ok {
		o.ExpiresIn = v
	}
	if _, err := o.TTL(); err != nil {
		return o, err
	}
	if v, ok := get("title"); ok {
		if len(v) > MaxTitleLen {
			return o, cairn.Errorf(cairn.EINVALID, "title is limited to %d bytes.", MaxTitleLen).With("field", "title")
		}
		o.Title = &v
	}
	if v, ok := get("description"); ok {
		if len(v) > MaxDescLen {
			return o, cairn.Errorf(cairn.EINVALID, "description is limited to %d bytes.", MaxDescLen).With("field", "description")
		}
		o.Description = &v
	}
	switch v, _ := get("pinned"); v {
	case "true":
		o.Pinned = true
	case "", "false":
	default:
		return o, cairn.Errorf(cairn.EINVALID, "pinned must be \"true\" or \"false\".").With("field", "pinned")
	}
	if v, ok := get("metadata"); ok {
		md, err := ParseMetadata(v)
		if err != nil {
			return o, err
		}
		o.Metadata = md
	}
	return o, nil
}

// TTL returns the time-to-live the options ask for.
func (o Options) TTL() (time.Duration, error) {
	s := o.ExpiresIn
	if s == "" {
		s = DefaultTTL
	}
	d, err := cairn.ParseTTL(s)
	var ce *cairn.Error
	if errors.As(err, &ce) {
		return 0, ce.With("field", "expiresIn")
	}
	return d, err
}

// blobExpiry is the expiry the blob store keeps for a file stored with the
// options: none when pinned, so that a pinned file is immune to expiry in
// the blob store too.
func (o Options) blobExpiry(now time.Time, ttl time.Duration) time.Time {
	if o.Pinned {
		return time.Time{}
	}
	return now.Add(ttl)
}
