import type { ComponentType, ReactNode } from "react";
import type { LayoutId } from "@omnibus/shared/route-table";
import { DefaultLayout } from "./default";
import { InvertedNavLayout } from "./inverted-nav";
import { MinimalLayout } from "./minimal";

export type LayoutComponent = ComponentType<{ children: ReactNode }>;

const LAYOUTS: Record<LayoutId, LayoutComponent> = {
  default: DefaultLayout,
  minimal: MinimalLayout,
  "inverted-nav": InvertedNavLayout,
};

/** The layout of a route-table layout id; an unknown id is logged as an error and gets the default layout (SPEC §2). */
export function layoutFor(id: string): LayoutComponent {
  if (Object.hasOwn(LAYOUTS, id)) return LAYOUTS[id as LayoutId];
  console.error(`Unknown layout id "${id}": using the default layout`);
  return DefaultLayout;
}
