export {
  AddBookPage as AddBookRoute,
  BooksSection as BooksRoute,
  EditBookPage as EditBookRoute,
  SeriesPage as SeriesRoute,
} from "../../features/books/index.ts";
