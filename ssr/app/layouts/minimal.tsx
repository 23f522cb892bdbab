import type { ReactNode } from "react";
import { Boundary } from "~/lib/boundary";
import { Navbar } from "~/components/navbar/navbar";

/** Brand and theme switcher only: sign-in, register, not-found. */
export function MinimalLayout({ children }: { children: ReactNode }) {
  return (
    <div data-layout="minimal" className="flex min-h-dvh flex-col">
      <Boundary>
        <Navbar variant="minimal" />
      </Boundary>
      <main id="main" className="flex flex-1 flex-col">
        <Boundary>{children}</Boundary>
      </main>
    </div>
  );
}
