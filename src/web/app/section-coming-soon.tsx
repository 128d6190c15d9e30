import { Construction } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../components/ui/button.tsx";

/** A dashboard address no section answers to (an old bookmark, a typo): the spec's message, in the dashboard. */
export function SectionComingSoon() {
  return (
    <div className="flex flex-col items-center py-16 text-center">
      <span className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-50 text-brand-600">
        <Construction aria-hidden="true" className="h-7 w-7" />
      </span>
      <h1 className="mt-6 text-2xl font-bold text-slate-900">Section Coming Soon</h1>
      <p className="mt-2 text-slate-600">This section is under development.</p>
      <Button asChild className="mt-8">
        <Link to="/dashboard">Back to the dashboard</Link>
      </Button>
    </div>
  );
}
