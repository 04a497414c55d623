import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { CRISIS_LINE, EMERGENCY_LINE } from '@telehealth/shared';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

const API_ORIGIN = 'http://localhost:3000';

/** zod's global settings (read by zod at load time): interpreted parsers only (see build.rolldownOptions.output). */
const ZOD_JITLESS =
  'globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig ?? {}, { jitless: true });';

/** Puts the shared crisis and emergency numbers into index.html's <noscript> message. */
function safetyLinesInHtml(): Plugin {
  return {
    name: 'telehealth-safety-lines',
    transformIndexHtml: (html) =>
      html.replaceAll('%CRISIS_LINE%', CRISIS_LINE).replaceAll('%EMERGENCY_LINE%', EMERGENCY_LINE),
  };
}

/**
 * The server accepts WebSockets and state-changing requests only from its own origin (PUBLIC_URL, decisions 017
 * and 018): the dev server stands in for it, so a page it serves speaks as the API's origin.
 */
const proxyAsApiOrigin: ProxyOptions = {
  target: API_ORIGIN,
  configure: (proxy) => {
    proxy.on('proxyReqWs', (proxyReq) => proxyReq.setHeader('origin', API_ORIGIN));
    proxy.on('proxyReq', (proxyReq) => {
      if (proxyReq.getHeader('origin') !== undefined) proxyReq.setHeader('origin', API_ORIGIN);
    });
  },
};

export default defineConfig({
  plugins: [react(), safetyLinesInHtml()],
  server: {
    port: 5173,
    proxy: {
      '/graphql': { ...proxyAsApiOrigin, ws: true },
      '/api': { ...proxyAsApiOrigin, ws: true },
    },
  },
  preview: {
    proxy: {
      '/graphql': proxyAsApiOrigin,
      '/api': proxyAsApiOrigin,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The server's Content-Security-Policy forbids inline scripts; a data: URL for a tiny asset is still
    // a fetch, but keeping every asset a file keeps the policy simple ('self' only).
    assetsInlineLimit: 0,
    // The server reads the manifest to tell each page which route files to fetch at once (web-app.ts).
    manifest: true,
    rolldownOptions: {
      // index.html is the single-page app; site.html the public site's own small page (src/site-main.tsx).
      input: { app: path.resolve(here, 'index.html'), site: path.resolve(here, 'site.html') },
      output: {
        // zod decides once, when its first object schema is built, whether it may compile parsers with
        // `new Function`; under our CSP (no 'unsafe-eval') that try is reported as a violation. The bundler
        // puts zod in a chunk with modules that build schemas as they load, so src/lib/zod-config.ts can run
        // too late. zod reads its settings from this global: every chunk sets it before its own code runs,
        // and a chunk's dependencies run first, so the setting is there before zod is.
        banner: ZOD_JITLESS,
      },
    },
  },
});
