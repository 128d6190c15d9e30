import { cleanHtml } from "../sanitize.ts";
import type { PageEnv } from "./layout.tsx";

export function PrivacyPage(props: { env: PageEnv }) {
  const legal = props.env.ctx.legal;
  const html = legal?.isEnabled ? cleanHtml(legal.content) : "";
  return (
    <div className="wrap">
      <div className="page-head">
        <h1>Privacy &amp; Legal</h1>
      </div>
      <div className="content">
        {html ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: cleaned by sanitize.ts
          <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />
        ) : (
          <p className="prose muted">No privacy and legal information has been configured yet.</p>
        )}
      </div>
    </div>
  );
}
