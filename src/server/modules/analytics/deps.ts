// The analytics module's part of the request context (ADR 078): merged into `AppDeps`, which
// server/http declares without naming any module.
import type { VisitCounter } from "./visit-counter.ts";

declare module "../../http/context.ts" {
  interface AppDeps {
    /** The public pages' visit counter (the renderer counts into it; the back office flushes it). */
    visits: VisitCounter;
  }
}
