import { href, type PageEnv } from "./layout.tsx";

export function MessagePage(props: { title: string; text: string; env?: PageEnv }) {
  return (
    <div className="wrap">
      <div className="empty big">
        <h1>{props.title}</h1>
        <p>{props.text}</p>
        {props.env && (
          <p>
            <a className="btn" href={href(props.env, "/")}>
              Back to home
            </a>
          </p>
        )}
      </div>
    </div>
  );
}
