import { ARCHIVE_PATH, archiveShown } from "./archive-page.tsx";
import { href, type PageEnv } from "./layout.tsx";
import { MagnetOffer } from "./magnet-page.tsx";
import { DemoNote, EmailInput } from "./parts.tsx";

/**
 * The provider's sign-up frame is served only by the site's own host: previews on the app host
 * point at it there, so no author's HTML is ever served under the product's own origin.
 */
const embedSrc = (env: PageEnv) =>
  env.mode === "tenant" ? href(env, "/newsletter/embed") : `${env.origin}/newsletter/embed`;

/** @param page the site path the sign-up form is on, sent with it (a form on another page names its own). */
export function NewsletterPage(props: { env: PageEnv; done?: boolean; error?: string; page?: string }) {
  const { env } = props;
  const embed = env.ctx.customization?.newsletterEmbedCode?.trim();
  const disabled = env.readOnly;
  return (
    <div className="wrap">
      <div className="page-head">
        <h1>Newsletter</h1>
        <p>Subscribe to get the latest updates and exclusive content.</p>
      </div>
      <div className="narrow">
        {props.done ? (
          <div className="notice" role="status">
            <p>
              <strong>Thank you for subscribing! You'll hear from me soon.</strong>
            </p>
            <p>
              One more step: please open the email we've just sent you and confirm your subscription with the link in
              it. Nothing arrives until you do. Can't find it? Have a look in your spam folder.
            </p>
          </div>
        ) : embed ? (
          <iframe
            className="embed"
            title="Newsletter sign-up"
            src={embedSrc(env)}
            sandbox="allow-scripts allow-forms allow-popups"
            loading="lazy"
          />
        ) : (
          <div className="panel">
            <h2 className="panel-title">Join the mailing list</h2>
            <p className="hint">New releases, exclusive extras and news from my writing desk. No spam, ever.</p>
            <MagnetOffer env={env} />
            {props.error && (
              <p className="error" role="alert" id="nl-error">
                {props.error}
              </p>
            )}
            <DemoNote env={env} />
            <form className="inline" method="post" action={href(env, "/newsletter")}>
              {/* The page the reader signed up on, as a site path (the author's Subscribers screen shows it). */}
              <input type="hidden" name="page" value={props.page ?? "/newsletter"} />
              <EmailInput id="nl-email" errorId="nl-error" error={props.error} disabled={disabled} />
              <button className="btn" type="submit" disabled={disabled}>
                Subscribe
              </button>
            </form>
          </div>
        )}
        {archiveShown(env.ctx) && (
          <p className="back end">
            <a href={href(env, ARCHIVE_PATH)}>Read past newsletters</a>
          </p>
        )}
      </div>
    </div>
  );
}

/** The mailed link only shows a button: mail scanners that follow links confirm nothing. */
/**
 * The page a mailed confirmation link opens: a button that posts the token, so that a mail
 * scanner following the link confirms nothing. The newsletter's by default; a release alert's too.
 */
export function ConfirmSubscription(props: {
  env: PageEnv;
  token: string;
  action?: string;
  heading?: string;
  text?: string;
  button?: string;
}) {
  const disabled = props.env.readOnly;
  return (
    <div className="wrap">
      <div className="empty">
        <h1>{props.heading ?? "Confirm your subscription"}</h1>
        <p>{props.text ?? "Press the button to confirm that you want to receive this newsletter."}</p>
        <form method="post" action={href(props.env, props.action ?? "/newsletter/confirm")}>
          <input type="hidden" name="token" value={props.token} />
          <button className="btn" type="submit" disabled={disabled}>
            {props.button ?? "Confirm subscription"}
          </button>
        </form>
      </div>
    </div>
  );
}

export const INVALID_LINK = "This confirmation link is not valid. Please sign up again to get a new one.";
