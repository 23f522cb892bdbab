// The navigation's account controls for a signed-in visitor: a sign-out
// button. It is a form posting to the edge (303 to /login?signedOut=1), so it
// works without JavaScript; with it, the same post by fetch, then a full page
// load so every part of the page is rendered signed out.
//
// The navigation loads this module (with the API client and the sign-in
// words) only for a signed-in visitor: see AccountLinks in navbar.tsx.
import { useState, type FormEvent } from "react";
import auth from "@omnibus/shared/content/auth.json";
import { api, API, browser } from "./api";

export function SignOutButton({ className = "" }: { className?: string }) {
  const [busy, setBusy] = useState(false);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      await api(API.logout, {});
      browser.assign("/login?signedOut=1");
    } catch (error) {
      console.error("Sign out failed", error);
      setBusy(false);
    }
  }
  return (
    <form method="post" action={API.logout} onSubmit={onSubmit} className={className}>
      <button type="submit" disabled={busy} aria-busy={busy} className="text-sm font-medium opacity-80 hover:opacity-100 disabled:cursor-wait">
        {auth.signOut.button}
      </button>
    </form>
  );
}
