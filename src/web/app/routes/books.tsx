import { AddBookPage, BooksSection, EditBookPage, SeriesPage } from "../../features/books/index.ts";

export function BooksRoute() {
  return <BooksSection />;
}

export function AddBookRoute() {
  return <AddBookPage />;
}

export function EditBookRoute() {
  return <EditBookPage />;
}

export function SeriesRoute() {
  return <SeriesPage />;
}
