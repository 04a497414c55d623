import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BILLING_MESSAGES } from '@telehealth/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import { BillingDocuments } from './billing-documents.tsx';

const PATIENT_ID = '11111111-1111-4111-8111-111111111111';
const PROVIDER = { userId: 'u1', email: 'provider@demo.test', name: 'Dr. Provider', role: 'provider', source: 'local' };

let clicked: string[];
let requested: string[];

/** The GraphQL mock, with the billing downloads answered beside it: a PDF, or `refusal` as the server words it. */
function render(options: { role?: string; refusal?: { status: number; messageId: string; message: string } } = {}) {
  const graphql = mockGraphQL({
    CurrentUser: () => ({ me: { ...PROVIDER, role: options.role ?? 'provider' } }),
    SendBillingStatement: () => ({ sendBillingStatement: true }),
  });
  const answerGraphQL = graphql.fetchMock;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      const address = typeof url === 'string' ? url : url instanceof URL ? url.href : url.url;
      if (!address.startsWith('/api/billing/')) return answerGraphQL(url, init);
      requested.push(address);
      if (options.refusal)
        return new Response(
          JSON.stringify({
            errors: [
              {
                message: options.refusal.message,
                extensions: { code: 'BAD_USER_INPUT', messageId: options.refusal.messageId, params: {} },
              },
            ],
          }),
          { status: options.refusal.status, headers: { 'content-type': 'application/json' } },
        );
      const name = address.includes('statement')
        ? 'statement-2026-11-28.pdf'
        : 'superbill-2026-10-01-to-2026-10-31.pdf';
      return new Response(new Blob(['%PDF-1.4'], { type: 'application/pdf' }), {
        status: 200,
        headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${name}"` },
      });
    }),
  );
  renderRoutes([{ path: '/', element: <BillingDocuments patientId={PATIENT_ID} /> }], '/');
  return graphql;
}

beforeEach(() => {
  clicked = [];
  requested = [];
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:test', revokeObjectURL: () => undefined }));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this.download);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('BillingDocuments', () => {
  it('downloads the statement under the server’s file name, with only the patient’s id in the address', async () => {
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByRole('button', { name: 'Download statement' }));
    await waitFor(() => expect(clicked).toEqual(['statement-2026-11-28.pdf']));
    expect(requested).toEqual([`/api/billing/statement?patientId=${PATIENT_ID}&language=en`]);
  });

  it('checks the range before asking, then downloads the range’s superbill', async () => {
    const user = userEvent.setup();
    render();
    await user.type(await screen.findByLabelText('From'), '2026-10-31');
    await user.type(screen.getByLabelText('To'), '2026-10-01');
    await user.click(screen.getByRole('button', { name: 'Download superbill for these dates' }));
    expect(await screen.findByText(BILLING_MESSAGES.rangeInvalid)).toBeInTheDocument();
    expect(requested).toEqual([]);
    await user.clear(screen.getByLabelText('From'));
    await user.type(screen.getByLabelText('From'), '2026-10-01');
    await user.clear(screen.getByLabelText('To'));
    await user.type(screen.getByLabelText('To'), '2026-10-31');
    await user.click(screen.getByRole('button', { name: 'Download superbill for these dates' }));
    await waitFor(() => expect(clicked).toEqual(['superbill-2026-10-01-to-2026-10-31.pdf']));
    expect(requested).toEqual([`/api/billing/superbill?patientId=${PATIENT_ID}&from=2026-10-01&to=2026-10-31`]);
  });

  it('says the server’s refusal in words', async () => {
    const user = userEvent.setup();
    render({
      refusal: {
        status: 400,
        messageId: 'billingMessages.identityMissing',
        message: BILLING_MESSAGES.identityMissing,
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Download statement' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(BILLING_MESSAGES.identityMissing);
    expect(clicked).toEqual([]);
  });

  it('sends the statement e-mail for staff who bill', async () => {
    const user = userEvent.setup();
    const graphql = render();
    await user.click(await screen.findByRole('button', { name: 'Send statement' }));
    expect(await screen.findByRole('status')).toHaveTextContent('The patient was e-mailed that a statement is ready.');
    expect(graphql.calls.find((c) => c.operationName === 'SendBillingStatement')?.variables).toEqual({
      patientId: PATIENT_ID,
    });
  });

  it('hides Send statement from a reader who may not bill', async () => {
    render({ role: 'patient' });
    expect(await screen.findByRole('button', { name: 'Download statement' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Send statement' })).not.toBeInTheDocument());
  });
});
