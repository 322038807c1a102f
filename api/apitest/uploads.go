package apitest

import (
	"bytes"
	"mime"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"testing"
)

// PNG is a real 1x1 PNG.
var PNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89" +
	"\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

// Part is one part of a multipart body: a form field, or a file when it
// has a file name.
type Part struct {
	Name, Filename, ContentType string
	Body                        []byte
}

// Field is a form field part.
func Field(name, value string) Part { return Part{Name: name, Body: []byte(value)} }

// Upload posts a multipart body to /v1/media/upload.
func (c *Client) Upload(t testing.TB, key string, parts ...Part) *Response {
	t.Helper()
	return c.UploadTo(t, "/v1/media/upload", key, parts...)
}

// UploadTo posts a multipart body to path.
func (c *Client) UploadTo(t testing.TB, path, key string, parts ...Part) *Response {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		cd := mime.FormatMediaType("form-data", map[string]string{"name": p.Name})
		if p.Filename != "" {
			cd = mime.FormatMediaType("form-data", map[string]string{"name": p.Name, "filename": p.Filename})
		}
		if cd == "" { // names FormatMediaType refuses: write the header raw
			cd = `form-data; name="` + p.Name + `"; filename="` + p.Filename + `"`
		}
		h.Set("Content-Disposition", cd)
		if p.ContentType != "" {
			h.Set("Content-Type", p.ContentType)
		}
		pw, err := w.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		pw.Write(p.Body)
	}
	w.Close()
	req, _ := http.NewRequest("POST", c.URL+path, &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+key)
	return c.Send(t, req)
}

// Stream sends method (GET or HEAD) to the media file's stream with the
// header pairs.
func (c *Client) Stream(t testing.TB, method, key, id string, hdr ...string) *Response {
	t.Helper()
	req, _ := http.NewRequest(method, c.URL+"/v1/media/"+id+"/stream", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return c.Send(t, req)
}

// MemUpload posts a multipart body to /v1/memory/upload; file nil leaves
// the file part out.
func (c *Client) MemUpload(t testing.TB, key string, fields map[string]string, filename string, file []byte) *Response {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		w.WriteField(k, v)
	}
	if file != nil {
		fw, _ := w.CreateFormFile("file", filename)
		fw.Write(file)
	}
	w.Close()
	req, _ := http.NewRequest("POST", c.URL+"/v1/memory/upload", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+key)
	return c.Send(t, req)
}
