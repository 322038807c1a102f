// The anchoring page: the current roots, the anchor of the newest list
// version on chain (transaction, block, the confirmations it waits for,
// errors) and the oracle's state.

import { call, message } from './api.js';
import { $, el, facts, show, fmtInt, fmtTime } from './dom.js';

const mono = (s) => (s ? el('span', { class: 'mono', text: s }) : null);

const anchorMeaning = {
  disabled: 'Anchoring is off: the server has no chain configured.',
  pending: 'Recorded; no transaction sent yet.',
  submitted: 'Transaction broadcast; waiting for it to be mined with the required confirmations.',
  synced: 'Mined with the required confirmations: the chain holds these roots.',
  failed: 'The last attempt failed; it is retried with backoff.',
};

const oracleMeaning = {
  disabled: 'The oracle is off.',
  syncing: 'Adding and removing addresses to match the anchored version.',
  synced: 'The contract\'s isSanctioned storage matches the anchored version.',
  failed: 'The last oracle batch failed; it is retried.',
};

function status(s, meanings) {
  return el('span', {}, el('span', { class: `status status-${s}`, text: s }), ' ', meanings[s] || '');
}

// confirmations says where the anchor's transaction stands against the
// confirmations the service waits for.
function confirmations(a) {
  const need = `${a.confirmations} required`;
  if (a.status === 'synced') return `${need}, reached`;
  if (!a.blockNumber) return `${need}; not mined yet`;
  const seen = a.headBlock >= a.blockNumber ? a.headBlock - a.blockNumber + 1 : 0;
  return `${need}; mined in block ${a.blockNumber}, ${seen} so far (head ${a.headBlock || 'not read yet'})`;
}

function errorText(e) {
  return e ? el('span', { class: 'error-text', text: e }) : 'none';
}

async function load() {
  show($('anchoring-error'), '');
  try {
    const r = await call('GET', '/v1/compliance/merkle-root');
    facts($('anchoring-roots'), [
      ['List version', r.listVersion], ['Built', fmtTime(r.builtAt)],
      ['Sanctions root', mono(r.sanctionsRoot)], ['Sanctions leaves', fmtInt(r.sanctionsLeafCount)],
      ['Community root', mono(r.communityRoot)], ['Community leaves', fmtInt(r.communityLeafCount)],
      ['Exclusion root', mono(r.exclusionRoot)], ['Community exclusion root', mono(r.communityExclusionRoot)],
    ]);
    const a = r.anchor;
    facts($('anchoring-anchor'), a.status === 'disabled' ? [['Status', status(a.status, anchorMeaning)]] : [
      ['Status', status(a.status, anchorMeaning)], ['List version', a.listVersion], ['Chain id', a.chainId],
      ['Contract', mono(a.contract)], ['Transaction', mono(a.txHash)], ['Block', a.blockNumber],
      ['Confirmations', confirmations(a)],
      ['Synced', fmtTime(a.syncedAt)], ['Last error', errorText(a.error)],
    ]);
    const o = r.oracle;
    facts($('anchoring-oracle'), o.status === 'disabled' ? [['Status', status(o.status, oracleMeaning)]] : [
      ['Status', status(o.status, oracleMeaning)], ['List version', o.listVersion], ['Addresses pending', fmtInt(o.pending)],
      ['Last transaction', mono(o.txHash)], ['Last error', errorText(o.error)],
    ]);
  } catch (err) {
    show($('anchoring-error'), message(err));
  }
}

export function initAnchoring() {
  $('anchoring-refresh').addEventListener('click', load);
}

export const showAnchoring = load;
