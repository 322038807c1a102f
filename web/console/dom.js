// Small DOM helpers: elements built with textContent only (never HTML
// from data), facts lists and downloads.

export const $ = (id) => document.getElementById(id);

// el builds an element with attributes and children (strings become text).
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    e.append(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
  return e;
}

// facts fills a <dl> with [term, value] pairs; a value may be an element.
export function facts(dl, pairs) {
  dl.replaceChildren();
  for (const [term, value] of pairs) {
    dl.append(el('dt', { text: term }), el('dd', {}, value === null || value === undefined || value === '' ? '—' : value));
  }
}

// show sets an error or notice paragraph's text ('' hides it).
export function show(p, text) {
  p.textContent = text || '';
  p.hidden = !text;
}

// download hands the browser a file made in the page.
export function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

export const fmtInt = (n) => Number(n).toLocaleString('en-US');
export const fmtTime = (t) => (t ? new Date(t).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '—');
