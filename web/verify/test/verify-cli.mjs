// verify-cli reads {document, keys?, key?, sourceUrl?, offline?,
// allowUnsigned?} as JSON on stdin, verifies the document with the
// committed bundle, and writes the verdict as JSON on stdout. The Go
// tests run it beside `cairn verify-proof` on the same documents.
import { verifyDocument } from '../dist/cairn-verify.js';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const req = JSON.parse(input);
const fetchBytes = async (url) => {
  const resp = await fetch(url);
  if (!resp.ok) throw new Error(`GET ${url}: ${resp.status}`);
  return new Uint8Array(await resp.arrayBuffer());
};
const verdict = await verifyDocument(req.document, {
  keys: req.keys,
  key: req.key,
  sourceUrl: req.sourceUrl,
  allowUnsigned: req.allowUnsigned,
  fetchBytes: req.offline ? undefined : fetchBytes,
});
process.stdout.write(JSON.stringify(verdict) + '\n');
