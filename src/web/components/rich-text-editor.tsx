// The rich-text editor for author HTML (book blurbs, the bio, posts): bold, italic, lists, links
// and, where the screen offers it (posts), pictures: uploaded or by address, with alt text.
// Pasting brings text only (the spec), so formatting from Word or a web page never arrives; the
// server sanitises whatever arrives anyway.

import Image from "@tiptap/extension-image";
import { EditorContent, useEditor, useEditorState } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { clsx } from "clsx";
import { Bold, BookPlus, ImagePlus, Italic, Link2, List, ListOrdered, Unlink } from "lucide-react";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { BookBar, BookCardNode, type BookChoice, BookChoices } from "./book-card-node.tsx";
import { ImageBar, type InsertImage } from "./image-bar.tsx";

const focusRing =
  "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2";

export function RichTextEditor({
  id,
  value,
  onChange,
  "aria-describedby": describedBy,
  "aria-invalid": invalid,
  label,
  minHeight = "min-h-32",
  images,
  books,
}: {
  /** Given by the `Field` it stands in, with the two aria attributes. */
  id?: string | undefined;
  value: string;
  onChange: (html: string) => void;
  "aria-describedby"?: string | undefined;
  /** Rings the editor in red. */
  "aria-invalid"?: true | undefined;
  label: string;
  /** Tailwind min-height for the writing area; long texts (a bio) want more room. */
  minHeight?: string;
  /** Offer pictures: how an uploaded file becomes an address (absent: no image tool). */
  images?: { upload: (file: File) => Promise<InsertImage> };
  /** Offer book cards (posts, newsletters): the author's books (absent: no book tool). */
  books?: BookChoice[] | undefined;
}) {
  // Set while our own plain-text paste runs, so the handler lets ProseMirror's text paste through.
  const pastingText = useRef(false);
  // The HTML we last reported. A value equal to it is our own echo, one render behind the editor;
  // only a different value (loaded from the server, reset after a save) replaces the content.
  const lastEmitted = useRef(value);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: false,
        codeBlock: false,
        code: false,
        blockquote: false,
        horizontalRule: false,
        link: { openOnClick: false, autolink: true, protocols: ["http", "https", "mailto"] },
      }),
      ...(images ? [Image.configure({ inline: false, allowBase64: false })] : []),
      ...(books ? [BookCardNode] : []),
    ],
    content: value,
    editorProps: {
      handlePaste: (view, event) => {
        const text = event.clipboardData?.getData("text/plain");
        if (pastingText.current || !text) return false;
        event.preventDefault();
        pastingText.current = true;
        try {
          view.pasteText(text);
        } finally {
          pastingText.current = false;
        }
        return true;
      },
      attributes: {
        ...(id ? { id } : {}),
        role: "textbox",
        "aria-multiline": "true",
        "aria-label": label,
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        class: `prose prose-sm max-w-none ${minHeight} px-3 py-2 text-sm text-slate-900 focus:outline-none [&_ul]:list-disc [&_ul]:pl-5 [&_ol]:list-decimal [&_ol]:pl-5 [&_a]:text-brand-600 [&_a]:underline [&_p]:my-1 [&_img]:my-2 [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded [&_img.ProseMirror-selectednode]:ring-2 [&_img.ProseMirror-selectednode]:ring-brand-500`,
      },
    },
    onUpdate: ({ editor: e }) => {
      const html = e.getHTML();
      lastEmitted.current = html;
      onChange(html);
    },
  });

  // A value set from outside (loaded after mount, cleaned by the server) replaces the content,
  // without echoing back. Comparing with the editor itself instead would let a stale echo undo
  // the latest keystrokes whenever the editor is briefly unfocused.
  useEffect(() => {
    if (!editor || value === lastEmitted.current) return;
    lastEmitted.current = value;
    if (value !== editor.getHTML()) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e?.isActive("bold") ?? false,
      italic: e?.isActive("italic") ?? false,
      bullet: e?.isActive("bulletList") ?? false,
      ordered: e?.isActive("orderedList") ?? false,
      link: e?.isActive("link") ?? false,
    }),
  });

  // Adding a link: a small bar under the toolbar (not window.prompt), with the address checked
  // before it is applied. An empty address removes the link under the caret.
  const [linkDraft, setLinkDraft] = useState<string | null>(null);
  const [linkError, setLinkError] = useState("");
  // The words to link when nothing is selected (null: text is selected, or the caret is on a link).
  const [linkText, setLinkText] = useState<string | null>(null);
  const linkInput = useRef<HTMLInputElement>(null);
  const linkId = useId();
  const linkOpen = linkDraft !== null;
  useEffect(() => {
    if (linkOpen) linkInput.current?.focus();
  }, [linkOpen]);

  const [imageOpen, setImageOpen] = useState(false);
  const [bookOpen, setBookOpen] = useState(false);
  function insertImage(img: InsertImage) {
    editor
      ?.chain()
      .focus()
      .setImage({ src: img.src, alt: img.alt, ...(img.width ? { width: img.width, height: img.height } : {}) })
      .run();
    setImageOpen(false);
  }

  function openLink() {
    if (!editor) return;
    setLinkError("");
    setLinkText(editor.state.selection.empty && !editor.isActive("link") ? "" : null);
    setLinkDraft((editor.getAttributes("link").href as string | undefined) ?? "https://");
  }
  function closeLink() {
    setLinkDraft(null);
    setLinkText(null);
    setLinkError("");
    editor?.chain().focus().run();
  }
  /** In the link fields: Enter applies (and must not submit the surrounding form), Escape closes. */
  function onLinkKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === "Enter") {
      e.preventDefault();
      applyLink();
    } else if (e.key === "Escape") {
      e.preventDefault();
      closeLink();
    }
  }
  function applyLink() {
    if (!editor || linkDraft === null) return;
    let url = linkDraft.trim();
    // "harbour.example/press" means a web address: give it the scheme it lacks.
    if (!/^[a-z][a-z0-9+.-]*:/i.test(url) && /^[^\s/]+\.[^\s]+$/.test(url)) url = `https://${url}`;
    if (url === "" || url === "https://") {
      editor.chain().focus().extendMarkRange("link").unsetLink().run();
      return closeLink();
    }
    if (!/^(https?:\/\/|mailto:)[^\s]+$/i.test(url)) {
      setLinkError("Please enter a link starting with http:// or https://");
      return linkInput.current?.focus();
    }
    const chain = editor.chain().focus().extendMarkRange("link");
    // With nothing selected, the words typed become the linked text, else the address itself.
    if (editor.state.selection.empty && !editor.isActive("link")) {
      const text = linkText?.trim() || url;
      chain.insertContent({ type: "text", text, marks: [{ type: "link", attrs: { href: url } }] }).run();
    } else {
      chain.setLink({ href: url }).run();
    }
    closeLink();
  }

  const tools = [
    { label: "Bold", icon: Bold, active: state?.bold, run: () => editor?.chain().focus().toggleBold().run() },
    { label: "Italic", icon: Italic, active: state?.italic, run: () => editor?.chain().focus().toggleItalic().run() },
    {
      label: "Bulleted list",
      icon: List,
      active: state?.bullet,
      run: () => editor?.chain().focus().toggleBulletList().run(),
    },
    {
      label: "Numbered list",
      icon: ListOrdered,
      active: state?.ordered,
      run: () => editor?.chain().focus().toggleOrderedList().run(),
    },
    { label: "Link", icon: Link2, active: state?.link || linkDraft !== null, run: openLink },
    { label: "Remove link", icon: Unlink, active: false, run: () => editor?.chain().focus().unsetLink().run() },
    ...(images
      ? [{ label: "Insert image", icon: ImagePlus, active: imageOpen, run: () => setImageOpen((open) => !open) }]
      : []),
    ...(books
      ? [{ label: "Insert book", icon: BookPlus, active: bookOpen, run: () => setBookOpen((open) => !open) }]
      : []),
  ];

  return (
    <div
      className={clsx(
        "overflow-hidden rounded-md border border-slate-300 bg-white shadow-sm focus-within:border-brand-500 focus-within:ring-2 focus-within:ring-brand-500/30",
        invalid && "ring-2 ring-red-300",
      )}
    >
      <div
        role="toolbar"
        aria-label={`${label} formatting`}
        className="flex gap-0.5 border-b border-slate-200 bg-slate-50 px-1.5 py-1"
      >
        {tools.map((t) => (
          <button
            key={t.label}
            type="button"
            aria-label={t.label}
            title={t.label}
            aria-pressed={t.active}
            // Keep the caret in the text: a toolbar click must not move focus to the button.
            onMouseDown={(e) => e.preventDefault()}
            onClick={t.run}
            className={clsx(
              "flex h-7 w-7 items-center justify-center rounded text-slate-600 hover:bg-slate-200",
              t.active && "bg-indigo-100 text-brand-600",
              focusRing,
            )}
          >
            <t.icon className="h-4 w-4" aria-hidden="true" />
          </button>
        ))}
      </div>
      {linkDraft !== null && (
        <div className="space-y-2 border-b border-slate-200 bg-white px-2 py-2">
          {linkText !== null && (
            <div className="flex flex-wrap items-center gap-2">
              <label htmlFor={`${linkId}-text`} className="w-24 text-xs font-medium text-slate-700">
                Link text
              </label>
              <input
                id={`${linkId}-text`}
                type="text"
                value={linkText}
                placeholder="The words readers click"
                onChange={(e) => setLinkText(e.target.value)}
                onKeyDown={onLinkKey}
                className="h-8 min-w-[10rem] flex-1 rounded border border-slate-300 px-2 text-sm text-slate-900 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
              />
            </div>
          )}
          <div className="flex flex-wrap items-center gap-2">
            <label
              htmlFor={`${linkId}-url`}
              className={clsx("text-xs font-medium text-slate-700", linkText !== null && "w-24")}
            >
              Link address
            </label>
            <input
              ref={linkInput}
              id={`${linkId}-url`}
              type="url"
              inputMode="url"
              value={linkDraft}
              aria-invalid={linkError ? true : undefined}
              aria-describedby={linkError ? `${linkId}-error` : undefined}
              onChange={(e) => {
                setLinkDraft(e.target.value);
                setLinkError("");
              }}
              onKeyDown={onLinkKey}
              className="h-8 min-w-[10rem] flex-1 rounded border border-slate-300 px-2 text-sm text-slate-900 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-invalid:border-red-500"
            />
            <button
              type="button"
              onClick={applyLink}
              className={clsx(
                "h-8 rounded bg-brand-600 px-3 text-xs font-semibold text-white hover:bg-brand-700",
                focusRing,
              )}
            >
              Apply
            </button>
            <button
              type="button"
              onClick={closeLink}
              className={clsx("h-8 rounded px-3 text-xs font-semibold text-slate-700 hover:bg-slate-100", focusRing)}
            >
              Cancel
            </button>
          </div>
          {linkError && (
            <p id={`${linkId}-error`} role="alert" className="mt-1 text-xs text-red-600">
              {linkError}
            </p>
          )}
        </div>
      )}
      {imageOpen && images && (
        <ImageBar
          upload={images.upload}
          onInsert={insertImage}
          onCancel={() => {
            setImageOpen(false);
            editor?.chain().focus().run();
          }}
        />
      )}
      {bookOpen && books && (
        <BookBar
          books={books}
          onInsert={(bookId) => {
            editor?.chain().focus().insertContent({ type: "bookCard", attrs: { bookId } }).run();
            setBookOpen(false);
          }}
          onCancel={() => {
            setBookOpen(false);
            editor?.chain().focus().run();
          }}
        />
      )}
      <BookChoices.Provider value={books ?? []}>
        <EditorContent editor={editor} />
      </BookChoices.Provider>
    </div>
  );
}
