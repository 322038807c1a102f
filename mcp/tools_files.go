package mcp

import (
	"context"

	"github.com/cairn-dev/cairn/client"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// UploadFileArgs are the arguments of upload_file.
type UploadFileArgs struct {
	Key           string `json:"key" jsonschema:"the memory's key"`
	Filename      string `json:"filename" jsonschema:"the file name"`
	ContentBase64 string `json:"contentBase64" jsonschema:"the file's bytes, base64 (at most 4 MiB decoded)"`
	MimeType      string `json:"mimeType,omitempty" jsonschema:"the media type; detected when absent"`
	Type          string `json:"type,omitempty" jsonschema:"memory type (default file)"`
	ExpiresIn     string `json:"expiresIn,omitempty" jsonschema:"time to live (default 30d)"`
}

// FetchFileArgs are the arguments of fetch_file.
type FetchFileArgs struct {
	MemoryRef
}

// MediaUploadArgs are the arguments of media_upload.
type MediaUploadArgs struct {
	Filename      string `json:"filename" jsonschema:"the file name"`
	ContentBase64 string `json:"contentBase64" jsonschema:"the file's bytes, base64 (at most 4 MiB decoded)"`
	MimeType      string `json:"mimeType,omitempty" jsonschema:"the media type; detected when absent"`
	Title         string `json:"title,omitempty"`
	Description   string `json:"description,omitempty"`
	ExpiresIn     string `json:"expiresIn,omitempty" jsonschema:"time to live (default 90d)"`
}

// MediaListArgs are the arguments of media_list.
type MediaListArgs struct {
	Category string `json:"category,omitempty" jsonschema:"photo, video, audio or document"`
	Limit    int    `json:"limit,omitempty" jsonschema:"page size, 1 to 100"`
	Cursor   string `json:"cursor,omitempty" jsonschema:"nextCursor of the previous page"`
}

// MediaDeleteArgs are the arguments of media_delete.
type MediaDeleteArgs struct {
	ID string `json:"id" jsonschema:"the media file's id"`
}

// MediaRenewArgs are the arguments of media_renew.
type MediaRenewArgs struct {
	ID        string `json:"id" jsonschema:"the media file's id"`
	ExpiresIn string `json:"expiresIn" jsonschema:"the new time to live from now, such as 90d or 12h"`
}

// MediaGetArgs are the arguments of media_get.
type MediaGetArgs struct {
	ID             string `json:"id" jsonschema:"the media id"`
	IncludeContent bool   `json:"includeContent,omitempty" jsonschema:"also return the bytes, base64 (files of at most 4 MiB)"`
}

func (s *server) addFileTools(srv *sdk.Server) {
	tool(srv, s, "upload_file", "Store a file as a memory (5 credits). The bytes are base64, at most 4 MiB.",
		func(ctx context.Context, a UploadFileArgs) (any, error) {
			data, err := decodeFile(a.ContentBase64)
			if err != nil {
				return nil, err
			}
			typ := a.Type
			if typ == "" {
				typ = "file"
			}
			fields := nonEmpty(map[string]string{"type": typ, "key": a.Key, "mimeType": a.MimeType, "expiresIn": a.ExpiresIn})
			return s.c.UploadMemory(ctx, client.UploadFile{Name: a.Filename, ContentType: a.MimeType, Data: data}, fields, "")
		})
	tool(srv, s, "fetch_file", "Read a memory's stored bytes as base64 (1 credit; by key adds a read of the key, 1 credit). At most 4 MiB.",
		func(ctx context.Context, a FetchFileArgs) (any, error) {
			return s.withID(ctx, a.MemoryRef, func(id string) (any, error) {
				st, err := s.c.DownloadMemory(ctx, id)
				if err != nil {
					return nil, err
				}
				b64, err := readFile(st)
				return map[string]any{"id": id, "contentType": st.ContentType, "contentBase64": b64}, err
			})
		})
	tool(srv, s, "media_upload", "Store a photo, video, audio file or document (base64, at most 4 MiB; priced as media.upload).",
		func(ctx context.Context, a MediaUploadArgs) (any, error) {
			data, err := decodeFile(a.ContentBase64)
			if err != nil {
				return nil, err
			}
			fields := nonEmpty(map[string]string{"title": a.Title, "description": a.Description, "expiresIn": a.ExpiresIn})
			return s.c.UploadMedia(ctx, client.UploadFile{Name: a.Filename, ContentType: a.MimeType, Data: data}, fields)
		})
	tool(srv, s, "media_list", "List the agent's media files, newest first, one page at a time.",
		func(ctx context.Context, a MediaListArgs) (any, error) {
			return s.c.ListMedia(ctx, a.Category, a.Limit, a.Cursor)
		})
	tool(srv, s, "media_delete", "Delete a media file and its stored bytes (priced as media.delete).",
		func(ctx context.Context, a MediaDeleteArgs) (any, error) {
			return s.c.DeleteMedia(ctx, a.ID)
		})
	tool(srv, s, "media_renew", "Give a media file a new time to live from now, such as 90d (free).",
		func(ctx context.Context, a MediaRenewArgs) (any, error) {
			return s.c.RenewMedia(ctx, a.ID, a.ExpiresIn)
		})
	tool(srv, s, "media_get", "Describe a media file, optionally with its bytes as base64.",
		func(ctx context.Context, a MediaGetArgs) (any, error) {
			m, err := s.c.GetMedia(ctx, a.ID)
			if err != nil || !a.IncludeContent {
				return m, err
			}
			st, err := s.c.StreamMedia(ctx, a.ID, client.RangeOptions{})
			if err != nil {
				return nil, err
			}
			b64, err := readFile(st)
			return map[string]any{"media": m, "contentBase64": b64}, err
		})
}

// nonEmpty drops the empty form fields.
func nonEmpty(fields map[string]string) map[string]string {
	for k, v := range fields {
		if v == "" {
			delete(fields, k)
		}
	}
	return fields
}
