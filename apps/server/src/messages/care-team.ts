/*
 * Who is on a patient's care team: the providers who may see the patient. The queries live in the patients
 * repository (decision 060), which answers for the care team's one definition; secure messages ask it here
 * (decision 029).
 */
export { findCareTeam as careTeamOf, onCareTeamOf } from '../patients/patients.repository.ts';
