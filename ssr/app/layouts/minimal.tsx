import type { ReactNode } from "react";
import { Navbar } from "~/components/navbar/navbar";

/** Brand and theme switcher only: sign-in, register, not-found. */
export function MinimalLayout({ children }: { children: ReactNode }) {
  return (
    <div data-layout="minimal" className="flex min-h-dvh flex-col">
      <Navbar variant="minimal" />
      <main id="main" className="flex flex-1 flex-col">
        {children}
      </main>
    </div>
  );
}
