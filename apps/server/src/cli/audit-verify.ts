// npm run audit:verify [-- --anchors FILE ...] [-- --without-anchors]: walks the audit chain, checks it against
// the anchors (by default DATA_DIR/audit-anchors.log; name other copies, one --anchors each, for instance every
// instance's file) and says how many entries are not sealed yet. Exit 0 when everything holds, 1 otherwise. Once
// the database shows the chain was anchored, an anchors file that is not there fails the check (saying where it
// looked and where the server wrote); --without-anchors verifies the chain alone and says so.
import { parseArgs } from 'node:util';
import { auditAnchorsPath, readAnchorFileRecords, readAuditAnchors } from '../audit/audit-anchors.ts';
import { verifyAuditTrail, type AuditAnchor } from '../audit/audit-chain.ts';
import { prunedSignatureVerifier } from '../practice-data/audit-retention.ts';
import { withCliRuntime } from './cli-runtime.ts';

const { values } = parseArgs({
  options: { anchors: { type: 'string', multiple: true }, 'without-anchors': { type: 'boolean', default: false } },
});

/** Unsealed entries older than this suggest no server is sealing (the sealer runs within a second). */
const STALE_UNSEALED_MS = 60_000;

await withCliRuntime(async ({ config, database, keyring }) => {
  const withoutAnchors = values['without-anchors'];
  if (withoutAnchors && values.anchors?.length) {
    console.error('Give either --anchors FILE or --without-anchors, not both.');
    return 2;
  }
  const files = withoutAnchors ? [] : values.anchors?.length ? values.anchors : [auditAnchorsPath(config.dataDir)];
  // Read before the files: a server writes its file first, then this record, so no record is newer than its file.
  const anchoredTo = withoutAnchors ? [] : await readAnchorFileRecords(database.db);
  const anchors: AuditAnchor[] = [];
  const notes: string[] = [];
  const missing: string[] = [];
  if (withoutAnchors) {
    notes.push(
      'Anchors NOT checked (--without-anchors): the chain is checked by itself, so the removal of the newest entries, or a chain rewritten and recomputed after a change, cannot be detected.',
    );
  }
  for (const file of files) {
    const read = readAuditAnchors(file);
    if (!read || (read.anchors.length === 0 && anchoredTo.length > 0)) {
      if (anchoredTo.length > 0) {
        missing.push(file);
        notes.push(`No anchors file at ${file}${read ? ' (the file holds no anchor)' : ''}.`);
      } else {
        notes.push(
          `No anchors file at ${file}: the database shows no anchor written yet (a server anchors the chain within a minute of its first entries).`,
        );
      }
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
  if (missing.length > 0) {
    lines.push('The database shows the chain was anchored, to:');
    for (const record of anchoredTo.slice(0, 10)) {
      lines.push(
        `  ${record.file} on ${record.host} (newest anchor: position ${record.position}, ${record.anchoredAt.toISOString()})`,
      );
    }
    lines.push(
      '  Run with the DATA_DIR of a server that anchors, or name a copy with --anchors FILE; --without-anchors verifies the chain alone.',
    );
  }
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
  const ok = result.ok && missing.length === 0;
  if (!ok) lines.push('Audit trail does NOT verify: see above.');
  else if (withoutAnchors) lines.push('Audit trail verified without its anchors (a weaker check: see above).');
  else lines.push('Audit trail verified.');

  (ok ? console.log : console.error)(lines.join('\n'));
  return ok ? 0 : 1;
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
