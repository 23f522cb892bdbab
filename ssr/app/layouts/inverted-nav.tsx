import type { ReactNode } from "react";
import { Footer } from "~/components/footer/footer-island";
import { Navbar } from "~/components/navbar/navbar";

/** A dark navigation bar on a light page (the contact-form pages). */
export function InvertedNavLayout({ children }: { children: ReactNode }) {
  return (
    <div data-layout="inverted-nav" className="flex min-h-dvh flex-col">
      <Navbar variant="inverted" />
      <main id="main" className="flex-1">
        {children}
      </main>
      {/* Site footer (landing-page work fills it in). */}
      <Footer />
    </div>
  );
}
