package api_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/account"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/golang-jwt/jwt/v5"
)

// TestE2EScreenMalformedRequests sends malformed screening requests: each
// is a 400 (or 415) with the exact code, charges nothing and takes no free
// address.
func TestE2EScreenMalformedRequests(t *testing.T) {
	ts, a := screenAgent(t)
	long := strings.Repeat("é", 40000)
	for _, tc := range []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"NotJSON", `{"addresses":`, 400, cairn.EINVALID},
		{"Null", `null`, 400, cairn.EINVALID},
		{"Array", `[]`, 400, cairn.EINVALID},
		{"Empty", `{}`, 400, cairn.EINVALID},
		{"AddressesNull", `{"addresses":null}`, 400, cairn.EINVALID},
		{"AddressesString", `{"addresses":"0x1"}`, 400, cairn.EINVALID},
		{"AddressesObject", `{"addresses":{"address":"0x1","chain":"ethereum"}}`, 400, cairn.EINVALID},
		{"ItemNull", `{"addresses":[null]}`, 400, cairn.EINVALID},
		{"ItemString", `{"addresses":["0x1"]}`, 400, cairn.EINVALID},
		{"AddressNumber", `{"addresses":[{"address":1,"chain":"ethereum"}]}`, 400, cairn.EINVALID},
		{"ChainNumber", `{"addresses":[{"address":"0x1","chain":1}]}`, 400, cairn.EINVALID},
		{"ChainMissing", `{"addresses":[{"address":"` + apitest.Tornado + `"}]}`, 400, cairn.EINVALID},
		{"ChainEmpty", `{"addresses":[{"address":"` + apitest.Tornado + `","chain":""}]}`, 400, cairn.EINVALID},
		{"ChainUnicode", `{"addresses":[{"address":"` + apitest.Tornado + `","chain":"ethereüm"}]}`, 400, cairn.EINVALID},
		{"ChainLong", map[string]any{"addresses": []map[string]any{{"address": apitest.Tornado, "chain": long}}}, 400, cairn.EINVALID},
		{"IncludeCommunityString", `{"addresses":[{"address":"` + apitest.Tornado + `","chain":"ethereum"}],"includeCommunity":"yes"}`, 400, cairn.EINVALID},
		{"IncludeCommunityNumber", `{"addresses":[{"address":"` + apitest.Tornado + `","chain":"ethereum"}],"includeCommunity":1}`, 400, cairn.EINVALID},
		{"TrailingValue", `{"addresses":[{"address":"` + apitest.Tornado + `","chain":"ethereum"}]} {}`, 400, cairn.EINVALID},
		{"UnknownChainAfterValid", map[string]any{"addresses": append(apitest.Addresses(99), map[string]any{"address": apitest.Tornado, "chain": "narnia"})}, 400, cairn.EINVALID},
		{"Over100", map[string]any{"addresses": apitest.Addresses(101)}, 400, cairn.EINVALID},
		{"TooLarge", map[string]any{"addresses": []map[string]any{{"address": strings.Repeat("a", 2<<20), "chain": "ethereum"}}}, 413, cairn.ETOOLARGE},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts.Do(t, "POST", "/v1/compliance/screen", a.Key, tc.body).Problem(t, tc.status, tc.code)
		})
	}
	t.Run("NoContentType", func(t *testing.T) {
		ts.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": apitest.Addresses(1)}, "Content-Type", "text/plain").
			Problem(t, 415, cairn.EUNSUPPORTEDMEDIA)
	})
	if b := ts.Balance(t, a.Key); b != 100 {
		t.Fatalf("balance %d after rejected requests, want 100", b)
	}
	r := ts.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": apitest.Addresses(1)}).Must(t, 200)
	if r.Header.Get("X-RateLimit-Free-Remaining") != "9" {
		t.Fatalf("rejected requests took free addresses: %v", r.Header)
	}
}

// TestE2EScreenOddAddresses screens addresses that are not addresses: each
// item gets its own status, the batch is served.
func TestE2EScreenOddAddresses(t *testing.T) {
	ts, a := screenAgent(t)
	ts.Do(t, "POST", "/v1/admin/credits", apitest.AdminToken, map[string]any{"developerId": a.DeveloperID, "amount": 1000, "reason": "test"}).Must(t, 200)
	badSum := strings.Replace(apitest.Tornado, "D6D", "d6D", 1) // mixed case that is not the EIP-55 checksum
	for _, tc := range []struct {
		name, address, chain, status, checksum string
	}{
		{"Empty", "", "ethereum", "invalid_address", "none"},
		{"Spaces", "   ", "ethereum", "invalid_address", "none"},
		{"Unicode", "0x8589427373D6D84E98730D7795D8F6F8731FDA1é", "ethereum", "invalid_address", "none"},
		{"Emoji", "🙂", "bitcoin", "invalid_address", "none"},
		{"NUL", "0x8589427373d6d84e98730d7795d8f6f8731fda16\x00", "ethereum", "invalid_address", "none"},
		{"Long", "0x" + strings.Repeat("a", 50000), "ethereum", "invalid_address", "none"},
		{"Lower", strings.ToLower(apitest.Tornado), "ethereum", "sanctioned", "none"},
		{"Upper", "0x" + strings.ToUpper(apitest.Tornado[2:]), "ethereum", "sanctioned", "none"},
		{"BadChecksum", badSum, "ethereum", "sanctioned", "invalid"},
		{"PaddedChain", apitest.Tornado, " Ethereum ", "sanctioned", "none"},
		{"Markup", "<script>&\u2028", "bitcoin", "invalid_address", "none"},
		{"BitcoinOnEVM", "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h", "ethereum", "invalid_address", "none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ts.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": tc.address, "chain": tc.chain}}}).Must(t, 200)
			item := r.JSON["results"].([]any)[0].(map[string]any)
			if item["status"] != tc.status || item["checksum"] != tc.checksum || item["address"] != tc.address || item["chain"] != tc.chain {
				t.Fatalf("item %v", item)
			}
			ts.CheckResultsHash(t, a.Key, r)
		})
	}
}

// TestE2EScreenFreeTierAccounting follows the free window over requests of
// 4, 4, 4, a 402 and a last one: the headers and the rateLimit object agree
// and the balance moves by exactly the billable addresses.
func TestE2EScreenFreeTierAccounting(t *testing.T) {
	ts, a := screenAgent(t)
	ts.Do(t, "POST", "/v1/admin/credits", apitest.AdminToken, map[string]any{"developerId": a.DeveloperID, "amount": -97, "reason": "test"}).Must(t, 200)
	var reset string
	for i, tc := range []struct {
		n, status, remaining, billable, balance int
	}{
		{4, 200, 6, 0, 3},
		{4, 200, 2, 0, 3},
		{4, 200, 0, 2, 1},
		{2, 402, 0, 0, 1},
		{100, 402, 0, 0, 1},
		{1, 200, 0, 1, 0},
		{1, 402, 0, 0, 0},
	} {
		r := ts.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": apitest.Addresses(tc.n)})
		if tc.status == 402 {
			r.Problem(t, 402, cairn.EPAYMENT)
		} else {
			r.Must(t, 200)
			rl := r.JSON["rateLimit"].(map[string]any)
			h := r.Header
			if rl["freeLimit"] != float64(10) || rl["freeRemaining"] != float64(tc.remaining) || rl["billableAddresses"] != float64(tc.billable) ||
				rl["creditCharged"] != float64(tc.billable) || h.Get("X-RateLimit-Free-Limit") != "10" ||
				h.Get("X-RateLimit-Free-Remaining") != strconv.Itoa(tc.remaining) || h.Get("X-RateLimit-Billable") != strconv.Itoa(tc.billable) ||
				h.Get("X-RateLimit-Free-Reset") != rl["freeReset"] {
				t.Fatalf("request %d: rateLimit %v, headers %v", i, rl, h)
			}
			if reset == "" {
				reset = rl["freeReset"].(string)
			} else if rl["freeReset"] != reset {
				t.Fatalf("request %d: window reset moved from %s to %v", i, reset, rl["freeReset"])
			}
		}
		if b := ts.Balance(t, a.Key); b != tc.balance {
			t.Fatalf("request %d: balance %d, want %d", i, b, tc.balance)
		}
	}
}

// TestE2EScreenPricing: the screening price is fixed by spec 8 (free
// window, then 1 credit an address), not an administrator price: setting it,
// even to 0, is a 400 naming the operation and changes nothing; zero prices
// of the other operations do not touch screening either.
func TestE2EScreenPricing(t *testing.T) {
	ts, a := screenAgent(t)
	r := ts.Do(t, "PUT", "/v1/admin/pricing", apitest.AdminToken, map[string]any{"operationCosts": map[string]any{"compliance.screen": 0}}).Problem(t, 400, cairn.EINVALID)
	if r.Str("operation") != "compliance.screen" {
		t.Fatalf("the refused operation is not named: %s", r.Body)
	}
	ts.Do(t, "PUT", "/v1/admin/pricing", apitest.AdminToken, map[string]any{"operationCosts": map[string]any{"search": 0, "memory.read": 0}}).Must(t, 200)
	ts.Do(t, "PUT", "/v1/admin/pricing", a.Key, map[string]any{"operationCosts": map[string]any{"search": 0}}).Problem(t, 401, cairn.EUNAUTHORIZED)
	p := ts.Do(t, "GET", "/v1/billing/pricing", "", nil).Must(t, 200)
	if _, ok := p.JSON["operationCosts"].(map[string]any)["compliance.screen"]; ok {
		t.Fatalf("pricing lists the screening: %s", p.Body)
	}
	s := ts.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": apitest.Addresses(100)}).Must(t, 200)
	if s.Header.Get("X-RateLimit-Billable") != "90" || ts.Balance(t, a.Key) != 10 {
		t.Fatalf("100 addresses (duplicates too) with 10 free: billable %s, balance %d; want 90 and 10",
			s.Header.Get("X-RateLimit-Billable"), ts.Balance(t, a.Key))
	}
}

// TestE2EScreenDeveloperTokens: a bad developer token is a 401, never a 500.
func TestE2EScreenDeveloperTokens(t *testing.T) {
	ts, a := screenAgent(t)
	secret := apitest.JWTSecret
	sign := func(t *testing.T, key []byte, m jwt.Claims, method jwt.SigningMethod) string {
		s, err := jwt.NewWithClaims(method, m).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	now := time.Now()
	claims := func(sub string, exp time.Time) jwt.RegisteredClaims {
		return jwt.RegisteredClaims{Issuer: account.Issuer, Subject: sub, IssuedAt: jwt.NewNumericDate(now.Add(-2 * time.Hour)),
			ExpiresAt: jwt.NewNumericDate(exp)}
	}
	good := sign(t, secret, claims(a.DeveloperID, now.Add(time.Hour)), jwt.SigningMethodHS256)
	for _, tc := range []struct {
		name, token string
	}{
		{"Expired", sign(t, secret, claims(a.DeveloperID, now.Add(-time.Hour)), jwt.SigningMethodHS256)},
		{"Forged", sign(t, []byte("not the secret"), claims(a.DeveloperID, now.Add(time.Hour)), jwt.SigningMethodHS256)},
		{"OtherAlg", sign(t, secret, claims(a.DeveloperID, now.Add(time.Hour)), jwt.SigningMethodHS512)},
		{"NoExpiry", sign(t, secret, jwt.RegisteredClaims{Issuer: account.Issuer, Subject: a.DeveloperID}, jwt.SigningMethodHS256)},
		{"NoSubject", sign(t, secret, claims("", now.Add(time.Hour)), jwt.SigningMethodHS256)},
		{"LongSubject", sign(t, secret, claims(strings.Repeat("d", 129), now.Add(time.Hour)), jwt.SigningMethodHS256)},
		{"OtherIssuer", sign(t, secret, jwt.RegisteredClaims{Issuer: "someone", Subject: a.DeveloperID, ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour))}, jwt.SigningMethodHS256)},
		{"Garbage", "a.b.c"},
		{"Tampered", good[:len(good)-2] + "xx"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts.Do(t, "POST", "/v1/compliance/screen", tc.token, map[string]any{"addresses": apitest.Addresses(1)}).Problem(t, 401, cairn.EUNAUTHORIZED)
		})
	}
	t.Run("UnknownDeveloper", func(t *testing.T) {
		// A signed token of a developer the service has not seen yet
		// opens an account without credits: the free window, then 402.
		tok := sign(t, secret, claims(cairn.NewID(), now.Add(time.Hour)), jwt.SigningMethodHS256)
		r := ts.Do(t, "POST", "/v1/compliance/screen", tok, map[string]any{"addresses": apitest.Addresses(11)}).Problem(t, 402, cairn.EPAYMENT)
		if r.Num("required") != 1 || r.Num("available") != 0 {
			t.Fatalf("402: %s", r.Body)
		}
		r = ts.Do(t, "POST", "/v1/compliance/screen", tok, map[string]any{"addresses": apitest.Addresses(10)}).Must(t, 200)
		if r.Header.Get("X-RateLimit-Billable") != "0" || r.Header.Get("X-RateLimit-Free-Remaining") != "0" {
			t.Fatalf("the 402 kept free addresses: %v", r.Header)
		}
		// Reports take an API key only.
		ts.Do(t, "POST", "/v1/compliance/report", good, map[string]any{"address": apitest.Tornado, "category": "scam", "reason": "x"}).
			Problem(t, 401, cairn.EUNAUTHORIZED)
	})
	r := ts.Do(t, "POST", "/v1/compliance/screen", good, map[string]any{"addresses": apitest.Addresses(1)}).Must(t, 200)
	if r.Header.Get("X-RateLimit-Free-Remaining") != "9" || ts.Balance(t, a.Key) != 100 {
		t.Fatalf("a good token after the bad ones: %v", r.Header)
	}
	// The token and the API key of one developer share one free window.
	r = ts.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": apitest.Addresses(5)}).Must(t, 200)
	if r.Header.Get("X-RateLimit-Free-Remaining") != "4" {
		t.Fatalf("API key after the token: %v", r.Header)
	}
	r = ts.Do(t, "POST", "/v1/compliance/screen", good, map[string]any{"addresses": apitest.Addresses(6)}).Must(t, 200)
	if r.Header.Get("X-RateLimit-Billable") != "2" || ts.Balance(t, a.Key) != 98 {
		t.Fatalf("token after the API key: %v, balance %d", r.Header, ts.Balance(t, a.Key))
	}
}

// screenServer is a test server serving the ETH and XBT lists.
func screenServer(t *testing.T) *apitest.Server {
	t.Helper()
	return apitest.NewServer(t, apitest.SanctionsLists(t))
}

// screenAgent is a screenServer and an agent registered on it.
func screenAgent(t *testing.T) (*apitest.Server, apitest.Agent) {
	t.Helper()
	ts := screenServer(t)
	return ts, ts.Register(t, "")
}

// listServer is a test server serving the ETH and XBT lists of the files
// it returns, which the test may change and ingest again.
func listServer(t *testing.T) (ts *apitest.Server, eth, xbt string) {
	t.Helper()
	eth, xbt = apitest.ListFiles(t)
	return apitest.NewServer(t, apitest.Lists(t, "list:ETH="+eth, "list:XBT="+xbt)), eth, xbt
}
