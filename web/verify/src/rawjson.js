// The exact bytes of a document's top-level members: resultsHash is the
// SHA-256 of the results array as served, so the verifier hashes those
// bytes, not a re-serialisation of the parsed array.
import { text } from './bytes.js';

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

function skipWS(b, i) {
  while (i < b.length && WS.has(b[i])) i++;
  return i;
}

// skipString returns the index after the string starting at b[i] ('"').
function skipString(b, i) {
  for (i++; i < b.length; i++) {
    if (b[i] === 0x5c) i++;
    else if (b[i] === 0x22) return i + 1;
  }
  throw new Error('unterminated string');
}

// skipValue returns the index after the value starting at b[i].
function skipValue(b, i) {
  if (b[i] === 0x22) return skipString(b, i);
  if (b[i] === 0x7b || b[i] === 0x5b) {
    let depth = 0;
    while (i < b.length) {
      const c = b[i];
      if (c === 0x22) {
        i = skipString(b, i);
        continue;
      }
      if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    throw new Error('unterminated value');
  }
  while (i < b.length && !WS.has(b[i]) && b[i] !== 0x2c && b[i] !== 0x7d && b[i] !== 0x5d) i++;
  return i;
}

/**
 * topLevelMembers returns, for each member of the JSON object in bytes,
 * the bytes of its value exactly as written (the last one of a repeated
 * name, as JSON.parse and Go keep it). The bytes must be valid JSON.
 */
export function topLevelMembers(b) {
  const out = new Map();
  let i = skipWS(b, 0);
  if (b[i] !== 0x7b) throw new Error('not a JSON object');
  i = skipWS(b, i + 1);
  if (b[i] === 0x7d) return out;
  for (;;) {
    const ks = i;
    i = skipString(b, i);
    const key = JSON.parse(text(b.subarray(ks, i)));
    i = skipWS(b, i);
    i = skipWS(b, i + 1); // ':'
    const vs = i;
    i = skipValue(b, i);
    out.set(key, b.subarray(vs, i));
    i = skipWS(b, i);
    if (b[i] === 0x7d) return out;
    i = skipWS(b, i + 1); // ','
  }
}

/** compact removes the insignificant white space of JSON bytes, as Go's json.Compact does. */
export function compact(b) {
  const out = new Uint8Array(b.length);
  let n = 0;
  let inString = false;
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (inString) {
      out[n++] = c;
      if (c === 0x5c) out[n++] = b[++i];
      else if (c === 0x22) inString = false;
    } else if (!WS.has(c)) {
      out[n++] = c;
      if (c === 0x22) inString = true;
    }
  }
  return out.slice(0, n);
}
