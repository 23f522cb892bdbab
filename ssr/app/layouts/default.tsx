import type { ReactNode } from "react";
import { Footer } from "~/components/footer/footer-island";
import { Navbar } from "~/components/navbar/navbar";

export function DefaultLayout({ children }: { children: ReactNode }) {
  return (
    <div data-layout="default" className="flex min-h-dvh flex-col">
      <Navbar />
      <main id="main" className="flex-1">
        {children}
      </main>
      {/* Site footer (landing-page work fills it in). */}
      <Footer />
    </div>
  );
}
