// What the dashboard's drag-to-reorder lists share (dnd-kit): the sensors (pointer, touch after a
// short press, keyboard), the screen-reader instructions, and the grip a row is dragged by.
import {
  type DraggableAttributes,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { sortableKeyboardCoordinates } from "@dnd-kit/sortable";
import { clsx } from "clsx";
import { GripVertical } from "lucide-react";
import type { HTMLAttributes } from "react";
import { focusRing } from "./ui/focus-ring.ts";

export function useReorderSensors() {
  return useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
}

/** DndContext's `accessibility` for a list of books. */
export const REORDER_BOOKS_HELP = {
  screenReaderInstructions: {
    draggable:
      "To pick up a book, press space or enter. Use the up and down arrow keys to move it. Press space or enter again to drop it, or escape to cancel.",
  },
};

/** The grip a sortable row is dragged by (useSortable's activator). */
export function DragHandle(props: {
  label: string;
  setActivatorNodeRef: (el: HTMLElement | null) => void;
  attributes: DraggableAttributes;
  listeners: HTMLAttributes<HTMLElement> | undefined;
  className?: string;
}) {
  return (
    <button
      ref={props.setActivatorNodeRef}
      type="button"
      className={clsx(
        "flex w-6 shrink-0 cursor-grab touch-none items-center justify-center rounded text-slate-400 hover:text-slate-600 active:cursor-grabbing",
        focusRing,
        props.className,
      )}
      aria-label={props.label}
      {...props.attributes}
      {...props.listeners}
    >
      <GripVertical className="h-5 w-5" aria-hidden="true" />
    </button>
  );
}
