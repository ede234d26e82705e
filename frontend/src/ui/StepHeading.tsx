import { type ReactNode, useEffect, useRef } from 'react';

/**
 * The heading of a step. It takes focus when the step appears, so a screen reader announces the
 * new step and keyboard users continue from the top of it instead of from a vanished button.
 */
export function StepHeading({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 ref={ref} tabIndex={-1} className="step-heading">
      {children}
    </h1>
  );
}
