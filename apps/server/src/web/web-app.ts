import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

import fastifyStatic from '@fastify/static';
import { ACCESS_REQUEST_PATHS, PAGE_BOOTSTRAP_META, SIGN_IN_PATH, type PageBootstrap } from '@telehealth/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { publicAppConfig } from '../app-config.ts';
import type { Config } from '../config.ts';
import { logRefusal, notFoundRequest, requestErrorBody, requestErrorFrom } from '../http/request-errors.ts';
// Text and attribute values are escaped by the HTML entities library, each for its place in the markup.
import { escapeAttribute, escapeText } from 'entities';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * The public site's pages: a small page of their own (site.html: no router, no component library, no query
 * cache), so a visitor's first page, and the sign-in page everyone passes through, load fast. Every other path
 * is the single-page app (index.html). Decisions 012 and 013.
 */
/** The sign-in page and the request forms, each at its own address (decision 048): one page, one module. */
const SIGN_IN_PAGES: readonly string[] = [SIGN_IN_PATH, ACCESS_REQUEST_PATHS.provider, ACCESS_REQUEST_PATHS.patient];

export const SITE_PAGES: ReadonlySet<string> = new Set(['/', '/home', '/coming-soon', ...SIGN_IN_PAGES]);

/** Pages only for people who are not signed in: a live session goes to the dashboard instead. */
const SIGNED_OUT_PAGES: ReadonlySet<string> = new Set(['/', ...SIGN_IN_PAGES]);

/** The account pages reached from an e-mail (the single-page app's `account-setup` route module). */
const ACCOUNT_PAGES: ReadonlySet<string> = new Set(['/invite', '/forgot-password', '/reset-password']);

/** The module a site page loads on its own (src/site-main.tsx), beyond the site's entry. */
const SITE_PAGE_MODULES: Readonly<Record<string, string[]>> = {
  [SIGN_IN_PATH]: ['src/site-login.tsx'],
  // A form's own address shows the form at once: its module (Mantine, the form) is asked for with the page.
  [ACCESS_REQUEST_PATHS.provider]: ['src/site-login.tsx', 'src/features/auth/components/access-request-host.tsx'],
  [ACCESS_REQUEST_PATHS.patient]: ['src/site-login.tsx', 'src/features/auth/components/access-request-host.tsx'],
};

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/**
 * The module a page will load first after its entry, so the page can ask for it at once instead of after its
 * first script has run: the sign-in page's on the site; in the single-page app, an account page signed out
 * (any other path then leads to the sign-in page), the app's frame signed in.
 */
function firstModules(pathname: string, signedIn: boolean | null): string[] {
  if (SITE_PAGES.has(pathname)) return SITE_PAGE_MODULES[pathname] ?? [];
  if (signedIn === false) return ACCOUNT_PAGES.has(pathname) ? ['src/app/routes/account-setup.tsx'] : [];
  if (signedIn === null) return [];
  return ['src/app/routes/app-layout.tsx', ...(pathname === '/dashboard' ? ['src/app/routes/dashboard.tsx'] : [])];
}

/** The files of `keys` and of everything they import statically: scripts and stylesheets. */
function chunkFiles(manifest: Manifest, keys: string[]): { scripts: string[]; styles: string[] } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return { scripts: [...scripts], styles: [...styles] };
}

/** Re-read only when the build changed, so a rebuild is served without a restart. */
class BuildFileCache<T> {
  #cache = new Map<string, { mtimeMs: number; value: T }>();
  readonly #parse: (text: string) => T;

  constructor(parse: (text: string) => T) {
    this.#parse = parse;
  }

  async get(file: string): Promise<T | null> {
    let mtimeMs: number;
    try {
      mtimeMs = (await fs.promises.stat(file)).mtimeMs;
    } catch {
      return null;
    }
    const cached = this.#cache.get(file);
    if (cached?.mtimeMs === mtimeMs) return cached.value;
    const value = this.#parse(await fs.promises.readFile(file, 'utf8'));
    this.#cache.set(file, { mtimeMs, value });
    return value;
  }
}

/** The placeholder element of the templates (apps/web/index.html and site.html). */
const BOOTSTRAP_META_ELEMENT = new RegExp(`<meta name="${PAGE_BOOTSTRAP_META}"[^>]*>`);

export interface PageInput {
  template: string;
  bootstrap: PageBootstrap;
  preload: { scripts: string[]; styles: string[] };
}

/** The HTML of one page: its bootstrap, the practice's name as title and the first route's files to fetch. */
export function renderPage({ template, bootstrap, preload }: PageInput): string {
  // Files the page already names (its entry's own imports) need no second mention.
  const links = [
    ...preload.scripts
      .filter((file) => !template.includes(file))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${escapeAttribute(file)}">`),
    ...preload.styles
      .filter((file) => !template.includes(file))
      .map((file) => `<link rel="preload" as="style" crossorigin href="/${escapeAttribute(file)}">`),
  ];
  const meta = `<meta name="${PAGE_BOOTSTRAP_META}" content="${escapeAttribute(JSON.stringify(bootstrap))}">`;
  return template
    .replace(BOOTSTRAP_META_ELEMENT, () => meta)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeText(bootstrap.config.practiceName)}</title>`)
    .replace('</head>', () => `${links.join('')}</head>`);
}

/** Serves the built web app: hashed assets from disk, and each page's HTML with its bootstrap written in. */
export async function registerWebApp(app: FastifyInstance, deps: { config: Config }): Promise<void> {
  const distDir = deps.config.webDistDir;
  const hasBuild = fs.existsSync(path.join(distDir, 'index.html'));
  if (hasBuild) {
    // In a scope of its own, for its error handler: `send` refuses a path that leaves the folder (`/..%2f..%2f`),
    // holds a NUL or is otherwise not a file name with a 4xx error; for the caller that file does not exist.
    await app.register(async (scope) => {
      scope.setErrorHandler(async (error, request, reply) => {
        // A fault of the server (a disk error) goes on to the app's handler: logged in full, answered 500.
        if (!requestErrorFrom(error, app.initialConfig.bodyLimit ?? 1_048_576)) throw error;
        const refused = notFoundRequest();
        logRefusal(request.log, refused);
        return reply.code(404).send(requestErrorBody(refused));
      });
      await registerStaticFiles(scope, distDir);
    });
  }

  const templates = new BuildFileCache((text) => text);
  const manifests = new BuildFileCache((text) => JSON.parse(text) as Manifest);

  /**
   * Through the session plugin, like every other route (a page load is activity: it slides the deadline and
   * refreshes the cookie). Null when the session store cannot be asked: the page then asks itself.
   */
  const isSignedIn = async (request: FastifyRequest, reply: FastifyReply): Promise<boolean | null> => {
    try {
      return (await app.loadSession(request, reply)) !== null;
    } catch (error) {
      request.log.warn({ err: error }, 'session check for a page failed');
      return null;
    }
  };

  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!hasBuild)
      return reply.code(503).type('text/plain').send('The web app is not built. Run `npm run build` first.');
    const pathname = request.url.split('?')[0] ?? '/';
    const signedIn = await isSignedIn(request, reply);
    if (signedIn === true && SIGNED_OUT_PAGES.has(pathname)) return reply.redirect('/dashboard', 302);

    const sitePage = SITE_PAGES.has(pathname) ? await templates.get(path.join(distDir, 'site.html')) : null;
    const template = sitePage ?? (await templates.get(path.join(distDir, 'index.html')));
    if (template === null) return reply.code(503).type('text/plain').send('The web app is being rebuilt.');
    const modules = firstModules(pathname, signedIn);
    const manifest = modules.length > 0 ? await manifests.get(path.join(distDir, '.vite/manifest.json')) : null;
    const html = renderPage({
      template,
      // Per page: the practice's settings may have changed since the server started (decision 032).
      bootstrap: { config: publicAppConfig(deps.config), signedIn },
      preload: manifest ? chunkFiles(manifest, modules) : { scripts: [], styles: [] },
    });

    // Says whether this browser is signed in: no shared cache may keep it, and the browser must ask again.
    void reply.header('cache-control', 'private, no-cache').type('text/html; charset=utf-8');
    const accepted = request.headers['accept-encoding'] ?? '';
    if (/\bbr\b/.test(accepted)) {
      return (
        reply
          .header('content-encoding', 'br')
          .header('vary', 'accept-encoding')
          // A few kilobytes, compressed per request: a middle quality is as small and much quicker than 11.
          .send(await brotli(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }))
      );
    }
    if (/\bgzip\b/.test(accepted)) {
      return reply
        .header('content-encoding', 'gzip')
        .header('vary', 'accept-encoding')
        .send(await gzip(html));
    }
    return reply.header('vary', 'accept-encoding').send(html);
  };

  app.get('/', sendPage);
  app.setNotFoundHandler(async (request, reply) => {
    // An upgrade to a path without a WebSocket is refused, not answered with a page.
    const isApi = request.url.startsWith('/api/') || request.url.startsWith('/graphql') || request.ws;
    // A missing script must not be answered with HTML: a browser with an old page would fail obscurely.
    const isAsset = request.url.startsWith('/assets/');
    if (isApi || isAsset || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.code(404).send(requestErrorBody(notFoundRequest()));
    }
    return sendPage(request, reply);
  });
}

/** The built files, from disk: hashed assets cached for a year, every other file asked for again. */
async function registerStaticFiles(scope: FastifyInstance, distDir: string): Promise<void> {
  await scope.register(fastifyStatic, {
    root: distDir,
    // Looked up at request time, so a rebuild is served without a restart; misses fall to the not-found handler.
    wildcard: true,
    index: false,
    // The pages are templates (filled in below) and the manifest is for the server: neither is served raw.
    allowedPath: (pathname) => !pathname.endsWith('.html') && !pathname.startsWith('/.vite/'),
    // Our own Cache-Control below; the plugin's would answer max-age=0 for everything.
    cacheControl: false,
    // The build writes .br and .gz beside each text file (apps/web/scripts/precompress.ts).
    preCompressed: true,
    setHeaders: (res, file) => {
      // Hashed asset names never change content; anything else must be asked for again.
      res.setHeader(
        'cache-control',
        file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
}
