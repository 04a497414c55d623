// npm run audit:verify [-- --anchors FILE ...]: walks the audit chain, checks it against the anchors (by default
// DATA_DIR/audit-anchors.log; name other copies, one --anchors each, for instance every instance's file) and
// says how many entries are not sealed yet. Exit 0 when everything holds, 1 otherwise.
import { parseArgs } from 'node:util';
import { auditAnchorsPath, readAuditAnchors } from '../audit/audit-anchors.ts';
import { verifyAuditTrail, type AuditAnchor } from '../audit/audit-chain.ts';
import { prunedSignatureVerifier } from '../practice-data/audit-retention.ts';
import { withCliRuntime } from './cli-runtime.ts';

const { values } = parseArgs({ options: { anchors: { type: 'string', multiple: true } } });

/** Unsealed entries older than this suggest no server is sealing (the sealer runs within a second). */
const STALE_UNSEALED_MS = 60_000;

await withCliRuntime(async ({ config, database, keyring }) => {
  const files = values.anchors?.length ? values.anchors : [auditAnchorsPath(config.dataDir)];
  const anchors: AuditAnchor[] = [];
  const notes: string[] = [];
  for (const file of files) {
    const read = readAuditAnchors(file);
    if (!read) {
      notes.push(`No anchors file at ${file}: the removal of the newest entries cannot be detected from it.`);
      continue;
    }
    anchors.push(...read.anchors);
    notes.push(`${count(read.anchors.length, 'anchor')} read from ${file}.`);
    if (read.unreadable.length > 0) {
      notes.push(`  ${count(read.unreadable.length, 'line')} of it unreadable (line ${read.unreadable.join(', ')}).`);
    }
  }

  // Entries removed at the end of their retention are accepted only with a valid signature (decision 037).
  const result = await verifyAuditTrail(database.db, { anchors, prunedSignature: prunedSignatureVerifier(keyring) });
  const lines: string[] = [];
  if (result.broken) {
    const entry = result.broken.entryId === null ? '' : ` (entry id ${result.broken.entryId})`;
    lines.push(`Audit chain BROKEN at position ${result.broken.position}${entry}: ${result.broken.reason}.`);
    lines.push(`  The ${count(result.broken.position - 1, 'position')} before it verified.`);
  } else if (result.head) {
    lines.push(
      `Audit chain: ${count(result.positions, 'sealed entry', 'sealed entries')}, each linked to the one before and matching its checksum.`,
    );
  } else {
    lines.push('Audit chain: empty, nothing sealed yet.');
  }

  lines.push(...notes);
  const { checked, problems, newest } = result.anchors;
  if (problems.length > 0) {
    lines.push(`Anchors: ${problems.length} of ${checked} do NOT match the chain:`);
    for (const { anchor, reason } of problems) {
      lines.push(`  anchored ${anchor.at} at position ${anchor.position}: ${reason}.`);
    }
  } else if (newest) {
    lines.push(
      `Anchors: ${checked === 1 ? 'the one anchor matches' : `all ${count(checked, 'anchor')} match`} the chain (newest: position ${newest.position}, ${newest.at}).`,
    );
  }

  const { unsealed } = result;
  if (unsealed.stranded > 0) {
    lines.push(
      `${count(unsealed.stranded, 'unsealed entry', 'unsealed entries')} lie behind the chain's head and can never be sealed: they were inserted after their place was sealed.`,
    );
  }
  if (unsealed.count === 0) {
    lines.push('Every entry is sealed.');
  } else {
    const age = unsealed.oldest ? Date.now() - unsealed.oldest.getTime() : 0;
    lines.push(
      `${count(unsealed.count, 'entry', 'entries')} not sealed yet (the oldest written ${formatAge(age)} ago).` +
        (age > STALE_UNSEALED_MS
          ? ' The server seals entries within about a second: is it running, and is a transaction holding it back?'
          : ''),
    );
  }
  lines.push(result.ok ? 'Audit trail verified.' : 'Audit trail does NOT verify: see above.');

  (result.ok ? console.log : console.error)(lines.join('\n'));
  return result.ok ? 0 : 1;
});

function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

function formatAge(ms: number): string {
  if (ms < 1000) return `${Math.max(0, ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}
