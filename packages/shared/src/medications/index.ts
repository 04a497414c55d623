export * from './drug-classes.ts';
export * from './sig.ts';
export * from './catalogue.ts';
export * from './warnings.ts';
export * from './medication-input.ts';
