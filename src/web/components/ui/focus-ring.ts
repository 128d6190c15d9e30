/** The keyboard-focus ring of controls that are not a Button (links, chips, handles). */
export const focusRing =
  "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2";
