// The rich-text editor for author HTML (book blurbs, the bio): bold, italic, lists and links.
// Pasting brings text only (the spec), so formatting from Word or a web page never arrives; the
// server sanitises whatever arrives anyway.
import { EditorContent, useEditor, useEditorState } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { clsx } from "clsx";
import { Bold, Italic, Link2, List, ListOrdered, Unlink } from "lucide-react";
import { useEffect, useRef } from "react";

const focusRing =
  "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-[#6366f1] focus-visible:ring-offset-2";

export function RichTextEditor({
  id,
  value,
  onChange,
  describedBy,
  label,
  minHeight = "min-h-32",
}: {
  id: string;
  value: string;
  onChange: (html: string) => void;
  describedBy?: string | undefined;
  label: string;
  /** Tailwind min-height for the writing area; long texts (a bio) want more room. */
  minHeight?: string;
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
        id,
        role: "textbox",
        "aria-multiline": "true",
        "aria-label": label,
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        class: `prose prose-sm max-w-none ${minHeight} px-3 py-2 text-sm text-slate-900 focus:outline-none [&_ul]:list-disc [&_ul]:pl-5 [&_ol]:list-decimal [&_ol]:pl-5 [&_a]:text-[#4f46e5] [&_a]:underline [&_p]:my-1`,
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

  function setLink() {
    if (!editor) return;
    const previous = (editor.getAttributes("link").href as string | undefined) ?? "https://";
    const url = window.prompt("Link address (http:// or https://)", previous);
    if (url === null) return;
    if (url.trim() === "") return void editor.chain().focus().unsetLink().run();
    if (!/^(https?:\/\/|mailto:)\S+$/i.test(url.trim()))
      return void window.alert("Please enter a link starting with http:// or https://");
    editor.chain().focus().extendMarkRange("link").setLink({ href: url.trim() }).run();
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
    { label: "Link", icon: Link2, active: state?.link, run: setLink },
    { label: "Remove link", icon: Unlink, active: false, run: () => editor?.chain().focus().unsetLink().run() },
  ];

  return (
    <div className="overflow-hidden rounded-md border border-slate-300 bg-white shadow-sm focus-within:border-[#6366f1] focus-within:ring-2 focus-within:ring-[#6366f1]/30">
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
              t.active && "bg-indigo-100 text-[#4f46e5]",
              focusRing,
            )}
          >
            <t.icon className="h-4 w-4" aria-hidden="true" />
          </button>
        ))}
      </div>
      <EditorContent editor={editor} />
    </div>
  );
}
