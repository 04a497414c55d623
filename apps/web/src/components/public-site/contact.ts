/**
 * The practice's public contact address for the beta and contact sections. Set VITE_CONTACT_EMAIL at build
 * time; the server's appConfig does not carry one yet.
 */
export const CONTACT_EMAIL: string =
  (import.meta.env['VITE_CONTACT_EMAIL'] as string | undefined) ?? 'contact@example.com';
