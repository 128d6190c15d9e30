import { cleanHtml } from "../sanitize.ts";
import { type PageEnv, SocialLinks } from "./layout.tsx";

export function AboutPage(props: { env: PageEnv }) {
  const { env } = props;
  const p = env.ctx.profile;
  // Only the author's own story: with none told, there is no section (nothing invented).
  const journey = Array.isArray(p.writingJourney)
    ? p.writingJourney.filter((j) => j && (j.title?.trim() || j.description?.trim() || j.year?.trim()))
    : [];
  const bio = cleanHtml(p.bio);
  // An uploaded photo (square, in sizes); else the address the author gave, else initials.
  const photo = p.authorPhotoVariants ?? [];
  return (
    <div className="wrap">
      <div className="about">
        <div className="photo">
          {photo.length > 0 ? (
            <img
              className="square"
              src={photo.at(-1)?.url}
              srcSet={photo.map((v) => `${v.url} ${v.width}w`).join(", ")}
              sizes="(max-width: 760px) 13rem, 17rem"
              alt={`Portrait of ${p.name}`}
              width={photo.at(-1)?.width}
              height={photo.at(-1)?.height}
              fetchPriority="high"
            />
          ) : p.authorPhotoUrl ? (
            <img src={p.authorPhotoUrl} alt={`Portrait of ${p.name}`} width={288} height={360} fetchPriority="high" />
          ) : (
            <div className="avatar" aria-hidden="true">
              {p.name
                .split(/\s+/)
                .map((x) => x[0] ?? "")
                .join("")
                .slice(0, 2)
                .toUpperCase()}
            </div>
          )}
        </div>
        <div>
          {p.genre.trim() && <p className="kicker">{p.genre}</p>}
          <h1>About {p.name}</h1>
          {p.tagline && <p className="tag">{p.tagline}</p>}
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: cleaned by sanitize.ts */}
          <div className="prose" dangerouslySetInnerHTML={{ __html: bio }} />
          <SocialLinks ctx={env.ctx} className="social" />
        </div>
      </div>
      {journey.length > 0 && (
        <section aria-labelledby="journey">
          <h2 id="journey" className="section-title">
            My Writing Journey
          </h2>
          <ol className="journey">
            {journey.map((j, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the author's own order, entries may repeat
              <li className="card" key={i}>
                <p className="year">{j.year}</p>
                <h3>{j.title}</h3>
                <p>{j.description}</p>
              </li>
            ))}
          </ol>
        </section>
      )}
    </div>
  );
}
