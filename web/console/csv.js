// CSV in and out (RFC 4180: quoted fields, doubled quotes, CRLF or LF).

// parseCSV returns the records of text as arrays of fields.
export function parseCSV(text) {
  const rows = [];
  let row = [], field = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field); rows.push(row); row = []; field = '';
    } else field += c;
  }
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  return rows;
}

// queries turns input text (a CSV with an address column and an optional
// chain column, or lines of "address" or "address,chain") into screening
// items; lines without a chain take defaultChain. Blank lines are skipped.
export function queries(text, defaultChain) {
  const rows = parseCSV(text.replace(/^\uFEFF/, '')).map((r) => r.map((f) => f.trim()));
  let addr = 0, chain = 1, start = 0;
  const head = (rows[0] || []).map((f) => f.toLowerCase());
  if (head.includes('address')) {
    addr = head.indexOf('address');
    chain = head.indexOf('chain');
    start = 1;
  }
  const out = [];
  for (const r of rows.slice(start)) {
    const a = r[addr] || '';
    if (!a) continue;
    out.push({ address: a, chain: (chain >= 0 && r[chain]) || defaultChain });
  }
  return out;
}

const quote = (v) => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

// formatCSV writes a header and rows (arrays) as CSV with CRLF line ends.
export function formatCSV(header, rows) {
  return [header, ...rows].map((r) => r.map(quote).join(',')).join('\r\n') + '\r\n';
}
