import { useEffect } from "react";
import { isRouteErrorResponse } from "react-router";

/**
 * A client-side navigation that failed because the browser is offline (its
 * data request found no network and no cached copy) becomes a document load
 * of the same address, which the service worker answers from its page cache
 * (a page visited before) or with its offline page. Errors the server sent
 * (404, 500) are shown as they are.
 */
export function useOfflineReload(error: unknown) {
  useEffect(() => {
    if (!isRouteErrorResponse(error) && !navigator.onLine && navigator.serviceWorker?.controller) window.location.reload();
  }, [error]);
}
