import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import { IntakeScreen } from './intake-screen.tsx';

const PATIENT_ID = '33333333-3333-4333-8333-333333333333';
const STEPS = ['details', 'insurance', 'medications', 'questionnaires'];

function intakeOf(fields: Record<string, unknown> = {}) {
  return {
    id: 'i1',
    patientId: PATIENT_ID,
    status: 'in-progress',
    steps: STEPS,
    currentSection: 'details',
    answers: '{}',
    recordDetails: [
      { field: 'firstName', value: 'Tomas' },
      { field: 'lastName', value: 'Stepper' },
      { field: 'dateOfBirth', value: '1985-04-12' },
    ],
    detailChanges: [],
    cardPhotos: [],
    submittedAt: null,
    acceptedAt: null,
    returnedAt: null,
    returnReason: null,
    ...fields,
  };
}

function render(handlers: Parameters<typeof mockGraphQL>[0]) {
  const graphql = mockGraphQL(handlers);
  renderRoutes(
    [{ path: '/my/intake', element: <IntakeScreen questionnaires={<p>Questionnaires here</p>} /> }],
    '/my/intake',
  );
  return graphql;
}

describe('IntakeScreen', () => {
  it('starts from the record, saves each step as the patient goes on, and says which step of how many', async () => {
    const graphql = render({
      MyIntake: () => ({ myIntake: intakeOf() }),
      SaveIntakeSection: ({ input }) => {
        const { section, answers, nextSection } = input as { section: string; answers: string; nextSection: string };
        return {
          saveIntakeSection: intakeOf({
            currentSection: nextSection,
            answers: JSON.stringify({ [section]: JSON.parse(answers) as unknown }),
          }),
        };
      },
    });
    expect((await screen.findByTestId('intake-step')).textContent).toBe('Step 1 of 4');
    expect(screen.getByRole('textbox', { name: /First name/ })).toHaveValue('Tomas');
    fireEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    await waitFor(() => expect(screen.getByTestId('intake-step').textContent).toBe('Step 2 of 4'));
    const save = graphql.calls.find((call) => call.operationName === 'SaveIntakeSection');
    expect(save?.variables).toMatchObject({
      input: { patientId: PATIENT_ID, section: 'details', nextSection: 'insurance' },
    });
    expect(JSON.parse((save?.variables as { input: { answers: string } }).input.answers)).toMatchObject({
      firstName: 'Tomas',
      lastName: 'Stepper',
    });
  }, 30_000);

  it('saves the step when the patient goes back, and comes back to the step before', async () => {
    const graphql = render({
      MyIntake: () => ({ myIntake: intakeOf({ currentSection: 'insurance' }) }),
      SaveIntakeSection: ({ input }) => {
        const { nextSection } = input as { nextSection: string };
        return { saveIntakeSection: intakeOf({ currentSection: nextSection }) };
      },
    });
    expect((await screen.findByTestId('intake-step')).textContent).toBe('Step 2 of 4');
    fireEvent.change(screen.getByRole('textbox', { name: /Insurance company/ }), { target: { value: 'Acme Health' } });
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(screen.getByTestId('intake-step').textContent).toBe('Step 1 of 4'));
    const save = graphql.calls.find((call) => call.operationName === 'SaveIntakeSection');
    expect(save?.variables).toMatchObject({ input: { section: 'insurance', nextSection: 'details' } });
    expect(JSON.parse((save?.variables as { input: { answers: string } }).input.answers)).toMatchObject({
      company: 'Acme Health',
    });
  }, 30_000);

  it('comes back where the patient left off, and keeps a list item without a name from being saved', async () => {
    const graphql = render({ MyIntake: () => ({ myIntake: intakeOf({ currentSection: 'medications' }) }) });
    expect((await screen.findByTestId('intake-step')).textContent).toBe('Step 3 of 4');
    fireEvent.click(screen.getByRole('button', { name: 'Add a medication' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save and finish later' }));
    await screen.findByText('Please enter the name of the medication');
    expect(graphql.calls.some((call) => call.operationName === 'SaveIntakeSection')).toBe(false);
  }, 30_000);

  it('says the intake was sent once it is submitted', async () => {
    render({ MyIntake: () => ({ myIntake: intakeOf({ status: 'submitted' }) }) });
    await screen.findByText(/Your intake was sent to your provider/);
    expect(screen.queryByTestId('intake-step')).toBeNull();
  });
});
