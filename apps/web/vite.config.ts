import { CRISIS_LINE, EMERGENCY_LINE } from '@telehealth/shared';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const API_ORIGIN = 'http://localhost:3000';

/** Puts the shared crisis and emergency numbers into index.html's <noscript> message. */
function safetyLinesInHtml(): Plugin {
  return {
    name: 'telehealth-safety-lines',
    transformIndexHtml: (html) =>
      html.replaceAll('%CRISIS_LINE%', CRISIS_LINE).replaceAll('%EMERGENCY_LINE%', EMERGENCY_LINE),
  };
}

export default defineConfig({
  plugins: [react(), safetyLinesInHtml()],
  server: {
    port: 5173,
    proxy: {
      '/graphql': { target: API_ORIGIN, ws: true },
      '/api': { target: API_ORIGIN, ws: true },
    },
  },
  preview: {
    proxy: {
      '/graphql': { target: API_ORIGIN },
      '/api': { target: API_ORIGIN },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The server's Content-Security-Policy forbids inline scripts; a data: URL for a tiny asset is still
    // a fetch, but keeping every asset a file keeps the policy simple ('self' only).
    assetsInlineLimit: 0,
  },
});
