// Runs before each server test file (vitest's setupFiles): registered first, this hook runs after the file's own.
import { afterAll } from 'vitest';
import { runFileCleanups } from './file-cleanup.ts';

afterAll(runFileCleanups);
