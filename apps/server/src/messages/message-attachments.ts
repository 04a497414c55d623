import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { attachmentFileName, AttachmentUploadSchema, MESSAGE_PENDING_ATTACHMENTS_MAX } from '@telehealth/shared';
import { scopeOf } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import type { Database } from '../db/client.ts';
import { badUserInput, parseInput } from '../errors.ts';
import type { SealedBlobs } from '../blobs/sealed-blobs.ts';
import { checkUpload, type DownloadableFile } from '../http/encrypted-files.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { ConversationAccess } from './conversation-access.ts';
import {
  attachmentDataContext,
  attachmentKind,
  countPendingAttachments,
  deleteUnsentAttachments,
  findAttachment,
  insertAttachment,
} from './message-attachments.repository.ts';
import type { AttachmentInfo } from './messages.repository.ts';

/** Attachments never sent are deleted after this long. */
const UNSENT_ATTACHMENT_HOURS = 24;
/** The pruning deletes this many rows a transaction, then their blobs. */
const PRUNE_BATCH = 500;

/**
 * The files of secure messages (decision 029): an upload kept encrypted until a message carries it (its type decided
 * by its content), its download by the participants of its conversation (and its uploader before it is sent), and
 * the `message-attachments:prune` job that deletes those never sent. Built by MessagesService, which passes its
 * calls through (the upload and download routes are `messages.routes.ts`).
 */
export class MessageAttachments {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #access: ConversationAccess;
  readonly #blobs: SealedBlobs;

  constructor(options: { db: Database; keyring: Keyring; access: ConversationAccess; blobs: SealedBlobs }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#access = options.access;
    this.#blobs = options.blobs;
  }

  /**
   * Keeps an uploaded file, sealed in the blob store, until it is sent with a message (or deleted unsent after a
   * day). Its type is the one its content shows (PDF, PNG, JPEG), whatever its name says; anything else is refused.
   * The body streams into the store; the row is written once the file is whole, and a refusal or a failed row
   * leaves no blob.
   */
  async upload(caller: Caller, file: { body: Readable; fileName: string }): Promise<AttachmentInfo> {
    await this.#access.sendReach(caller);
    // The name under the one text rule first (decision 022): refused with its field's message, never cleaned.
    const { fileName } = parseInput(AttachmentUploadSchema, { fileName: file.fileName });
    // Unsent files are kept a day: a cap keeps one person from filling the store with them meanwhile.
    if ((await countPendingAttachments(this.#db, caller.user.id)) >= MESSAGE_PENDING_ATTACHMENTS_MAX) {
      throw badUserInput('secureMessageMessages.attachmentsPending');
    }
    const id = randomUUID();
    const checked = checkUpload(file.body);
    const written = await this.#blobs.write(checked, attachmentDataContext(id));
    // Known once the file passed its checks (the write failed otherwise).
    const mediaType = checked.mediaType!;
    try {
      return await this.#db.transaction(async (tx) => {
        const attachment = await insertAttachment(tx, this.#keyring, {
          id,
          uploadedBy: caller.user.id,
          fileName: attachmentFileName(fileName, mediaType),
          mediaType,
          file: written,
        });
        await scopeOf(this.#db, caller).audit(tx, 'MESSAGE_ATTACHMENT_UPLOAD', {
          attachmentId: attachment.id,
          mediaType,
          sizeBytes: attachment.sizeBytes,
          // Not yet sent: about no patient until a message carries it.
          patientIds: [],
        });
        return attachment;
      });
    } catch (error) {
      await this.#blobs.remove(written);
      throw error;
    }
  }

  /**
   * An attachment, to send whole or by byte ranges, for the participants of its conversation (and its uploader
   * before it is sent). Out of reach it answers like a missing one; the attempt on an existing one is recorded with
   * its conversation's kind.
   */
  async download(caller: Caller, id: string): Promise<AttachmentInfo & DownloadableFile> {
    const scope = scopeOf(this.#db, caller);
    const reach = await this.#access.reach(caller);
    const found = await scope.find('message:read', id, {
      read: (db) => findAttachment(db, this.#keyring, id, reach, caller.user.id),
      exists: (db) => attachmentKind(db, id),
      missing: 'secureMessageMessages.attachmentNotFound',
      denial: (existing) => ({ attachmentIds: [id], kind: existing.kind }),
    });
    const { stored, ...info } = found.file;
    const open = this.#blobs.openerOf(stored, attachmentDataContext(id));
    await scope.audit(this.#db, 'MESSAGE_ATTACHMENT_DOWNLOAD', {
      attachmentId: id,
      conversationId: found.conversationId,
      patientIds: found.patientId ? [found.patientId] : [],
    });
    return { ...info, open };
  }

  /**
   * `message-attachments:prune`: deletes the attachments uploaded but never sent, a batch of rows at a time, then
   * their blobs (after the rows' delete committed: a crash between leaves a blob no row names, never a row without
   * its file).
   */
  async pruneUnsent(): Promise<number> {
    const before = new Date(Date.now() - UNSENT_ATTACHMENT_HOURS * 3_600_000);
    let deleted = 0;
    for (;;) {
      const rows = await deleteUnsentAttachments(this.#db, before, PRUNE_BATCH);
      for (const { blobKey } of rows) if (blobKey) await this.#blobs.remove({ blobKey });
      deleted += rows.length;
      if (rows.length < PRUNE_BATCH) return deleted;
    }
  }
}
