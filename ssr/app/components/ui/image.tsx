import { useEffect, useRef, useState } from "react";
import { PLACEHOLDER_IMAGE } from "~/lib/constants";

export interface ImageProps {
  src: string;
  /** Shown instead of src when the dark theme is on. */
  darkSrc?: string;
  alt: string;
  /** Intrinsic size; required so the layout never shifts while images load. */
  width: number;
  height: number;
  /** The page's largest image (LCP): load eagerly with high priority. Otherwise lazy. */
  priority?: boolean;
  className?: string;
}

/**
 * An image with an optional dark variant and a placeholder of the same size
 * when it fails to load (SPEC §2, §4). The dark switch is CSS-only (`dark:`
 * variant of the `dark` class on <html>), so server and client render the same
 * markup whatever the visitor's theme.
 */
export function Image({ src, darkSrc, alt, width, height, priority = false, className = "" }: ImageProps) {
  if (!darkSrc) {
    return <FallbackImg {...{ src, alt, width, height, priority, className }} />;
  }
  return (
    <>
      <FallbackImg {...{ src, alt, width, height, priority }} variant="light" className={`dark:hidden ${className}`} />
      <FallbackImg {...{ alt, width, height, priority }} src={darkSrc} variant="dark" className={`hidden dark:block ${className}`} />
    </>
  );
}

interface FallbackImgProps extends Omit<ImageProps, "darkSrc"> {
  variant?: "light" | "dark";
}

function FallbackImg({ src, alt, width, height, priority, className, variant }: FallbackImgProps) {
  const ref = useRef<HTMLImageElement>(null);
  // Remember which src failed, so a new src gets its own chance.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const failed = failedSrc === src;

  // An error before hydration fires no React onError: check the element once mounted.
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0 && img.getAttribute("src") === src) {
      setFailedSrc(src);
    }
  }, [src]);

  return (
    <img
      ref={ref}
      src={failed ? PLACEHOLDER_IMAGE : src}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? "eager" : "lazy"}
      // The server cannot know the theme: the light variant is the one
      // preloaded at high priority; the dark one loads eagerly but "low",
      // which also keeps React from preloading it for every visitor.
      fetchPriority={priority ? (variant === "dark" ? "low" : "high") : undefined}
      decoding={priority ? "sync" : "async"}
      data-theme-variant={variant}
      data-failed={failed || undefined}
      onError={() => setFailedSrc(src)}
      className={className}
    />
  );
}
