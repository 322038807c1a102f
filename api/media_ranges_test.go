package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
)

// uploadMedia uploads data as a media file and returns its id.
func uploadMedia(t *testing.T, ls *apitest.Server, key, name string, data []byte) string {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	mw.Close()
	req, _ := http.NewRequest("POST", ls.URL+"/v1/media/upload", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	apitest.ValidateResponse(t, req, resp, raw)
	var out map[string]any
	if resp.StatusCode != http.StatusCreated || json.Unmarshal(raw, &out) != nil {
		t.Fatalf("upload: %d %s", resp.StatusCode, raw)
	}
	return out["id"].(string)
}

// TestRangeUnknownUnitOrMalformedServesAll: RFC 9110 14.2 says to ignore
// a Range header of an unknown unit, and a malformed one may be ignored:
// both serve the whole content (200); only a well-formed range beyond the
// content is 416.
func TestRangeUnknownUnitOrMalformedServesAll(t *testing.T) {
	ls, key := testerServer(t)
	data := bytes.Repeat([]byte("0123456789"), 10)
	id := uploadMedia(t, ls, key, "digits.txt", data)
	path := "/v1/media/" + id + "/stream"
	for _, h := range []string{"items=0-5", "bytes=abc", "bytes=5-2", "bytes=", "pages=1"} {
		r := ls.Do(t, "GET", path, key, nil, "Range", h).Must(t, http.StatusOK)
		if !bytes.Equal(r.Body, data) {
			t.Errorf("Range %q: %d bytes, want the whole %d", h, len(r.Body), len(data))
		}
	}
	if r := ls.Do(t, "GET", path, key, nil, "Range", "Bytes=0-4").Must(t, http.StatusPartialContent); string(r.Body) != "01234" {
		t.Errorf("Bytes=0-4: %q", r.Body)
	}
	ls.Do(t, "GET", path, key, nil, "Range", "bytes=1000-2000").Must(t, http.StatusRequestedRangeNotSatisfiable)
}

// TestMediaRenew: POST /v1/media/{id}/renew gives a file a new time to
// live from now (free); a bad expiresIn or body is 400, another agent's
// file 404.
func TestMediaRenew(t *testing.T) {
	ls, key := testerServer(t)
	other := ls.Register(t, "tester").Key
	id := uploadMedia(t, ls, key, "a.txt", []byte("hello"))
	before := ls.Balance(t, key)
	r := ls.Do(t, "POST", "/v1/media/"+id+"/renew", key, `{"expiresIn":"365d"}`).Must(t, http.StatusOK)
	if r.Str("expiresAt") < "2027" {
		t.Fatalf("renew: %s", r.Body)
	}
	if g := ls.Do(t, "GET", "/v1/media/"+id, key, nil).Must(t, http.StatusOK); g.Str("expiresAt") != r.Str("expiresAt") {
		t.Fatalf("record after renew: %s", g.Body)
	}
	ls.Do(t, "POST", "/v1/media/"+id+"/renew", key, `{"expiresIn":"forever"}`).Problem(t, http.StatusBadRequest, "invalid")
	ls.Do(t, "POST", "/v1/media/"+id+"/renew", key, `{"ttl":"7d"}`).Problem(t, http.StatusBadRequest, "invalid")
	ls.Do(t, "POST", "/v1/media/"+id+"/renew", other, `{"expiresIn":"7d"}`).Problem(t, http.StatusNotFound, "not_found")
	if got := ls.Balance(t, key); got != before {
		t.Fatalf("renewal cost %v credits", before-got)
	}
	if s := ls.Do(t, "GET", "/v1/media/"+id+"/stream", key, nil).Must(t, http.StatusOK); string(s.Body) != "hello" {
		t.Fatalf("stream after renew: %q", s.Body)
	}
}
