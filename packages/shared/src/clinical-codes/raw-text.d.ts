// Vite and vitest import a text file's content with '?raw' (the test reads the code-list source excerpt this way,
// as the shared package has no Node types).
declare module '*.txt?raw' {
  const text: string;
  export default text;
}
