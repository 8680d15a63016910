import { useElementSize, useMergedRef } from '@mantine/hooks';
import { useLayoutEffect, useRef, useState } from 'react';

/** Whether something of the table lies beyond the box's left and right edges (scrolled out of sight). */
function markHiddenEdges(frame: HTMLElement, box: HTMLElement) {
  const end = box.scrollWidth - box.clientWidth - box.scrollLeft;
  frame.toggleAttribute('data-hidden-start', box.scrollLeft > 1);
  frame.toggleAttribute('data-hidden-end', end > 1);
}

/**
 * How far a table must give way to fit its box, as a step from 0 (as it is) to `steps`: the table is measured after
 * every render, before it is painted, and takes one step more while it is wider than its box; a new box width measures
 * it afresh from 0. New rows only ever take it further: going back would close a row's open menu whenever the list
 * reloads. `frame` gets data-hidden-start / data-hidden-end while part of the table is scrolled out of sight on that
 * side, so its edges can say that the table scrolls.
 */
export function useTableFit(steps: number) {
  const frame = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const size = useElementSize<HTMLDivElement>();
  const boxRef = useMergedRef(box, size.ref);
  const width = Math.round(size.width);
  const [fit, setFit] = useState({ width, step: 0 });
  if (fit.width !== width) setFit({ width, step: 0 });
  const step = fit.width === width ? fit.step : 0;

  useLayoutEffect(() => {
    const element = box.current;
    if (!element || !frame.current) return;
    markHiddenEdges(frame.current, element);
    const wider = element.scrollWidth > element.clientWidth + 1;
    if (wider && step < steps) setFit((current) => ({ ...current, step: current.step + 1 }));
  });

  const onScroll = () => {
    if (frame.current && box.current) markHiddenEdges(frame.current, box.current);
  };

  return { frame, boxRef, width, step, onScroll };
}
