// The editor's book card (ADR 071): a block naming one of the author's books, stored as
// `<div data-book-card="{id}"></div>` and made into the book's card by the site and the mail.
// In the editor it shows the book's cover and title; "Insert book" picks the book.
import { mergeAttributes, Node, NodeViewWrapper, type ReactNodeViewProps, ReactNodeViewRenderer } from "@tiptap/react";
import { clsx } from "clsx";
import { BookOpen } from "lucide-react";
import { createContext, type KeyboardEvent, useContext, useId, useState } from "react";
import { BOOK_CARD_ATTR } from "../../shared/book-card.ts";
import { focusRing } from "./ui/focus-ring.ts";

/** A book the author may put in a card. */
export type BookChoice = { id: string; title: string; coverUrl: string | null };

/** The author's books, for the cards' titles and covers in the editor. */
export const BookChoices = createContext<BookChoice[]>([]);

function BookCardView({ node, selected }: ReactNodeViewProps) {
  const books = useContext(BookChoices);
  const book = books.find((b) => b.id === node.attrs.bookId);
  return (
    <NodeViewWrapper
      contentEditable={false}
      data-drag-handle=""
      className={clsx(
        "my-2 flex items-center gap-3 rounded-lg border border-slate-200 bg-slate-50 p-2 not-prose",
        selected && "ring-2 ring-brand-500",
      )}
    >
      {book?.coverUrl ? (
        <img src={book.coverUrl} alt="" className="h-16 w-auto rounded shadow-sm" />
      ) : (
        <BookOpen aria-hidden="true" className="h-8 w-8 text-slate-400" />
      )}
      <span className="text-sm text-slate-700">
        <span className="block text-xs font-semibold uppercase tracking-wide text-slate-500">Book card</span>
        {book ? book.title : "A book that is no longer available: readers see nothing here."}
      </span>
    </NodeViewWrapper>
  );
}

export const BookCardNode = Node.create({
  name: "bookCard",
  group: "block",
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes() {
    return {
      bookId: {
        default: null,
        parseHTML: (el) => el.getAttribute(BOOK_CARD_ATTR),
        renderHTML: (attrs) => ({ [BOOK_CARD_ATTR]: attrs.bookId }),
      },
    };
  },
  parseHTML() {
    return [{ tag: `div[${BOOK_CARD_ATTR}]` }];
  },
  renderHTML({ HTMLAttributes }) {
    return ["div", mergeAttributes(HTMLAttributes)];
  },
  addNodeView() {
    return ReactNodeViewRenderer(BookCardView);
  },
});

/** The bar under the toolbar: which book, then Insert. */
export function BookBar(props: { books: BookChoice[]; onInsert: (id: string) => void; onCancel: () => void }) {
  const id = useId();
  const [chosen, setChosen] = useState(props.books[0]?.id ?? "");
  const onKey = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      e.preventDefault();
      props.onCancel();
    }
  };
  const button = "h-8 rounded px-3 text-xs font-semibold";
  return (
    <fieldset className="flex flex-wrap items-center gap-2 border-b border-slate-200 bg-white px-2 py-2">
      <legend className="sr-only">Insert book</legend>
      {props.books.length === 0 ? (
        <p className="text-xs text-slate-600">Add a book under Books first: a card shows one of your books.</p>
      ) : (
        <>
          <label htmlFor={`${id}-book`} className="text-xs font-medium text-slate-700">
            Book
          </label>
          <select
            id={`${id}-book`}
            value={chosen}
            onChange={(e) => setChosen(e.target.value)}
            onKeyDown={onKey}
            className="h-8 min-w-[12rem] max-w-full flex-1 rounded border border-slate-300 bg-white px-2 text-sm text-slate-900 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
          >
            {props.books.map((b) => (
              <option key={b.id} value={b.id}>
                {b.title}
              </option>
            ))}
          </select>
          <button
            type="button"
            disabled={!chosen}
            onClick={() => props.onInsert(chosen)}
            className={clsx(button, "bg-brand-600 text-white hover:bg-brand-700", focusRing)}
          >
            Insert
          </button>
        </>
      )}
      <button
        type="button"
        onClick={props.onCancel}
        className={clsx(button, "text-slate-700 hover:bg-slate-100", focusRing)}
      >
        Cancel
      </button>
    </fieldset>
  );
}
