import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { desc } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { auditAnchorFiles } from './audit.table.ts';
import { readChainHead, type AuditAnchor } from './audit-chain.ts';

// Anchors keep the chain's head outside the database: someone able to rewrite the database can remove the
// newest entries (and their positions) and leave a shorter chain that verifies by itself; an anchor written
// earlier names a position, or a checksum, that the chain then no longer has (decision 015).

export const AUDIT_ANCHORS_FILE = 'audit-anchors.log';

export function auditAnchorsPath(dataDir: string): string {
  return path.join(dataDir, AUDIT_ANCHORS_FILE);
}

type Log = { info: (obj: object, msg: string) => void };

/**
 * Appends the chain's head to the anchors file (created 0600, flushed to disk before this returns) and writes
 * it to the server log. Nothing is written while the head is the one anchored last, or the chain is empty.
 */
export async function anchorAuditChain(
  executor: Executor,
  options: { file: string; log: Log; now?: Date },
): Promise<AuditAnchor | null> {
  const head = await readChainHead(executor);
  if (!head) return null;
  const last = readLastAnchor(options.file);
  if (last && last.position === head.position && last.checksum === head.checksum) return null;
  const anchor: AuditAnchor = {
    position: head.position,
    checksum: head.checksum,
    at: (options.now ?? new Date()).toISOString(),
  };
  const created = !fs.existsSync(options.file);
  fs.mkdirSync(path.dirname(options.file), { recursive: true, mode: 0o700 });
  const handle = await fs.promises.open(options.file, 'a', 0o600);
  try {
    // One write of a short line to a file opened for appending: whole, even with two writers.
    await handle.write(`${JSON.stringify(anchor)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (created) await syncDirectory(path.dirname(options.file));
  // After the file holds it: the database then never names an anchor the file lacks.
  const file = path.resolve(options.file);
  const row = { host: os.hostname(), position: anchor.position, anchoredAt: new Date(anchor.at) };
  await executor
    .insert(auditAnchorFiles)
    .values({ file, ...row })
    .onConflictDoUpdate({ target: auditAnchorFiles.file, set: row });
  // The figures in the message too, so that a log that keeps only messages keeps the anchor.
  options.log.info(
    { auditAnchor: anchor },
    `audit chain anchored: position ${anchor.position}, checksum ${anchor.checksum}, at ${anchor.at}`,
  );
  return anchor;
}

export interface AnchorsFile {
  anchors: AuditAnchor[];
  /** Line numbers that are not an anchor (a line cut short by a crash, or an edit). */
  unreadable: number[];
}

/** The anchors in a file, or null when there is no such file. */
export function readAuditAnchors(file: string): AnchorsFile | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const anchors: AuditAnchor[] = [];
  const unreadable: number[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const anchor = parseAnchor(line);
    if (anchor) anchors.push(anchor);
    else unreadable.push(index + 1);
  });
  return { anchors, unreadable };
}

function parseAnchor(line: string): AuditAnchor | null {
  try {
    const value = JSON.parse(line) as Partial<AuditAnchor>;
    if (
      Number.isSafeInteger(value.position) &&
      (value.position ?? 0) > 0 &&
      typeof value.checksum === 'string' &&
      /^[0-9a-f]{64}$/.test(value.checksum) &&
      typeof value.at === 'string'
    ) {
      return { position: value.position!, checksum: value.checksum, at: value.at };
    }
  } catch {
    // Not JSON: reported by the caller as unreadable.
  }
  return null;
}

/** The file's last anchor, from its tail only (the file grows by a line whenever the head moved). */
export function readLastAnchor(file: string): AuditAnchor | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const size = fs.fstatSync(fd).size;
    const length = Math.min(size, 4096);
    const buffer = Buffer.alloc(length);
    fs.readSync(fd, buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').split('\n').reverse();
    for (const line of lines) {
      const anchor = line.trim() ? parseAnchor(line) : null;
      if (anchor) return anchor;
    }
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/** A new file's directory entry reaches the disk only when the directory itself is flushed. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Where a server anchored the chain, as the database remembers it. */
export interface AnchorFileRecord {
  file: string;
  host: string;
  position: number;
  anchoredAt: Date;
}

/** Every anchors file the chain was anchored to, the most recently written first (none: never anchored). */
export function readAnchorFileRecords(executor: Executor): Promise<AnchorFileRecord[]> {
  return executor
    .select({
      file: auditAnchorFiles.file,
      host: auditAnchorFiles.host,
      position: auditAnchorFiles.position,
      anchoredAt: auditAnchorFiles.anchoredAt,
    })
    .from(auditAnchorFiles)
    .orderBy(desc(auditAnchorFiles.anchoredAt));
}
