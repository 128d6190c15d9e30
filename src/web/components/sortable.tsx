// What the dashboard's drag-to-reorder lists of books share (dnd-kit): the sensors (pointer, touch
// after a short press, keyboard), the screen-reader instructions, the list around the rows, a
// row's place in it and the grip a row is dragged by.
import {
  closestCenter,
  DndContext,
  type DraggableAttributes,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { clsx } from "clsx";
import { GripVertical } from "lucide-react";
import type { HTMLAttributes, ReactNode } from "react";
import { focusRing } from "./ui/focus-ring.ts";

function useReorderSensors() {
  return useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
}

/** DndContext's `accessibility` for a list of books. */
const REORDER_BOOKS_HELP = {
  screenReaderInstructions: {
    draggable:
      "To pick up a book, press space or enter. Use the up and down arrow keys to move it. Press space or enter again to drop it, or escape to cancel.",
  },
};

/**
 * A list of books reordered by dragging their rows (each row uses `useSortableRow`): `onDrop`
 * gets the dragged book's id and the id of the book it was dropped on, never the same.
 */
export function SortableBooks(props: {
  ids: string[];
  onDrop: (id: string, overId: string) => void;
  children: ReactNode;
}) {
  const sensors = useReorderSensors();
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={({ active, over }) => {
        if (over && active.id !== over.id) props.onDrop(String(active.id), String(over.id));
      }}
      accessibility={REORDER_BOOKS_HELP}
    >
      <SortableContext items={props.ids} strategy={verticalListSortingStrategy}>
        {props.children}
      </SortableContext>
    </DndContext>
  );
}

/** A row of `SortableBooks`: `row` goes on the row's element, `handle` on its `DragHandle`. */
export function useSortableRow(id: string) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
  });
  return {
    row: { ref: setNodeRef, style: { transform: CSS.Transform.toString(transform), transition } },
    handle: { setActivatorNodeRef, attributes, listeners },
    isDragging,
  };
}

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
