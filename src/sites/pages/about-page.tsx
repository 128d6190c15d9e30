import { cleanHtml } from "../sanitize.ts";
import type { PageEnv } from "./layout.tsx";

const DEFAULT_JOURNEY = [
  {
    year: "The beginning",
    title: "A love of stories",
    description: "It started with reading everything I could find.",
  },
  {
    year: "First words",
    title: "Writing seriously",
    description: "Notebooks filled up, and the first manuscript took shape.",
  },
  { year: "Today", title: "Sharing my books", description: "Now I write for readers like you, one story at a time." },
];

export function AboutPage(props: { env: PageEnv }) {
  const { env } = props;
  const p = env.ctx.profile;
  const stored = Array.isArray(p.writingJourney)
    ? p.writingJourney.filter((j) => j && (j.title?.trim() || j.description?.trim() || j.year?.trim()))
    : [];
  const journey = stored.length ? stored : DEFAULT_JOURNEY;
  const bio = cleanHtml(p.bio);
  return (
    <div className="wrap">
      <div className="about">
        <div className="photo">
          {p.authorPhotoUrl ? (
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
          <h1>About {p.name}</h1>
          {p.tagline && <p className="tag">{p.tagline}</p>}
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: cleaned by sanitize.ts */}
          <div className="prose" dangerouslySetInnerHTML={{ __html: bio }} />
        </div>
      </div>
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
    </div>
  );
}
