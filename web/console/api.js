// The console's requests to the service: the credential of the tab,
// problem documents turned into readable errors, and waits on 429.

import { $, show } from './dom.js';

const storageKey = 'cairn.console.credential';

export function credential() {
  return sessionStorage.getItem(storageKey) || '';
}

export function setCredential(value) {
  if (value) sessionStorage.setItem(storageKey, value);
  else sessionStorage.removeItem(storageKey);
}

// kindOf names the credential by its shape: an agent API key, a developer
// token (JWT) or, anything else, the administrator token.
export function kindOf(value) {
  if (value.startsWith('sk_')) return 'agent';
  if (value.split('.').length === 3) return 'developer';
  return 'admin';
}

// Problem is a failed request: the service's problem document (RFC 9457),
// or one made from the status when the body is not one.
export class Problem extends Error {
  constructor(doc, status) {
    super(`${doc.title}: ${doc.detail}`);
    this.doc = doc;
    this.status = status;
  }
}

// message is the readable text of an error: the problem's title and
// detail, and its code for support.
export function message(err) {
  if (err instanceof Problem) {
    const code = err.doc.code ? ` (${err.doc.code})` : '';
    return `${err.doc.title}: ${err.doc.detail}${code}`;
  }
  return err && err.message ? err.message : String(err);
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// call sends one request with the tab's credential and returns the
// parsed JSON answer; a 429 is retried after its Retry-After (up to
// retries times), any other failure throws a Problem.
export async function call(method, path, body, retries = 8) {
  const headers = { Accept: 'application/json' };
  const cred = credential();
  if (cred) headers.Authorization = `Bearer ${cred}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store', credentials: 'omit', referrerPolicy: 'no-referrer',
    });
    if (res.status === 429 && attempt < retries) {
      const wait = Number(res.headers.get('Retry-After')) || 1;
      await sleep(Math.min(wait, 60) * 1000);
      continue;
    }
    const text = await res.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch { data = null; }
    if (!res.ok) {
      const doc = data && data.title ? data : { title: res.statusText || `HTTP ${res.status}`, detail: text.slice(0, 300) || `The server answered ${res.status}.` };
      throw new Problem(doc, res.status);
    }
    return data;
  }
}

// act runs fn for the page whose lines are page-error and page-done: it
// clears both, then shows what fn returns (when anything) in the done line,
// or its failure in the error line.
export async function act(page, fn) {
  show($(`${page}-error`), '');
  show($(`${page}-done`), '');
  try {
    const done = await fn();
    if (done) show($(`${page}-done`), done);
  } catch (err) {
    show($(`${page}-error`), message(err));
  }
}
