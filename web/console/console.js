// The console's entry: signing in with the credential typed into the
// page, and the pages, one per location hash.

import { call, credential, setCredential, kindOf, message } from './api.js';
import { $, show, fmtInt } from './dom.js';
import { initScreen, showScreen } from './screen.js';
import { initVersions, showVersions } from './versions.js';
import { initAnchoring, showAnchoring } from './anchoring.js';
import { initAdmin, showModeration, showAgents } from './admin.js';
import { initWatch, showWatch } from './watch.js';

const pages = { screen: showScreen, versions: showVersions, anchoring: showAnchoring, moderation: showModeration, agents: showAgents, watch: showWatch };
const adminPages = new Set(['moderation', 'agents']);

// whoAmI checks the credential with the service and says who it is.
async function whoAmI(cred) {
  const kind = kindOf(cred);
  if (kind === 'admin') {
    await call('GET', '/v1/admin/reports?limit=1');
    return { kind, text: 'Administrator' };
  }
  const b = await call('GET', '/v1/billing/balance');
  const who = kind === 'agent' ? 'Agent key' : 'Developer';
  return { kind, text: `${who} of ${b.developerId}: ${fmtInt(b.creditBalance)} credits` };
}

function route() {
  const signedIn = document.body.dataset.kind;
  let name = location.hash.slice(1);
  if (!signedIn) name = 'signin';
  else if (!pages[name] || (adminPages.has(name) && signedIn !== 'admin') || (name === 'watch' && signedIn === 'admin')) name = 'screen';
  for (const s of document.querySelectorAll('main > section')) s.hidden = s.id !== `page-${name}`;
  for (const a of document.querySelectorAll('#nav a')) {
    if (a.dataset.page === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  const title = document.querySelector(`#page-${name} h1`);
  document.title = `${title.textContent} · cairn console`;
  title.focus();
  if (pages[name]) pages[name]();
}

async function signIn(cred) {
  setCredential(cred);
  try {
    const me = await whoAmI(cred);
    document.body.dataset.kind = me.kind;
    $('who').textContent = me.text;
    $('nav').hidden = false;
    $('signout').hidden = false;
    show($('signin-error'), '');
  } catch (err) {
    setCredential('');
    delete document.body.dataset.kind;
    show($('signin-error'), message(err));
  }
  route();
}

function signOut() {
  setCredential('');
  delete document.body.dataset.kind;
  $('who').textContent = '';
  $('nav').hidden = true;
  $('signout').hidden = true;
  $('credential').value = '';
  route();
}

function init() {
  initScreen();
  initVersions();
  initAnchoring();
  initAdmin();
  initWatch();
  $('signin-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    signIn($('credential').value.trim());
  });
  $('signout').addEventListener('click', signOut);
  window.addEventListener('hashchange', route);
  if (credential()) signIn(credential());
  else route();
}

init();
