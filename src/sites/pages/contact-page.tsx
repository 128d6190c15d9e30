import { Mail } from "../icons.tsx";
import { href, type PageEnv, publicSocialLinks, SocialLinks } from "./layout.tsx";
import { DemoNote, maskEmail } from "./parts.tsx";

export function ContactPage(props: { env: PageEnv; done?: boolean; error?: string }) {
  const { env } = props;
  const c = env.ctx.contact;
  const email = c?.contactEmail?.trim() || "";
  const disabled = env.readOnly;
  const formOn = c?.enableContactForm ?? true;
  const hasLinks = publicSocialLinks(env.ctx).length > 0;
  return (
    <div className="wrap">
      <div className="page-head">
        <h1>Contact</h1>
        <p>I love hearing from readers. Send me a message and I'll get back to you.</p>
      </div>
      <div className="two">
        <div className="panel">
          {props.done ? (
            <p className="notice" role="status">
              Thank you for your message! I'll get back to you soon.
            </p>
          ) : formOn ? (
            <>
              <h2 className="panel-title">Send a message</h2>
              {props.error && (
                <p className="error" role="alert">
                  {props.error}
                </p>
              )}
              <DemoNote env={env} />
              <form className="stack" method="post" action={href(env, "/contact")}>
                <div className="pair">
                  <label>
                    Name
                    <input name="name" required maxLength={200} autoComplete="name" disabled={disabled} />
                  </label>
                  <label>
                    Email
                    <input
                      type="email"
                      name="email"
                      required
                      maxLength={320}
                      autoComplete="email"
                      disabled={disabled}
                    />
                  </label>
                </div>
                <label>
                  Subject
                  <input name="subject" required maxLength={300} disabled={disabled} />
                </label>
                <label>
                  Message
                  <textarea name="message" rows={6} required maxLength={5000} disabled={disabled} />
                </label>
                <div className="hp" aria-hidden="true">
                  <label>
                    Leave this empty
                    <input name="website" tabIndex={-1} autoComplete="off" />
                  </label>
                </div>
                <div>
                  <button className="btn" type="submit" disabled={disabled}>
                    Send Message
                  </button>
                </div>
              </form>
            </>
          ) : (
            <p>The contact form is not available right now.</p>
          )}
        </div>
        {(email || hasLinks) && (
          <aside className="panel" aria-labelledby="get-in-touch">
            <h2 className="panel-title" id="get-in-touch">
              Get in touch
            </h2>
            {email && (
              <details className="mask">
                <summary>
                  <Mail aria-hidden="true" />
                  <span className="masked">{maskEmail(email)}</span>
                  <span className="tog">
                    <span className="show">Show</span>
                    <span className="hide">Hide</span>
                    <span className="sr"> email address</span>
                  </span>
                </summary>
                <a href={`mailto:${email}`}>{email}</a>
              </details>
            )}
            <SocialLinks ctx={env.ctx} className="social" />
          </aside>
        )}
      </div>
    </div>
  );
}
