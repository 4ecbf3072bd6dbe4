import type { ComponentChildren } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";

/**
 * A listbox that keeps in the page only the rows in view (and a few around them), so that an
 * account of 10,000 principals stays a few dozen elements. Rows have one fixed height, which is
 * what makes this small enough to own rather than to take a library for. The keyboard moves
 * the active row (arrows, Page Up/Down, Home, End); End first asks for every remaining row.
 */
export interface VirtualListProps<T> {
  label: string;
  items: readonly T[];
  /** More rows exist beyond the loaded ones. */
  more: boolean;
  loadMore: () => Promise<void>;
  loadAll: () => Promise<void>;
  id: (item: T) => string;
  row: (item: T) => ComponentChildren;
  selected: string | undefined;
  onSelect: (item: T) => void;
}

export const ROW_HEIGHT = 36;
const VIEW_HEIGHT = 480;
const OVERSCAN = 8;

export function VirtualList<T>(props: VirtualListProps<T>) {
  const { items } = props;
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [active, setActive] = useState(0);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(items.length, Math.ceil((scrollTop + VIEW_HEIGHT) / ROW_HEIGHT) + OVERSCAN);

  useEffect(() => {
    if (props.more && last >= items.length - OVERSCAN * 4) void props.loadMore();
  }, [last, items.length, props.more]);

  // The active row is always a row that exists (End asks for "past the last": the last).
  useEffect(() => {
    if (active > items.length - 1) setActive(Math.max(0, items.length - 1));
  }, [active, items.length]);

  // Wherever the active row moves, it is brought into view.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || items.length === 0 || active > items.length - 1) return;
    const top = active * ROW_HEIGHT;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight)
      el.scrollTop = top + ROW_HEIGHT - el.clientHeight;
    setScrollTop(el.scrollTop);
  }, [active]);

  const move = (index: number) => setActive(Math.max(0, Math.min(index, items.length - 1)));
  const page = Math.max(1, Math.floor(VIEW_HEIGHT / ROW_HEIGHT) - 1);
  const onKey = async (event: KeyboardEvent) => {
    const keys: Record<string, () => void | Promise<void>> = {
      ArrowDown: () => move(active + 1),
      ArrowUp: () => move(active - 1),
      PageDown: () => move(active + page),
      PageUp: () => move(active - page),
      Home: () => move(0),
      End: async () => {
        await props.loadAll();
        setActive(Number.MAX_SAFE_INTEGER);
      },
      Enter: () => {
        const item = items[active];
        if (item) props.onSelect(item);
      },
    };
    const action = keys[event.key === " " ? "Enter" : event.key];
    if (!action) return;
    event.preventDefault();
    await action();
  };
  const rows = [];
  for (let i = first; i < last; i++) {
    const item = items[i] as T;
    const id = props.id(item);
    rows.push(
      // biome-ignore lint/a11y/useKeyWithClickEvents: the listbox itself takes the keyboard.
      <div
        key={id}
        id={`row-${i}`}
        role="option"
        tabIndex={-1}
        class={`vrow${i === active ? " active" : ""}`}
        aria-selected={props.selected === id}
        aria-posinset={i + 1}
        aria-setsize={props.more ? -1 : items.length}
        data-id={id}
        style={{ top: `${i * ROW_HEIGHT}px` }}
        onClick={() => {
          setActive(i);
          props.onSelect(item);
        }}
      >
        {props.row(item)}
      </div>,
    );
  }
  return (
    <div
      ref={box}
      class="vlist"
      role="listbox"
      tabIndex={0}
      aria-label={props.label}
      aria-activedescendant={items.length ? `row-${Math.min(active, items.length - 1)}` : undefined}
      onScroll={(e) => setScrollTop((e.currentTarget as HTMLDivElement).scrollTop)}
      onKeyDown={onKey}
    >
      <div class="vspace" style={{ height: `${items.length * ROW_HEIGHT}px` }}>
        {rows}
      </div>
    </div>
  );
}
