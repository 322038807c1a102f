package api_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

// TestE2EIdempotentUploadTooLarge: an upload with an Idempotency-Key whose
// body exceeds the upload limit is refused before anything is buffered or
// billed: no charge, no refund, a 413 problem document.
func TestE2EIdempotentUploadTooLarge(t *testing.T) {
	ts := apitest.NewServer(t)
	a := ts.Register(t, "")
	ledger := func() int {
		return len(ts.Do(t, "GET", "/v1/billing/transactions?limit=100", a.Key, nil).Must(t, 200).JSON["transactions"].([]any))
	}
	before := ledger()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	w.WriteField("type", "semantic")
	fw, _ := w.CreateFormFile("file", "big.bin")
	fw.Write(make([]byte, 12<<20))
	w.Close()
	for _, chunked := range []bool{false, true} {
		var body io.Reader = bytes.NewReader(buf.Bytes())
		if chunked {
			body = io.MultiReader(body) // no Content-Length: read up to the limit, then refused
		}
		req, _ := http.NewRequest("POST", ts.URL+"/v1/memory/upload", body)
		req.Header.Set("Content-Type", w.FormDataContentType())
		req.Header.Set("Authorization", "Bearer "+a.Key)
		req.Header.Set("Idempotency-Key", "big-upload")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 413 || !bytes.Contains(raw, []byte(`"code":"`+cairn.ETOOLARGE+`"`)) {
			t.Fatalf("chunked %v: %d %s", chunked, resp.StatusCode, raw)
		}
	}
	if after := ledger(); after != before || ts.Balance(t, a.Key) != 100 {
		t.Fatalf("ledger %d -> %d entries, balance %d: an oversized upload was billed", before, after, ts.Balance(t, a.Key))
	}
}
