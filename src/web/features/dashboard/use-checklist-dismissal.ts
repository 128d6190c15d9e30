// The dashboard's getting-started checklist can be hidden; the choice is kept on this device.
import { useEffect, useState } from "react";

/** The checklist's "Hide this list", remembered on this device for this author. */
export function useChecklistDismissal(userId: string | undefined): [boolean, () => void] {
  const key = userId ? `bookplate:getting-started-hidden:${userId}` : null;
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    if (!key) return;
    try {
      setHidden(window.localStorage.getItem(key) === "1");
    } catch {
      // Storage refused (private mode): the list shows, and hiding lasts for this visit.
    }
  }, [key]);
  return [
    hidden,
    () => {
      setHidden(true);
      try {
        if (key) window.localStorage.setItem(key, "1");
      } catch {
        // As above: hidden for this visit only.
      }
    },
  ];
}
