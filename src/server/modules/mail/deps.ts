// The mail module's part of the request context (ADR 078): merged into `AppDeps`, which
// server/http declares without naming any module.
import type { Mailer } from "./mail.service.ts";

declare module "../../http/context.ts" {
  interface AppDeps {
    /** Queues mail (the outbox) and reports its health. */
    mailer: Mailer;
  }
}
