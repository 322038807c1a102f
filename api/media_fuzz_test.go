package api_test

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/api"
	"github.com/cairn-dev/cairn/api/apitest"
)

// FuzzMediaUpload drives POST /v1/media/upload with generated file names,
// MIME types, metadata, TTLs, pin flags and bodies, with the fields before
// or after the file. Whatever comes in: no 5xx, every response matches the
// OpenAPI document, a 201 costs exactly media.upload and reports the size
// sent, and a failure costs nothing.
func FuzzMediaUpload(f *testing.F) {
	f.Add("cat.png", "image/png", `{"tags":["a"]}`, "7d", "true", false, []byte("\x89PNG\r\n\x1a\n"))
	f.Add("../../etc/passwd", "", `[]`, "0d", "maybe", true, []byte("root:x:0:0"))
	f.Add("a\x00b.txt", "application/octet-stream", `{`, "", "", false, []byte{})
	f.Add("\u202egnp.exe", "text/plain; charset=latin1", `null`, "1y", "false", true, []byte("MZ"))
	limits := api.DefaultLimits()
	limits.RequestsPerKey, limits.WritesPerAgent = 0, 0 // the fuzzer sends far more than a client may
	srv := newServerLimits(f, limits)
	h := srv.Handler()
	key, dev := register(f, h)
	post(f, h, "POST", "/v1/admin/credits", adminToken, map[string]any{"developerId": dev, "amount": 1_000_000_000, "reason": "fuzz"})
	f.Fuzz(func(t *testing.T, filename, contentType, metadata, expiresIn, pinned string, fieldsFirst bool, body []byte) {
		before := balance(t, h, key)
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		hdr := textproto.MIMEHeader{}
		hdr.Set("Content-Disposition", `form-data; name="file"; filename="`+strings.NewReplacer(`"`, "", "\r", "", "\n", "").Replace(filename)+`"`)
		if ct := strings.NewReplacer("\r", "", "\n", "").Replace(contentType); ct != "" {
			hdr.Set("Content-Type", ct)
		}
		fields := func() {
			for k, v := range map[string]string{"metadata": metadata, "expiresIn": expiresIn, "pinned": pinned} {
				if v != "" {
					_ = w.WriteField(k, v)
				}
			}
		}
		if fieldsFirst { // fields before the file are checked before it is stored, after it before the record
			fields()
		}
		pw, _ := w.CreatePart(hdr)
		pw.Write(body)
		if !fieldsFirst {
			fields()
		}
		w.Close()
		req := httptest.NewRequest("POST", "/v1/media/upload", &buf)
		req.Header.Set("Content-Type", w.FormDataContentType())
		req.Header.Set("Authorization", "Bearer "+key)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if err := apitest.Validate(req, rec.Code, rec.Header(), rec.Body.Bytes()); err != nil {
			t.Fatal(err)
		}
		after := balance(t, h, key)
		switch rec.Code {
		case http.StatusCreated:
			var m map[string]any
			_ = json.Unmarshal(rec.Body.Bytes(), &m)
			if m["sizeBytes"] != float64(len(body)) || after != before-5 {
				t.Fatalf("201 with size %v for %d bytes, balance %d -> %d", m["sizeBytes"], len(body), before, after)
			}
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType:
			if after != before {
				t.Fatalf("%d not refunded: %d -> %d", rec.Code, before, after)
			}
		default:
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	})
}

func register(t testing.TB, h http.Handler) (key, developerID string) {
	t.Helper()
	var r struct {
		APIKey      string `json:"apiKey"`
		DeveloperID string `json:"developerId"`
	}
	if err := json.Unmarshal(post(t, h, "POST", "/v1/auth/agent-register", "", nil), &r); err != nil || r.APIKey == "" {
		t.Fatalf("register: %v", err)
	}
	return r.APIKey, r.DeveloperID
}

func balance(t testing.TB, h http.Handler, key string) int64 {
	t.Helper()
	var r struct {
		CreditBalance int64 `json:"creditBalance"`
	}
	_ = json.Unmarshal(post(t, h, "GET", "/v1/billing/balance", key, nil), &r)
	return r.CreditBalance
}

func post(t testing.TB, h http.Handler, method, path, token string, body any) []byte {
	t.Helper()
	var rd *bytes.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req := httptest.NewRequest(method, path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code >= 300 {
		t.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
	}
	return rec.Body.Bytes()
}
