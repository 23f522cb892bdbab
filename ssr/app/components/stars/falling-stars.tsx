// The falling-star effect (SPEC §2 Theme, §9: 40 stars). Pure CSS: each star
// is a small streak whose transform and opacity are animated on the
// compositor; no script runs per frame and nothing is laid out again.
// Positions, delays and durations are computed from the star's index, so the
// server and the client render the same markup. Under
// prefers-reduced-motion: reduce the animation is paused. They show in the
// dark theme, a night sky (stars.css, part of app.css: no CSS in the JS chunk).

export const STAR_COUNT = 40;

export interface Star {
  /** Horizontal start, % of the container's width. */
  left: number;
  /** Vertical start, % of the container's height. */
  top: number;
  /** Seconds before the first fall. */
  delay: number;
  /** Seconds per fall (the animation repeats). */
  duration: number;
  /** Length of the streak, px. */
  length: number;
}

/** Deterministic, evenly spread stars: golden-ratio steps instead of Math.random. */
export function makeStars(count = STAR_COUNT): Star[] {
  const golden = 0.6180339887;
  return Array.from({ length: count }, (_, i) => {
    const a = (i * golden) % 1;
    const b = (i * golden * golden + 0.37) % 1;
    const round = (n: number) => Math.round(n * 100) / 100;
    return {
      left: round(a * 110 - 5),
      top: round(b * 60 - 20),
      // The first star falls after 1.5 s: nothing moves while the page loads and hydrates.
      delay: round(1.5 + ((i * 7) % STAR_COUNT) * 0.35),
      duration: round(5 + ((i * 13) % 7) * 0.9),
      length: 40 + ((i * 11) % 5) * 20,
    };
  });
}

const STARS = makeStars();

export function FallingStars({ className = "" }: { className?: string }) {
  return (
    <div aria-hidden="true" data-stars className={`falling-stars ${className}`}>
      {STARS.map((star, i) => (
        <span
          key={i}
          className="falling-star"
          style={{
            left: `${star.left}%`,
            top: `${star.top}%`,
            width: `${star.length}px`,
            animationDelay: `${star.delay}s`,
            animationDuration: `${star.duration}s`,
          }}
        />
      ))}
    </div>
  );
}
