import { useRouteLoaderData } from "react-router";

/** The client id from the root loader ("" when Google sign-in is off). Its own
 * module: the button (which loads the sign-in lazily) and the sign-in both read it. */
export function useGoogleClientId(): string {
  const root = useRouteLoaderData("root") as { googleClientId?: string } | undefined;
  return root?.googleClientId ?? "";
}
