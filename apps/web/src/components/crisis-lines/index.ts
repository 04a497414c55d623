export { CrisisLines } from './crisis-lines.tsx';
