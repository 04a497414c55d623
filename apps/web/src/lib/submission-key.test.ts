import { describe, expect, it } from 'vitest';

import { SubmissionKey } from './submission-key.ts';

describe('SubmissionKey', () => {
  it('keeps its key while a submission fails and is tried again, and takes a new one after a success', async () => {
    const submission = new SubmissionKey();
    const sent: string[] = [];
    const fail = (key: string) => {
      sent.push(key);
      return Promise.reject(new Error('lost reply'));
    };
    const succeed = (key: string) => {
      sent.push(key);
      return Promise.resolve(key);
    };
    await expect(submission.send(fail)).rejects.toThrow('lost reply');
    await expect(submission.send(succeed)).resolves.toBe(sent[0]);
    await submission.send(succeed);
    expect(sent[1]).toBe(sent[0]);
    expect(sent[2]).not.toBe(sent[0]);
    // Another form has its own key.
    const other: string[] = [];
    await new SubmissionKey().send((key) => Promise.resolve(other.push(key)));
    expect(sent).not.toContain(other[0]);
  });
});
