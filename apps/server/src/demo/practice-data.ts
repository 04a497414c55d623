/** Invented people for the demo practice and the benchmark seed. Any likeness to real people is chance. */
export const FIRST_NAMES = [
  'Amara',
  'Benjamin',
  'Camila',
  'Dmitri',
  'Elena',
  'Farah',
  'Gabriel',
  'Hana',
  'Isaac',
  'Jasmine',
  'Kenji',
  'Leila',
  'Marcus',
  'Nadia',
  'Oliver',
  'Priya',
  'Quentin',
  'Rosa',
  'Samuel',
  'Tamsin',
  'Umar',
  'Valeria',
  'Wesley',
  'Ximena',
  'Yusuf',
  'Zara',
  'Aiden',
  'Beatriz',
  'Cormac',
  'Delphine',
  'Emeka',
  'Freya',
  'Graham',
  'Ingrid',
  'Javier',
  'Keiko',
  'Luca',
  'Mireille',
  'Niall',
  'Odette',
] as const;

export const LAST_NAMES = [
  'Abernathy',
  'Bello',
  'Castellanos',
  'Dvorak',
  'Eriksen',
  'Fairweather',
  'Galloway',
  'Hashemi',
  'Ibarra',
  'Jablonski',
  'Kowalczyk',
  'Lindqvist',
  'Moreau',
  'Nakagawa',
  "O'Donnell",
  'Pellegrino',
  'Quintero',
  'Rasmussen',
  'Szabo',
  'Thorne',
  'Underwood',
  'Valdés',
  'Whitfield',
  'Xu',
  'Yamamoto',
  'Zielinski',
  'Achebe',
  'Brennan',
  'Carvalho',
  'Delacroix',
  'Esposito',
  'Fitzgerald',
  'Gutiérrez',
  'Holloway',
  'Iwu',
  'Jensen',
  'Kaur',
  'Lachance',
  'Mbeki',
  'Novak',
] as const;

export const CITIES = [
  ['Portland', 'OR', '97205'],
  ['Seattle', 'WA', '98101'],
  ['Boise', 'ID', '83702'],
  ['Sacramento', 'CA', '95814'],
  ['Salem', 'OR', '97301'],
  ['Tacoma', 'WA', '98402'],
] as const;

export const STREETS = [
  'Alder St',
  'Birch Ave',
  'Cedar Ln',
  'Dogwood Ct',
  'Elm St',
  'Fir Way',
  'Grove Rd',
  'Hawthorne Blvd',
] as const;
export const INSURERS = [
  'Blue Harbor Health',
  'Cascade Mutual',
  'Evergreen Care Plan',
  'Summit Health Alliance',
] as const;
export const REASONS = [
  'Persistent low mood and loss of interest for several months; referred by primary care.',
  'Difficulty concentrating at work; wants an ADHD assessment.',
  'Panic attacks twice a week; avoiding public transport.',
  'Medication review: current antidepressant causes sleep problems.',
  'Grief after a family loss; trouble sleeping and eating.',
  'Follow-up care after a hospital stay for bipolar disorder.',
] as const;
export const ALLERGIES = ['None known', 'Penicillin', 'Sulfa drugs', 'Latex', 'Peanuts', ''] as const;
export const MEDICATIONS = [
  'Sertraline 50 mg daily',
  'Bupropion XL 150 mg daily',
  'Lithium 300 mg twice daily',
  'None',
  '',
] as const;

/** A small deterministic generator, so every demo start and every benchmark seed make the same people. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  };
}

export interface GeneratedPatient {
  firstName: string;
  lastName: string;
  email: string;
  dateOfBirth: string;
  phone: string;
  street: string;
  city: string;
  state: string;
  zipCode: string;
  emergencyContactName: string;
  emergencyContactPhone: string;
  insuranceProvider: string;
  insurancePolicyNumber: string;
  reasonForCare: string;
  allergies: string | null;
  currentMedications: string | null;
  isActive: boolean;
}

export function generatePatient(random: ReturnType<typeof createRandom>, index: number): GeneratedPatient {
  const firstName = random.pick(FIRST_NAMES);
  const lastName = random.pick(LAST_NAMES);
  const [city, state, zipCode] = random.pick(CITIES);
  const year = random.int(1948, 2008);
  const month = String(random.int(1, 12)).padStart(2, '0');
  const day = String(random.int(1, 28)).padStart(2, '0');
  const phone = () => `(${random.int(200, 989)}) 555-${String(random.int(100, 9999)).padStart(4, '0')}`;
  const emailName = `${firstName}.${lastName}`
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z.]/g, '');
  return {
    firstName,
    lastName,
    email: `${emailName}${index}@example.net`,
    dateOfBirth: `${year}-${month}-${day}`,
    phone: phone(),
    street: `${random.int(10, 9999)} ${random.pick(STREETS)}`,
    city,
    state,
    zipCode,
    emergencyContactName: `${random.pick(FIRST_NAMES)} ${lastName}`,
    emergencyContactPhone: phone(),
    insuranceProvider: random.pick(INSURERS),
    insurancePolicyNumber: `POL-${String(random.int(100000, 999999))}`,
    reasonForCare: random.pick(REASONS),
    allergies: random.pick(ALLERGIES) || null,
    currentMedications: random.pick(MEDICATIONS) || null,
    isActive: random.next() > 0.1,
  };
}
