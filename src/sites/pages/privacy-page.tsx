import { privacyNoticeHtml } from "../../server/modules/sites/privacy-notice.ts";
import { privacyFactsOf } from "../../server/modules/sites/sites.service.ts";
import { cleanHtml } from "../sanitize.ts";
import type { PageEnv } from "./layout.tsx";

/** The author's own text, else the notice generated from what this site collects (ADR 052). */
export function PrivacyPage(props: { env: PageEnv }) {
  const { env } = props;
  const html = cleanHtml(env.ctx.legal?.content) || cleanHtml(privacyNoticeHtml(privacyFactsOf(env.ctx, env.origin)));
  return (
    <div className="wrap">
      <div className="page-head">
        <h1>Privacy &amp; Legal</h1>
      </div>
      <div className="content">
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: cleaned by sanitize.ts */}
        <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />
      </div>
    </div>
  );
}
