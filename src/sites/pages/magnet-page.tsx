// A reader magnet on the site (ADR 068): the offer on the sign-up form, and the download button a
// reader's link (or their confirmation) shows. The button posts the link's token: a mail scanner
// that follows the link uses up no download.
import type { MagnetType } from "../../shared/schemas/magnet.ts";
import { magnetKind } from "../../shared/schemas/magnet.ts";
import { href, type PageEnv } from "./layout.tsx";

/** "Get <i>Title</i> free", when the author offers a book and readers sign up with the site's form. */
export function MagnetOffer({ env }: { env: PageEnv }) {
  const title = env.ctx.magnetTitle;
  if (!title) return null;
  return (
    <p className="notice magnet-offer">
      <strong>
        Get <i>{title}</i> free
      </strong>{" "}
      when you confirm your subscription.
    </p>
  );
}

/** The download form: the token posted to the download page, which answers with the file. */
export function MagnetButton(props: { env: PageEnv; token: string; title: string; type: MagnetType }) {
  return (
    <form method="post" action={href(props.env, "/newsletter/free-book")}>
      <input type="hidden" name="token" value={props.token} />
      <button className="btn" type="submit">
        {/* One line of words in the button (it lays out its children as flex items). */}
        <span>
          Download <i>{props.title}</i> ({magnetKind(props.type)})
        </span>
      </button>
    </form>
  );
}

/** An expired link's "Send me a new link": the old token posted back (ADR 068). */
function RenewButton(props: { env: PageEnv; token: string }) {
  return (
    <form method="post" action={href(props.env, "/newsletter/free-book")}>
      <input type="hidden" name="token" value={props.token} />
      <input type="hidden" name="renew" value="1" />
      <button className="btn" type="submit">
        Send me a new link
      </button>
    </form>
  );
}

/** A page with a message and, for a good link, the download button; for an expired one, a new link. */
export function MagnetPage(props: {
  env: PageEnv;
  heading: string;
  text: string;
  terms?: string;
  download?: { token: string; title: string; type: MagnetType };
  renew?: string;
}) {
  return (
    <div className="wrap">
      <div className="empty big">
        <h1>{props.heading}</h1>
        <p>{props.text}</p>
        {props.terms ? <p className="hint">{props.terms}</p> : null}
        {props.download ? <MagnetButton env={props.env} {...props.download} /> : null}
        {props.renew ? <RenewButton env={props.env} token={props.renew} /> : null}
      </div>
    </div>
  );
}
