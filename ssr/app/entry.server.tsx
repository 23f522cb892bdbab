import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import { ServerRouter, type EntryContext } from "react-router";
import { log, errorMessage } from "./lib/log.server";
import { NonceProvider, requestNonce } from "~/lib/nonce";
import { CriticalCssProvider, ServerSeoProvider } from "~/lib/critical-css";
import { CriticalCssCut } from "~/lib/critical-css.server";
import { DeferredScriptsProvider } from "~/lib/deferred-scripts";
import { deferredScriptsServer, serverMarkupOnly } from "~/lib/deferred-scripts.server";
import criticalCss from "./critical.css?inline";
import { setRoute } from "./lib/renderer-server.server";
import { pageContent } from "./lib/content.server";
import { publicUrl, seoHead } from "./lib/seo.server";

// ssr/server.js takes its logger, request middleware, metrics listener and the edge's card drawing from here.
export { log, serveMetrics, withRequest, CARD_PATH, cardEndpoint } from "./lib/renderer-server.server";
// scripts/og-images.mjs draws a preview image for each of these pages after the build, with the one card drawing.
export { seoPages, imageAlt, showsSection, articleImageKey } from "./lib/seo.server";
export { drawCard } from "./lib/og-card.server";

/** Errors React Router catches in loaders, actions and rendering, as structured log lines (not for aborted requests). */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (!request.signal.aborted) log.error({ err: error }, `${request.method} ${new URL(request.url).pathname}: ${errorMessage(error)}`);
}

/** Deferred loader data that has not settled after this long is rejected. */
export const streamTimeout = 5_000;

/**
 * Browsers get the shell as soon as it is ready and the deferred parts
 * streamed after it; crawlers (isbot) get the whole document at once.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  setRoute(routerContext.staticHandlerContext.matches.at(-1)?.route.id);
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // The edge's page cache asks for the whole document (X-Render-Mode: complete)
    // so the one copy it keeps serves crawlers and browsers alike.
    const wholeDocument =
      Boolean(userAgent && isbot(userAgent)) ||
      request.headers.get("x-render-mode") === "complete" ||
      routerContext.isSpaMode;
    const readyOption: keyof RenderToPipeableStreamOptions = wholeDocument ? "onAllReady" : "onShellReady";

    // Abort after the stream timeout, leaving time to flush the rejected boundaries.
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    // The edge's CSP nonce: on React Router's scripts and links, React's own inline scripts and root.tsx's.
    const nonce = requestNonce(request.headers);
    // What crawlers and link previews read (preview image, JSON-LD...): pages that answer 200 only.
    const content = pageContent(request);
    let seo: ReturnType<typeof seoHead> = null;
    try {
      if (routerContext.staticHandlerContext.statusCode === 200) seo = seoHead(new URL(request.url).pathname, publicUrl(), content);
    } catch (error) {
      // The page still answers, without them; the log (and e2e/seo.spec.ts) says what broke.
      log.error({ err: error }, `seo: ${errorMessage(error)}`);
    }
    const app = (
      <NonceProvider value={nonce}>
        <CriticalCssProvider value={criticalCss}>
          <ServerSeoProvider value={seo}>
            <DeferredScriptsProvider value={content.preview ? serverMarkupOnly : deferredScriptsServer}>
              <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
            </DeferredScriptsProvider>
          </ServerSeoProvider>
        </CriticalCssProvider>
      </NonceProvider>
    );
    const { pipe, abort } = renderToPipeableStream(app, {
      nonce,
      // For crawlers, write every finished Suspense boundary in place (React
      // otherwise moves large ones after the shell with a script to swap them in).
      progressiveChunkSize: wholeDocument ? Number.POSITIVE_INFINITY : undefined,
      [readyOption]() {
        shellRendered = true;
        // The inline CSS keeps only the rules this document uses (lib/critical-css.server.ts).
        const body = new CriticalCssCut();
        body.once("finish", () => {
          clearTimeout(timeoutId);
          timeoutId = undefined;
        });
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        pipe(body);
        resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
      },
      onShellError(error: unknown) {
        clearTimeout(timeoutId);
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        // Errors in the shell reject above and are logged by React Router.
        if (shellRendered) log.error({ err: error }, `render: ${errorMessage(error)}`);
      },
    });
  });
}
