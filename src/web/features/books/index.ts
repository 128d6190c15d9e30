// The books feature's public face: the dashboard section, the two book-form routes and series.
export { AddBookPage } from "./add-book-page.tsx";
export { BooksSection } from "./books-section.tsx";
export { EditBookPage } from "./edit-book-page.tsx";
export { SeriesPage } from "./series-page.tsx";
