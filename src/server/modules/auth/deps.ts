// The auth module's part of the request context (ADR 078): merged into `AppDeps`, which
// server/http declares without naming any module.
import type { Auth } from "./auth.ts";

declare module "../../http/context.ts" {
  interface AppDeps {
    /** Better Auth and `currentUser(headers)` (read by `requireUser` in http/session.ts). */
    auth: Auth;
  }
}
