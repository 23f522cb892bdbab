import { useEffect, useState } from "react";
import { useNavigation } from "react-router";
import { PROGRESS_BAR_DELAY_MS } from "~/lib/constants";

/** A thin bar at the top of the window during client navigations that take a while. */
export function ProgressBar() {
  const busy = useNavigation().state !== "idle";
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (!busy) {
      setVisible(false);
      return;
    }
    const timer = window.setTimeout(() => setVisible(true), PROGRESS_BAR_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [busy]);

  return (
    <div
      aria-hidden="true"
      data-visible={visible || undefined}
      className="pointer-events-none fixed inset-x-0 top-0 z-50 h-0.5 origin-left scale-x-0 bg-brand-500 opacity-0 transition-[transform,opacity] duration-[2s] ease-out data-visible:scale-x-90 data-visible:opacity-100"
    />
  );
}
