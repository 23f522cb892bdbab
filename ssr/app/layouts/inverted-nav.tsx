import type { ReactNode } from "react";
import { Footer } from "~/components/footer/footer-island";
import { Navbar } from "~/components/navbar/navbar";
import { useSignedIn } from "~/components/auth/signed-in";

/** A dark navigation bar on a light page (the contact-form pages). */
export function InvertedNavLayout({ children }: { children: ReactNode }) {
  const signedIn = useSignedIn();
  return (
    <div data-layout="inverted-nav" className="flex min-h-dvh flex-col">
      <Navbar variant="inverted" />
      <main id="main" className="flex-1">
        {children}
      </main>
      {/* The "open your store" band is for visitors: a signed-in merchant has a store. */}
      <Footer showCta={!signedIn} />
    </div>
  );
}
