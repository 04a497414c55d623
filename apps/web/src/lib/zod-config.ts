import { z } from 'zod';

// zod compiles object parsers with `new Function` when it may; it finds out by trying once, and under our
// Content-Security-Policy (no 'unsafe-eval') the browser reports that try as a policy violation. The browser
// parses small objects: the interpreted parser is fast enough. Imported first by src/main.tsx, before any
// schema is built (the check runs when the first object schema is created).
z.config({ jitless: true });
