import type { InvitationBatch, NewInvitationBatch, Problem } from '../api/types';

/** What the batch form's fields hold, as typed. */
export interface BatchDraft {
  label: string;
  size: string;
}

export type BatchField = keyof BatchDraft;

export const emptyBatch: BatchDraft = { label: '', size: '' };

/** Message keys of the form's own checks; the API checks the same again (its largest batch may be smaller). */
export type BatchError = 'errBatchLabel' | 'errBatchSize';

export const labelMax = 100;
export const sizeMax = 100_000;

/** The request the draft stands for, or the fields that are wrong. */
export function batchRequest(draft: BatchDraft): { request: NewInvitationBatch } | { errors: Partial<Record<BatchField, BatchError>> } {
  const errors: Partial<Record<BatchField, BatchError>> = {};
  const label = draft.label.trim();
  // Control characters the API refuses too.
  if (label.length === 0 || label.length > labelMax || /[\u0000-\u001f\u007f]/.test(label)) errors.label = 'errBatchLabel';
  const size = Number(draft.size.trim());
  if (!/^[0-9]+$/.test(draft.size.trim()) || size < 1 || size > sizeMax) errors.size = 'errBatchSize';
  return Object.keys(errors).length > 0 ? { errors } : { request: { label, size } };
}

/** The API's refusal of the form's fields, one message per field it names (label, size). */
export function batchProblemErrors(problem: Problem): Partial<Record<BatchField, string>> {
  const errors: Partial<Record<BatchField, string>> = {};
  for (const field of ['label', 'size'] as const) {
    const messages = problem.errors?.[field];
    if (messages?.length) errors[field] = messages.join(' ');
  }
  return errors;
}

/**
 * The name to save the codes under: the one the API gives (Content-Disposition's filename*, else
 * filename), or invitations-{service}-{batch}.csv with the batch read from the file's first row.
 * Kept to letters, digits, dots, dashes and underscores, whatever the header says.
 */
export function csvFileName(disposition: string | null, service: string, csv: string): string {
  const given = dispositionName(disposition);
  if (given) return given;
  const batch = csv.split(/\r?\n/)[1]?.split(',')[2]?.trim();
  return safeName(batch && /^[0-9]+$/.test(batch) ? `invitations-${service}-${batch}.csv` : `invitations-${service}.csv`);
}

function dispositionName(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(disposition);
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/i.exec(disposition);
  let name = '';
  if (extended) {
    try {
      name = decodeURIComponent(extended[1].trim());
    } catch {
      name = '';
    }
  }
  if (!name && plain) name = (plain[1] ?? plain[2]).trim();
  const safe = safeName(name);
  return safe.replace(/[._-]/g, '') ? safe : null;
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
}

/** Where a batch stands: its codes admit people, all were spent, or an admin revoked it. */
export function batchState(batch: InvitationBatch): 'revoked' | 'spent' | 'in-force' {
  if (batch.revokedAt) return 'revoked';
  return batch.spent >= batch.size ? 'spent' : 'in-force';
}
