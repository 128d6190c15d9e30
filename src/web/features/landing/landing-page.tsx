import { BookOpen, Globe, Sparkles } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../components/ui/button.tsx";
import { Logo } from "../../components/ui/logo.tsx";

const POINTS = [
  {
    icon: BookOpen,
    title: "Made for books",
    text: "Covers, series, formats, retailer links and reviews, laid out beautifully.",
  },
  { icon: Globe, title: "Your own address", text: "A free subdomain, or your own domain name when you are ready." },
  { icon: Sparkles, title: "Live in minutes", text: "Pick a name and a plan; your site is up in about ten minutes." },
];

export function LandingPage() {
  return (
    <div className="min-h-screen bg-white">
      <header className="mx-auto flex max-w-6xl items-center justify-between px-6 py-6">
        <Logo />
        <nav aria-label="Account" className="flex items-center gap-2">
          <Button asChild variant="ghost">
            <Link to="/login">Sign in</Link>
          </Button>
          <Button asChild className="hidden sm:inline-flex">
            <Link to="/signup">Start your free trial</Link>
          </Button>
        </nav>
      </header>
      <main>
        <section className="relative overflow-hidden">
          <div
            aria-hidden="true"
            className="absolute inset-x-0 top-0 -z-10 h-[28rem] bg-gradient-to-b from-brand-50 to-white"
          />
          <div className="mx-auto max-w-4xl px-6 pb-20 pt-16 text-center sm:pt-24">
            <p className="mb-4 inline-flex items-center rounded-full bg-brand-100 px-3 py-1 text-xs font-semibold uppercase tracking-wide text-brand-700">
              14-day free trial
            </p>
            <h1 className="text-4xl font-bold tracking-tight text-slate-900 sm:text-6xl">Bookplate</h1>
            <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600 sm:text-xl">
              A beautiful website for independent authors: your books, your story and your readers, in one place.
            </p>
            <div className="mt-10 flex flex-col items-center justify-center gap-3 sm:flex-row">
              <Button asChild size="lg">
                <Link to="/signup">Start your free trial</Link>
              </Button>
              <Button asChild size="lg" variant="secondary">
                <Link to="/login">Sign in</Link>
              </Button>
              <Button asChild size="lg" variant="ghost">
                {/* Server-rendered, so a full page load rather than a client-side route. */}
                <a href="/demo">See a demo site</a>
              </Button>
            </div>
          </div>
        </section>
        <section aria-label="Why Bookplate" className="mx-auto grid max-w-5xl gap-6 px-6 pb-24 sm:grid-cols-3">
          {POINTS.map(({ icon: Icon, title, text }) => (
            <div key={title} className="rounded-2xl border border-slate-200 p-6">
              <Icon aria-hidden="true" className="h-6 w-6 text-brand-600" />
              <h2 className="mt-4 font-semibold text-slate-900">{title}</h2>
              <p className="mt-2 text-sm text-slate-600">{text}</p>
            </div>
          ))}
        </section>
      </main>
      <footer className="border-t border-slate-200 py-8 text-center text-sm text-slate-500">
        © {new Date().getFullYear()} Bookplate
      </footer>
    </div>
  );
}
