import { Button } from "./button.tsx";

/** A paged list's Previous and Next buttons; `onPage` gets the page to show. */
export function PagerButtons({ page, last, onPage }: { page: number; last: number; onPage: (page: number) => void }) {
  return (
    <>
      <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <Button variant="secondary" size="sm" disabled={page >= last} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </>
  );
}
