import { useRouteLoaderData } from "react-router";

/** Whether the root loader found a signed-in session for this page load. */
export function useSignedIn(): boolean {
  const root = useRouteLoaderData("root") as { account?: { isLoggedIn?: boolean } | null } | undefined;
  return root?.account?.isLoggedIn === true;
}
